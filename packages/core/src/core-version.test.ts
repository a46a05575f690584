import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { coreVersion } from './core-version.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
// A space in the path: the errors name the file as the system writes it, not as a URL (%20).
const scratch = mkdtempSync(path.join(tmpdir(), 'toolshed core version '));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What `coreVersion()` of the built contract entry at `file` says in a new process: the version, or the error. */
function askBuilt(file: string): { version?: string; error?: string } {
  const load = `await import(${JSON.stringify(pathToFileURL(file).href)})`;
  const script = `try { console.log(JSON.stringify({ version: (${load}).coreVersion() })); } catch (e) { console.log(JSON.stringify({ error: e.message })); }`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { version?: string; error?: string };
}

/** A copy of core's built JavaScript (its entries and the chunks they share) in `copy`/dist, without core's package.json. */
function copyBuild(copy: string): void {
  cpSync(path.join(root, 'dist'), path.join(copy, 'dist'), { recursive: true, filter: (file) => !file.endsWith('.d.ts') });
}

describe('coreVersion', () => {
  it("is the version in core's package.json, from the source", () => {
    expect(coreVersion()).toBe(version);
    expect(coreVersion()).toBe(version);
  });

  it('is the same from the build of @toolshed/core/contract', () => {
    expect(askBuilt(path.join(root, 'dist/contract.js'))).toEqual({ version });
  });

  it("names the file and what to do when a copy of core's build has another package.json above it", () => {
    const copy = path.join(scratch, 'app');
    mkdirSync(path.join(copy, 'dist'), { recursive: true });
    writeFileSync(path.join(copy, 'package.json'), JSON.stringify({ name: 'my-app', version: '9.9.9' }));
    copyBuild(copy);
    writeFileSync(path.join(copy, 'dist/package.json'), JSON.stringify({ type: 'module' }));
    // dist/package.json makes contract.js an ES module here; the lookup reads the folder above dist/.
    expect(askBuilt(path.join(copy, 'dist/contract.js'))).toEqual({
      error: `${path.join(copy, 'package.json')} is not the package.json of @toolshed/core; install @toolshed/core as a package (a bundle that copies it loses its package.json).`,
    });
  });

  it('names the file it could not read when there is no package.json above the build', () => {
    const copy = path.join(scratch, 'bare');
    mkdirSync(path.join(copy, 'dist'), { recursive: true });
    copyBuild(copy);
    writeFileSync(path.join(copy, 'dist/package.json'), JSON.stringify({ type: 'module' }));
    const { error } = askBuilt(path.join(copy, 'dist/contract.js'));
    const prefix = `cannot read the package.json of @toolshed/core (${path.join(copy, 'package.json')}): ENOENT: `;
    expect(error?.startsWith(prefix), error).toBe(true);
    expect(error).toMatch(/\. Install @toolshed\/core as a package; a bundle that copies it loses its package\.json\.$/);
  });
});
