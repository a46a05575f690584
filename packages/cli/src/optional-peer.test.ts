import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { importOptionalPeer } from './optional-peer.js';

const dir = mkdtempSync(path.join(tmpdir(), 'toolshed-optional-peer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// A specifier in a variable: these modules exist only at run time.
const load = (specifier: string) => () => import(specifier) as Promise<Record<string, unknown>>;

it('names the feature and the one command that installs a missing peer', async () => {
  const error = await importOptionalPeer('@toolshed/not-installed', 'serve', load('@toolshed/not-installed')).catch(
    (caught: Error) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).toBe(
    'serve needs @toolshed/not-installed, which is not installed where @toolshed/cli is. Run: npm install @toolshed/not-installed ' +
      '(run by npx, name it too: npx -y -p @toolshed/cli -p @toolshed/not-installed toolshed ...)',
  );
});

it('passes on a failure inside an installed peer, and a missing package of its own, unchanged', async () => {
  const broken = path.join(dir, 'broken.mjs');
  writeFileSync(broken, "throw new Error('broken at import');\n");
  await expect(importOptionalPeer('@toolshed/mcp', 'serve', load(pathToFileURL(broken).href))).rejects.toThrow('broken at import');
  // The peer is there but one of its own dependencies is not: that is not "install the peer".
  const inner = path.join(dir, 'inner.mjs');
  writeFileSync(inner, "import 'some-dependency-that-is-gone';\n");
  await expect(importOptionalPeer('@toolshed/mcp', 'serve', load(pathToFileURL(inner).href))).rejects.toThrow(
    /Cannot find package 'some-dependency-that-is-gone'/,
  );
});

it('returns the module when it is installed', async () => {
  const mcp = await importOptionalPeer('@toolshed/mcp', 'serve', () => import('@toolshed/mcp'));
  expect(typeof mcp.serveStdio).toBe('function');
});
