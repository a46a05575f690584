import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageDir } from './mount.fixture.js';

// The README's mounting example, run as written from the package directory (where
// server-everything is installed), twice: the second run reads the cache the first wrote.
const readme = readFileSync(path.join(packageDir, 'README.md'), 'utf8');
const example = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]!).find((code) => code.includes('mountServer('))!;
const cacheFile = path.join(packageDir, 'node_modules/.cache/toolshed/mcp/everything.json');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(packageDir, '.readme-mount-'));
  writeFileSync(path.join(dir, 'mount.mjs'), example);
  rmSync(cacheFile, { force: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(dir, 'mount.mjs')], { cwd: packageDir, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

describe('README mounting example', () => {
  it('is there', () => {
    expect(example).toContain("from '@toolshed/mcp/mount'");
  });

  it('lists, caches, calls, refuses a bad input and closes; then runs again from the cache', async () => {
    for (const round of [1, 2]) {
      const { code, out } = await run();
      expect(code, `round ${round}`).toBe(0);
      expect(out).toContain("output: 'The sum of 2 and 3 is 5.'");
      expect(out).toContain("code: 'invalid_input'");
      expect(out).toContain(`message: 'Invalid input for get-sum.b: missing required field "b"'`);
      expect(out).toContain('connected');
      expect(JSON.parse(readFileSync(cacheFile, 'utf8')).tools.map((tool: { name: string }) => tool.name)).toContain('get-sum');
    }
  });
});
