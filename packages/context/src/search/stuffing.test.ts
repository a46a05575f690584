import { describe, expect, it } from 'vitest';
import { createToolIndex, loadEmbedder, type SearchableTool, type ToolIndex } from '../index.js';
import { referenceQueries as queries, referenceTools, stuffedTool } from './stuffed-tool.fixture.js';

const catalogue = [...referenceTools, stuffedTool];

/** How many of the queries put the stuffed tool first, and among the first five, in a ranking. */
function reach(rank: (query: string) => string[]): { first: number; top5: number } {
  const ranked = queries.map(rank);
  return {
    first: ranked.filter((names) => names[0] === stuffedTool.name).length / queries.length,
    top5: ranked.filter((names) => names.slice(0, 5).includes(stuffedTool.name)).length / queries.length,
  };
}

const names = (index: ToolIndex) => (query: string) => index.search(query).map((hit) => hit.name);

describe('a keyword-stuffed tool among real tools', () => {
  it('comes first for at most 5% of ordinary requests and among the first five for at most 20%, with BM25 alone', () => {
    const bound = reach(names(createToolIndex(catalogue)));
    expect(bound.first).toBeLessThanOrEqual(0.05);
    expect(bound.top5).toBeLessThanOrEqual(0.2);
  });

  it('is bounded in the embedding ranking alone and in the fusion too', async () => {
    const fused = createToolIndex(catalogue, { embedder: (await loadEmbedder())! });
    const byMeaning = reach((query) =>
      fused
        .search(query, { limit: catalogue.length })
        .filter((hit) => hit.scores.embedding !== undefined)
        .sort((a, b) => b.scores.embedding! - a.scores.embedding!)
        .map((hit) => hit.name),
    );
    expect(byMeaning.first).toBeLessThanOrEqual(0.05);
    expect(byMeaning.top5).toBeLessThanOrEqual(0.05);
    const both = reach(names(fused));
    expect(both.first).toBeLessThanOrEqual(0.05);
    expect(both.top5).toBeLessThanOrEqual(0.1);
  });
});

describe('what repetition and length add to a score', () => {
  const others: SearchableTool[] = [
    { name: 'read_text_file', description: 'Read a whole text file as text.' },
    { name: 'slack_post_message', description: 'Post a new message to a Slack channel.' },
    { name: 'create_issue', description: 'Open a new issue in a GitHub repository.' },
  ];
  const sendEmail = (description: string): SearchableTool => ({
    name: 'send_email',
    description,
    inputSchema: { type: 'object', properties: { to: { type: 'string', description: `The recipient. ${description}` } } },
  });
  const once = sendEmail('Send an email to a recipient.');
  const fifty = sendEmail(`Send an ${'email '.repeat(50)}to a recipient.`);
  const thrice = sendEmail(`Send an ${'email '.repeat(3)}to a recipient.`);
  const score = (index: ToolIndex, query: string) => index.search(query).find((hit) => hit.name === 'send_email');

  it('BM25 counts a word said 50 times as said once, in the description and the parameters', () => {
    const plain = score(createToolIndex([...others, once]), 'email a recipient');
    expect(plain?.score).toBeGreaterThan(0);
    expect(score(createToolIndex([...others, fifty]), 'email a recipient')?.score).toBe(plain!.score);
  });

  it('the embedding counts a word said 50 times as said three times', async () => {
    const embedder = (await loadEmbedder())!;
    const query = 'email my landlord about the broken heater';
    const three = score(createToolIndex([...others, thrice], { embedder }), query)?.scores.embedding;
    expect(three).toBeGreaterThan(0);
    expect(score(createToolIndex([...others, fifty], { embedder }), query)?.scores.embedding).toBe(three);
  });

  it('BM25 reads only the first words of a long description, so a tail of every subject reaches nothing', () => {
    const long: SearchableTool = {
      name: 'send_email',
      description: `Send an email to a recipient. ${'calendar weather invoice '.repeat(3)}${Array.from({ length: 40 }, (_, i) => `topic${i}`).join(' ')} spreadsheet`,
    };
    const index = createToolIndex([...others, long]);
    expect(index.search('email')[0]!.name).toBe('send_email');
    expect(index.search('calendar')[0]!.name).toBe('send_email');
    expect(index.search('spreadsheet')).toEqual([]);
  });
});
