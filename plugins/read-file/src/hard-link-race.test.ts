import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestTree, read, registryFor, type TestTree } from './test-tree.fixture.js';

/**
 * Another process makes secrets and second names for them, and ordinary
 * linked pairs, while read_file reads each second name as soon as it appears:
 * the walk runs while names change, and no second name of a secret may be
 * read. Bounded: PAIRS of each.
 */
const PAIRS = 150;
const CONCURRENCY = 4;

const MAKER = `
const fs = require('node:fs');
const path = require('node:path');
const [root, pairs] = process.argv.slice(1);
for (let i = 0; i < Number(pairs); i++) {
  fs.writeFileSync(path.join(root, 'config', '.env.race-' + i), 'TOKEN=TOKEN-SECRET-' + i + '\\n');
  fs.linkSync(path.join(root, 'config', '.env.race-' + i), path.join(root, 'race', 'secret-' + i + '.txt'));
  fs.writeFileSync(path.join(root, 'race', 'plain-' + i + '.txt'), 'PLAIN ' + i + '\\n');
  fs.linkSync(path.join(root, 'race', 'plain-' + i + '.txt'), path.join(root, 'race', 'plain-' + i + '-2.txt'));
}
`;

let tree: TestTree;
let maker: ChildProcess;
beforeAll(async () => {
  tree = await makeTestTree();
  await mkdir(path.join(tree.root, 'race'));
});
afterAll(async () => {
  maker?.kill();
  await tree.cleanup();
});

describe('hard links made while read_file walks', () => {
  it(`never reads a second name of a secret, over ${PAIRS} secrets made by another process`, async () => {
    const registry = registryFor({ root: tree.root });
    maker = spawn(process.execPath, ['-e', MAKER, tree.root, String(PAIRS)], { stdio: 'inherit' });
    const exited = new Promise((resolve) => maker.once('exit', resolve));
    const outcomes = { secretRefused: 0, plainRead: 0, retried: 0 };
    const readOnce = async (name: string) => {
      for (;;) {
        const outcome = await read(registry, { path: `race/${name}` });
        if (outcome.ok || outcome.error.code === 'denied') return outcome;
        // Not made yet, or its names changed during the walk: ask again.
        expect(outcome.error.message).toMatch(/no such file|kept changing/);
        outcomes.retried += 1;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < PAIRS) {
          const i = next++;
          const secret = await readOnce(`secret-${i}.txt`);
          expect(secret.ok, `race/secret-${i}.txt was read`).toBe(false);
          expect(JSON.stringify(secret)).not.toContain('TOKEN-SECRET');
          outcomes.secretRefused += 1;
          const plain = await readOnce(`plain-${i}-2.txt`);
          expect(plain.ok && plain.output).toMatchObject({ text: `PLAIN ${i}` });
          outcomes.plainRead += 1;
        }
      }),
    );
    await exited;
    expect(outcomes).toMatchObject({ secretRefused: PAIRS, plainRead: PAIRS });
  }, 120_000);
});
