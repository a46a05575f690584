// Content parts both ways through the real `toolshed` binary: server-everything and a small SDK
// server of the tests' own mounted, served back out by `toolshed serve`, read by the SDK client.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, EVERYTHING, project, removeMade, toolshed } from './mcp-project.fixture.js';

const MEDIA_SERVER = fileURLToPath(new URL('../test-fixtures/mcp-servers/media-server.mjs', import.meta.url));

afterAll(removeMade);

async function connect(command: string, args: string[]): Promise<Client> {
  const client = new Client({ name: 'rich-serve-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, env: process.env as Record<string, string>, stderr: 'pipe' }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult['content']> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  return result.content;
}

const notText = (content: CallToolResult['content']) => content.filter((block) => block.type !== 'text');

describe("toolshed serve passes a mounted server's content blocks on as they are", () => {
  let direct: Client;
  let media: Client;
  let served: Client;
  beforeAll(async () => {
    const dir = project({
      mcpServers: [
        {
          name: 'everything',
          command: process.execPath,
          args: [EVERYTHING, 'stdio'],
          readOnlyTools: ['get-tiny-image', 'get-resource-reference', 'get-resource-links', 'get-structured-content'],
        },
        { name: 'media', command: process.execPath, args: [MEDIA_SERVER], readOnlyTools: ['media'] },
      ],
    });
    [direct, media, served] = await Promise.all([
      connect(process.execPath, [EVERYTHING, 'stdio']),
      connect(process.execPath, [MEDIA_SERVER]),
      connect(process.execPath, [bin, 'serve', '--cwd', dir]),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([direct?.close(), media?.close(), served?.close()]);
  });

  it('get-tiny-image arrives as an image block, byte for byte, with the text beside it', async () => {
    const original = await call(direct, 'get-tiny-image');
    const passed = await call(served, 'get-tiny-image');
    expect(notText(passed)).toEqual(notText(original));
    expect(notText(passed)).toEqual([{ type: 'image', mimeType: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) }]);
    expect(passed[0]).toEqual({ type: 'text', text: "Here's the image you requested:\nThe image above is the MCP logo." });
    expect(JSON.stringify(passed.filter((block) => block.type === 'text'))).not.toContain('iVBORw0KGgo');
  });

  it('audio, an image resource and a resource link arrive as the server sent them', async () => {
    const original = await call(media, 'media');
    const passed = await call(served, 'media');
    expect(notText(passed)).toEqual(notText(original));
    expect(notText(passed).map((block) => block.type)).toEqual(['audio', 'resource', 'resource_link']);
  });

  it.each([
    ['Blob', 'blob', 'This is a base64 blob'],
    ['Text', 'text', 'This is a plaintext resource'],
  ])('a %s resource arrives as an embedded resource with its %s', async (resourceType, field, says) => {
    const passed = notText(await call(served, 'get-resource-reference', { resourceType, resourceId: 3 }));
    expect(passed).toEqual([
      {
        type: 'resource',
        resource: {
          uri: `demo://resource/dynamic/${field === 'blob' ? 'blob' : 'text'}/3`,
          mimeType: 'text/plain',
          [field]: expect.any(String),
        },
      },
    ]);
    const block = passed[0]!;
    if (block.type !== 'resource') throw new Error(`expected a resource block, got ${block.type}`);
    const { resource } = block;
    const text = 'blob' in resource ? Buffer.from(resource.blob, 'base64').toString('utf8') : resource.text;
    expect(text).toMatch(new RegExp(`^Resource 3: ${says} created at`));
  });

  it('resource links arrive as resource_link blocks', async () => {
    const original = await call(direct, 'get-resource-links', { count: 3 });
    const passed = await call(served, 'get-resource-links', { count: 3 });
    expect(notText(passed)).toEqual(notText(original));
    expect(notText(passed)).toHaveLength(3);
  });

  it('structured output arrives as structuredContent', async () => {
    const result = (await served.callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
  });
});

describe('toolshed call with parts', () => {
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  let dir: string;
  beforeAll(() => {
    dir = project({ mcpServers: [{ name: 'media', command: process.execPath, args: [MEDIA_SERVER], readOnlyTools: ['media'] }] });
  });

  it('prints each part by type, MIME type and size, never its base64', async () => {
    const run = await toolshed(dir, ['call', 'media', '{}']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        'A beep, a pixel and a link.',
        '[part 0: audio audio/wav 52 bytes]',
        '[part 1: image image/png 70 bytes]',
        '[part 2: file text/markdown at file:///notes.md "notes.md"]',
        '',
      ].join('\n'),
    );
  });

  it('--parts-dir writes the bytes to files, refuses to overwrite them, and --json and the transcript record digests, not bytes', async () => {
    const out = path.join(dir, 'parts');
    const transcript = path.join(dir, 'calls.jsonl');
    const run = await toolshed(dir, ['call', 'media', '{}', '--parts-dir', out, '--json', '--transcript', transcript]);
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(out, 'part-1.png')).equals(Buffer.from(PNG, 'base64'))).toBe(true);
    expect(readFileSync(path.join(out, 'part-0.wav')).subarray(0, 4).toString()).toBe('RIFF');
    expect(existsSync(path.join(out, 'part-2.md'))).toBe(false);
    const sha256 = createHash('sha256').update(Buffer.from(PNG, 'base64')).digest('hex');
    expect(JSON.parse(run.stdout).parts[1]).toEqual({
      type: 'image',
      mimeType: 'image/png',
      bytes: 70,
      sha256,
      uri: 'file:///pixel.png',
      file: path.join(out, 'part-1.png'),
    });
    expect(run.stdout).not.toContain(PNG.slice(0, 16));
    const end = readFileSync(transcript, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((event) => event.type === 'call.end');
    expect(end.outcome.parts[1]).toEqual({ type: 'image', mimeType: 'image/png', bytes: 70, sha256, uri: 'file:///pixel.png' });
    expect(readFileSync(transcript, 'utf8')).not.toContain(PNG.slice(0, 16));
    // The result's cost in the next request: the 1x1 image as OpenAI counts images (85 + 170 per tile), not as base64 text.
    const cost = readFileSync(transcript, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((event) => event.type === 'result');
    expect(cost.parts[1]).toEqual({
      index: 1,
      type: 'image',
      mimeType: 'image/png',
      bytes: 70,
      counted: true,
      rule: 'openai-tiles',
      width: 1,
      height: 1,
      tokens: 255,
    });
    expect(cost.parts[0]).toMatchObject({ type: 'audio', counted: false });

    const again = await toolshed(dir, ['call', 'media', '{}', '--parts-dir', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`--parts-dir: ${path.join(out, 'part-0.wav')} already exists; name an empty folder`);
  });
});
