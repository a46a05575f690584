import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { type ContentPart, defineTool, outcomeRecord, ToolRegistry, withParts } from './index.js';

// A real 1x1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const image: ContentPart = { type: 'image', mimeType: 'image/png', data: PNG };

function registryWith(parts: unknown, declared: ('image' | 'audio' | 'file')[] | null = ['image', 'file']) {
  const tool = defineTool({
    name: 'shot',
    description: 'Take a screenshot.',
    input: v.object({}),
    output: v.object({ title: v.string() }),
    ...(declared ? { parts: declared } : {}),
    run: () => withParts({ title: 'home page' }, parts as ContentPart[]),
  });
  return new ToolRegistry().register(tool);
}

describe('content parts', () => {
  it('carries an image part beside the output', async () => {
    const outcome = await registryWith([image]).dispatch({ name: 'shot', input: {} });
    expect(outcome).toMatchObject({ ok: true, output: { title: 'home page' }, parts: [image] });
    expect(outcome).not.toHaveProperty('partIssues');
  });

  it('carries parts from an async handler and to subscribers of call.end', async () => {
    const registry = new ToolRegistry().register(
      defineTool({ name: 'shot', description: 'd', input: v.object({}), parts: ['image'], run: async () => withParts('done', [image]) }),
    );
    const ends: unknown[] = [];
    registry.subscribe((event) => event.type === 'call.end' && ends.push(event.outcome));
    const outcome = await registry.dispatch({ name: 'shot', input: {} });
    expect(outcome).toMatchObject({ ok: true, output: 'done', parts: [image] });
    expect(ends).toEqual([outcome]);
  });

  it('leaves out a part whose bytes are not its MIME type, keeping the output and the other parts', async () => {
    const lying = { type: 'image', mimeType: 'image/jpeg', data: PNG };
    const outcome = await registryWith([lying, image]).dispatch({ name: 'shot', input: {} });
    expect(outcome).toMatchObject({ ok: true, output: { title: 'home page' }, parts: [image] });
    expect(outcome.ok && outcome.partIssues).toEqual([
      {
        path: ['parts', 0, 'mimeType'],
        at: 'shot.parts[0].mimeType',
        message: 'shot returned part 0 labelled image/jpeg, but its bytes are not image/jpeg; it was left out.',
      },
    ]);
  });

  it.each([
    ['characters outside the alphabet', `${PNG.slice(0, -4)}*A==`],
    ['base64url', PNG.replace('A', '_')],
    ['a length that is not a multiple of 4', PNG.slice(0, -1)],
    ['whitespace', `${PNG.slice(0, 8)}\n${PNG.slice(9)}`],
  ])('refuses base64 with %s, naming the field', async (_, data) => {
    const outcome = await registryWith([{ ...image, data }]).dispatch({ name: 'shot', input: {} });
    expect(outcome).toMatchObject({ ok: true, output: { title: 'home page' } });
    expect(outcome).not.toHaveProperty('parts');
    expect(outcome.ok && outcome.partIssues?.map((i) => i.at)).toEqual(['shot.parts[0].data']);
    expect(outcome.ok && outcome.partIssues?.[0]?.message).toMatch(/not standard padded base64/);
  });

  it('keeps the first 64 of 10,000 parts and says which were left out', async () => {
    const outcome = await registryWith(Array.from({ length: 10_000 }, () => image)).dispatch({ name: 'shot', input: {} });
    expect(outcome.ok && outcome.parts).toHaveLength(64);
    expect(outcome.ok && outcome.partIssues).toEqual([
      {
        path: ['parts', 64],
        at: 'shot.parts[64]',
        message: 'shot returned 10000 parts; at most 64 are sent, so parts 64 to 9999 were left out.',
      },
    ]);
  });

  it('refuses a part above the byte cap before decoding it', async () => {
    const big = 'A'.repeat(28 * 1024 * 1024);
    const outcome = await registryWith([{ type: 'file', mimeType: 'application/octet-stream', data: big }]).dispatch({
      name: 'shot',
      input: {},
    });
    expect(outcome.ok && outcome.partIssues?.[0]?.message).toBe(
      'shot returned part 0 of 22020096 bytes, above the cap of 20971520 bytes; it was left out.',
    );
  });

  it.each([
    [
      { type: 'video', mimeType: 'video/mp4', data: 'AAAA' },
      'shot.parts[0].type',
      /type "video"; a part's type is one of image, audio, file/,
    ],
    [
      { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
      'shot.parts[0].type',
      /of type audio, but the tool declares parts: image, file/,
    ],
    [{ type: 'image', mimeType: 'text/plain', data: 'AAAA' }, 'shot.parts[0].mimeType', /an image part's MIME type starts with image\//],
    [{ type: 'image', mimeType: 'png', data: PNG }, 'shot.parts[0].mimeType', /MIME type "png"; give one such as image\/png/],
    [{ type: 'image', mimeType: 'image/png', text: 'x' }, 'shot.parts[0].text', /only a file part carries text/],
    [{ type: 'file', mimeType: 'text/plain' }, 'shot.parts[0]', /with no content/],
    [
      { type: 'image', mimeType: 'image/png', data: PNG, name: 'x'.repeat(10_000) },
      'shot.parts[0].name',
      /whose name is 10000 characters, above the cap of 255/,
    ],
    ['png', 'shot.parts[0]', /not an object/],
  ])('refuses %j with an error naming %s', async (part, at, message) => {
    const outcome = await registryWith([part, image]).dispatch({ name: 'shot', input: {} });
    expect(outcome.ok && outcome.parts).toEqual([image]);
    expect(outcome.ok && outcome.partIssues?.[0]?.at).toBe(at);
    expect(outcome.ok && outcome.partIssues?.[0]?.message).toMatch(message);
  });

  it('refuses every part of a tool that declares none', async () => {
    const outcome = await registryWith([image], null).dispatch({ name: 'shot', input: {} });
    expect(outcome).not.toHaveProperty('parts');
    expect(outcome.ok && outcome.partIssues?.[0]?.message).toBe(
      'shot returned part 0 of type image, but the tool declares no parts; it was left out.',
    );
  });

  it('takes a text file part and a part by reference without a MIME type', async () => {
    const parts = [
      { type: 'file', mimeType: 'text/markdown', text: '# Notes', uri: 'file:///notes.md' },
      { type: 'file', uri: 'https://example.invalid/report.pdf', name: 'report' },
    ];
    const outcome = await registryWith(parts).dispatch({ name: 'shot', input: {} });
    expect(outcome.ok && outcome.parts).toEqual(parts);
  });

  it('still fails on output that breaks the schema, whatever the parts', async () => {
    const tool = defineTool({
      name: 'shot',
      description: 'd',
      input: v.object({}),
      output: v.object({ title: v.string() }),
      parts: ['image'],
      run: () => withParts({ title: 3 } as unknown as { title: string }, [image]),
    });
    const outcome = await new ToolRegistry().register(tool).dispatch({ name: 'shot', input: {} });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_output' } });
  });

  it('records a part for a transcript by type, MIME type, size and digest, never its bytes', async () => {
    const outcome = await registryWith([image]).dispatch({ name: 'shot', input: {} });
    const record = outcomeRecord(outcome);
    const sha256 = createHash('sha256').update(Buffer.from(PNG, 'base64')).digest('hex');
    expect(record).toMatchObject({ ok: true, parts: [{ type: 'image', mimeType: 'image/png', bytes: 70, sha256 }] });
    expect(JSON.stringify(record)).not.toContain(PNG.slice(0, 20));
  });
});
