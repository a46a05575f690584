import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// @toolshed/cli's JavaScript entry (dist/index.js): what @toolshed/create-plugin and
// @toolshed/mcp-server import, and what a CommonJS program require()s (every supported Node
// loads ES modules that way). Run in a plain Node child, as they are, by its package name (the
// package refers to itself through its exports).
const cliDir = fileURLToPath(new URL('..', import.meta.url));
const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: cliDir, encoding: 'utf8' });

describe('the JavaScript entry', () => {
  it('gives run and main, and nothing else, to import and to require alike', () => {
    const script = 'const cli = %s; console.log(JSON.stringify(Object.entries(cli).map(([name, value]) => [name, typeof value]).sort()));';
    const viaImport = node(['--input-type=module', '-e', script.replace('%s', "await import('@toolshed/cli')")]);
    const viaRequire = node(['-e', script.replace('%s', "require('@toolshed/cli')")]);
    expect(JSON.parse(viaImport)).toEqual([
      ['main', 'function'],
      ['run', 'function'],
    ]);
    expect(JSON.parse(viaRequire)).toEqual([
      ['main', 'function'],
      ['run', 'function'],
    ]);
  });

  it('runs nothing when loaded, and run() is the command', () => {
    const script = "const cli = require('@toolshed/cli'); console.log('loaded'); cli.run(['--version']);";
    expect(node(['-e', script])).toMatch(/^loaded\n\d+\.\d+\.\d+\n$/);
  });

  it('run() resolves true only for a plain listing, which leaves nothing running; the bin then ends the process', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'toolshed-run-'));
    try {
      // The answer goes to stderr: stdout is the command's own.
      const script = "require('@toolshed/cli').run(process.argv.slice(1)).then((ended) => process.stderr.write(`ended: ${ended}\\n`));";
      const ended = (args: string[]) => {
        const result = spawnSync(process.execPath, ['-e', script, '--', ...args], { cwd: cliDir, encoding: 'utf8' });
        return result.stderr.split('\n').filter((line) => line.startsWith('ended: '));
      };
      expect(ended(['--cwd', empty, 'list'])).toEqual(['ended: true']);
      expect(ended(['--cwd', empty, 'list', '--json'])).toEqual(['ended: true']);
      // A call (its plugin's code) and whatever commander's program runs end on their own.
      expect(ended(['--cwd', empty, 'call', 'echo', '{}'])).toEqual(['ended: false']);
      expect(ended(['--cwd', empty, 'plugins'])).toEqual(['ended: false']);
      expect(ended(['--version'])).toEqual(['ended: false']);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
