import { describe, expect, it } from 'vitest';
import { createToolIndex, loadEmbedder, type SearchableTool } from '../index.js';

const tools: SearchableTool[] = [
  { name: 'create_issue', description: 'Create a new issue in a GitHub repository.' },
  { name: 'puppeteer_screenshot', description: 'Take a screenshot of the current page or a specific element.' },
  { name: 'get_current_time', description: 'Get the current time in a specific timezone.' },
  { name: 'slack_post_message', description: 'Post a new message to a Slack channel.' },
];

describe('createToolIndex with the embedding table', () => {
  it('loads @toolshed/context-embeddings when installed, and nothing for a package that is not', async () => {
    expect(await loadEmbedder()).toBeDefined();
    expect(await loadEmbedder('@toolshed/no-such-ranker')).toBeUndefined();
  });

  it('finds a tool by meaning when the query shares no word with it, and says both rankers ran', async () => {
    const embedder = (await loadEmbedder())!;
    const bm25 = createToolIndex(tools);
    const fused = createToolIndex(tools, { embedder });
    expect(bm25.ranker).toBe('bm25');
    expect(fused.ranker).toBe('bm25+embeddings');
    expect(bm25.search('report a bug about the crash')).toEqual([]);
    const [first] = fused.search('report a bug about the crash');
    expect(first).toMatchObject({ name: 'create_issue', scores: { embedding: expect.any(Number) } });
    expect(first!.scores.bm25).toBeUndefined();
  });

  it("reports each ranker's score, ordered by their reciprocal rank fusion", async () => {
    const index = createToolIndex(tools, { embedder: (await loadEmbedder())! });
    const hits = index.search('post a message to slack', { limit: 2 });
    expect(hits[0]).toMatchObject({ name: 'slack_post_message', scores: { bm25: expect.any(Number), embedding: expect.any(Number) } });
    // First in both rankings: 1/61 + 1/61.
    expect(hits[0]!.score).toBeCloseTo(2 / 61, 10);
    expect(hits[1]!.score).toBeLessThan(hits[0]!.score);
  });

  it('finds nothing for stop words or words the table does not hold whole', async () => {
    const index = createToolIndex(tools, { embedder: (await loadEmbedder())! });
    expect(index.search('')).toEqual([]);
    expect(index.search('the of and')).toEqual([]);
    expect(index.search('zzzqqq')).toEqual([]);
  });
});
