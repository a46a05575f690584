import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expectConformance } from '@toolshed/testing';
import { afterAll, beforeAll, it } from 'vitest';
import plugin from './index.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'toolshed-read-file-conformance-'));
  await writeFile(path.join(root, 'notes.txt'), 'first\nsecond\nthird\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));

it('passes the Toolshed conformance checks', async () => {
  await expectConformance(plugin, {
    options: { root },
    samples: {
      read_file: [{ path: 'notes.txt' }, { path: 'notes.txt', offset: -1 }, { path: 'notes.txt', offset: 2, limit: 1 }],
    },
  });
});
