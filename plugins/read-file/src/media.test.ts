import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_MEDIA_BYTES } from './options.js';
import { expectFailure, expectSuccess, read, registryFor } from './test-tree.fixture.js';

// A real 1x1 PNG, a JPEG's and a PDF's first bytes: read_file tells them by their bytes, not their names.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n');

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'read-file-media-'));
  await mkdir(path.join(root, 'docs'));
  await writeFile(path.join(root, 'docs/pixel.png'), PNG);
  await writeFile(path.join(root, 'docs/photo.png'), JPEG);
  await writeFile(path.join(root, 'docs/spec.pdf'), PDF);
  await writeFile(path.join(root, 'docs/logs.gz'), Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]));
  await writeFile(path.join(root, '.env'), PNG);
  // 50 MB, sparse: a PNG header and then nothing.
  const huge = await open(path.join(root, 'docs/huge.png'), 'w');
  await huge.write(PNG, 0, PNG.length, 0);
  await huge.truncate(50 * 1024 * 1024);
  await huge.close();
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('read_file and images', () => {
  it('returns a PNG as an image part, byte for byte, with an output that says it is attached', async () => {
    const outcome = expectSuccess(await read(registryFor({ root }), { path: 'docs/pixel.png' }));
    expect(outcome.parts).toEqual([{ type: 'image', mimeType: 'image/png', data: PNG.toString('base64'), name: 'docs/pixel.png' }]);
    expect(outcome.output).toEqual({
      path: 'docs/pixel.png',
      text: '',
      firstLine: 0,
      lastLine: 0,
      hasMore: false,
      size: PNG.length,
      note: '"docs/pixel.png" is a PNG image (70 bytes); it is attached to this result rather than shown as text.',
    });
    expect(outcome).not.toHaveProperty('partIssues');
  });

  it('names an image by its bytes, not its extension, and sends a PDF as a document part', async () => {
    const jpeg = expectSuccess(await read(registryFor({ root }), { path: 'docs/photo.png' }));
    expect(jpeg.parts?.[0]).toMatchObject({ type: 'image', mimeType: 'image/jpeg' });
    const pdf = expectSuccess(await read(registryFor({ root }), { path: 'docs/spec.pdf' }));
    expect(pdf.parts).toEqual([{ type: 'file', mimeType: 'application/pdf', data: PDF.toString('base64'), name: 'docs/spec.pdf' }]);
  });

  it('refuses a 50 MB image with a note saying the size a model API takes, before reading it', async () => {
    const failure = expectFailure(await read(registryFor({ root }), { path: 'docs/huge.png' }), 'execution_failed');
    expect(failure.error.message).toBe(
      `read_file will not send "docs/huge.png": it is a PNG image of 52428800 bytes, and read_file sends at most ${DEFAULT_MAX_MEDIA_BYTES} bytes ` +
        '(above that, model APIs refuse it). Ask the user for a smaller copy (scaled down, cropped or fewer pages).',
    );
  });

  it('keeps the jail and the deny list for images, and refuses other binary files as before', async () => {
    expectFailure(await read(registryFor({ root }), { path: '.env' }), 'denied');
    expectFailure(await read(registryFor({ root, deny: ['*.png'] }), { path: 'docs/pixel.png' }), 'denied');
    expectFailure(await read(registryFor({ root: path.join(root, 'docs') }), { path: '../.env' }), 'denied');
    const gz = expectFailure(await read(registryFor({ root }), { path: 'docs/logs.gz' }), 'execution_failed');
    expect(gz.error.message).toBe('read_file cannot show "docs/logs.gz": it is a binary file (8 bytes), not text.');
  });

  it('takes a smaller cap from its options', async () => {
    const failure = expectFailure(await read(registryFor({ root, maxMediaBytes: 10 }), { path: 'docs/pixel.png' }), 'execution_failed');
    expect(failure.error.message).toContain('read_file sends at most 10 bytes');
  });
});
