import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// @toolshed/cli's JavaScript entry is a CommonJS build (dist/index.cjs): what
// @toolshed/create-plugin and @toolshed/mcp-server import. Run in a plain Node child, as they
// are, by its package name (the package refers to itself through its exports).
const cliDir = fileURLToPath(new URL('..', import.meta.url));
const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: cliDir, encoding: 'utf8' });

describe('the JavaScript entry', () => {
  it('gives run, main and createProgram to import and to require alike', () => {
    const script = `const { run, main, createProgram } = %s;
      console.log(JSON.stringify([typeof run, typeof main, createProgram().name()]));`;
    const viaImport = node(['--input-type=module', '-e', script.replace('%s', "await import('@toolshed/cli')")]);
    const viaRequire = node(['-e', `(async () => { ${script.replace('%s', "require('@toolshed/cli')")} })()`]);
    expect(JSON.parse(viaImport)).toEqual(['function', 'function', 'toolshed']);
    expect(JSON.parse(viaRequire)).toEqual(['function', 'function', 'toolshed']);
  });

  it('runs nothing when loaded, and run() is the command', () => {
    const script = "const cli = require('@toolshed/cli'); console.log('loaded'); cli.run(['--version']);";
    expect(node(['-e', script])).toMatch(/^loaded\n\d+\.\d+\.\d+\n$/);
  });
});
