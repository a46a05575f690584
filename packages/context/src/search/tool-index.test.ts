import { describe, expect, it } from 'vitest';
import { createToolIndex, type SearchableTool } from '../index.js';

const tools: SearchableTool[] = [
  {
    name: 'read_text_file',
    description: 'Read a whole text file as text; head or tail give only its first or last lines.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, head: { type: 'number', description: 'Only the first N lines' } },
    },
  },
  {
    name: 'read_multiple_files',
    description: 'Read several files in one call; a file that fails does not stop the others.',
    inputSchema: { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } } },
  },
  {
    name: 'read_media_file',
    description: 'Read an image or audio file and return it base64-encoded with its MIME type.',
    inputSchema: { type: 'object' },
  },
  { name: 'git_commit', description: 'Record the staged changes in the repository with a message.', inputSchema: { type: 'object' } },
  {
    name: 'slackPostMessage',
    description: 'Post a new message to a channel.',
    inputSchema: { type: 'object', properties: { channel_id: { type: 'string', description: 'The Slack channel' } } },
  },
];

describe('createToolIndex', () => {
  it('ranks near-duplicates by what the words say', () => {
    const index = createToolIndex(tools);
    expect(index.search('read several files at once')[0]!.name).toBe('read_multiple_files');
    expect(index.search('show the last lines of a log file')[0]!.name).toBe('read_text_file');
    expect(index.search('look at a picture')[0]?.name ?? 'none').not.toBe('git_commit');
    expect(index.search('image as base64')[0]!.name).toBe('read_media_file');
  });

  it('splits names at underscores and case changes, and stems words', () => {
    const index = createToolIndex(tools);
    expect(index.search('posting messages')[0]!.name).toBe('slackPostMessage');
    expect(index.search('committed')[0]!.name).toBe('git_commit');
    // Parameter names and descriptions are searched too.
    expect(index.search('slack channel')[0]!.name).toBe('slackPostMessage');
  });

  it('finds a tool by the words people use for the same thing, below the word itself', () => {
    const index = createToolIndex([
      { name: 'list_directory', description: 'List the entries of a directory.' },
      { name: 'delete_key', description: 'Delete a key from the cache.' },
      { name: 'remove_user', description: 'Remove a user from the team.' },
    ]);
    expect(index.search('what is in this folder')[0]!.name).toBe('list_directory');
    const hits = index.search('remove');
    expect(hits.map((hit) => hit.name)).toEqual(['remove_user', 'delete_key']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('returns scores best first and at most limit hits', () => {
    const index = createToolIndex(tools);
    const hits = index.search('read file', { limit: 2 });
    expect(hits).toHaveLength(2);
    expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[1]!.score);
    expect(index.search('read file').length).toBeLessThanOrEqual(5);
    expect(index.size).toBe(5);
  });

  it('finds nothing for a query of unknown or empty words', () => {
    const index = createToolIndex(tools);
    expect(index.search('')).toEqual([]);
    expect(index.search('the of and')).toEqual([]);
    expect(index.search('zzzqqq')).toEqual([]);
    expect(createToolIndex([]).search('read')).toEqual([]);
  });

  it('refuses definitions it cannot index, naming the one that is wrong', () => {
    expect(() => createToolIndex({} as never)).toThrow(
      new TypeError('createToolIndex expects an array of tool definitions ({name, description, inputSchema}).'),
    );
    expect(() => createToolIndex([{ description: 'x' } as never])).toThrow(
      new TypeError('Tool definition [0] has no "name" (a non-empty string).'),
    );
    expect(() => createToolIndex([tools[0]!, { name: 'x' } as never])).toThrow(
      new TypeError('Tool definition [1] (x) has no "description" (a string).'),
    );
    expect(() => createToolIndex([tools[0]!, tools[0]!])).toThrow(
      new TypeError('Tool definition [1]: the name "read_text_file" is given twice; tool names are unique.'),
    );
  });

  it('refuses a bad query or limit', () => {
    const index = createToolIndex(tools);
    expect(() => index.search(3 as never)).toThrow(new TypeError('A search query is a string, got number.'));
    expect(() => index.search('read', { limit: 0 })).toThrow(new RangeError('limit must be a whole number of at least 1, got 0.'));
  });
});
