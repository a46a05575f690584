// Projects that mount MCP servers, and the real `toolshed` binary run in them: shared by the
// CLI's mount tests.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const bin = fileURLToPath(new URL('../bin/toolshed.cjs', import.meta.url));
export const packageDir = (name: string) => realpathSync(path.dirname(require.resolve(`${name}/package.json`)));
export const MCP_DIR = packageDir('@toolshed/mcp');
export const ECHO_DIR = packageDir('@toolshed/tool-echo');
export const CORE_DIR = packageDir('@toolshed/core');
export const EVERYTHING = path.join(packageDir('@modelcontextprotocol/server-everything'), 'dist/index.js');
export const MARKER_SERVER = fileURLToPath(new URL('../test-fixtures/mcp-servers/marker-server.mjs', import.meta.url));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `nodeArgs` go to node before the bin (a preload, a module hook). */
export function toolshed(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...nodeArgs, bin, ...args],
      { cwd, env: { ...process.env, NO_COLOR: '1', ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

export const made: string[] = [];

/** Remove every project and folder in `made` (a test file's afterAll). */
export function removeMade(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A project with @toolshed/mcp installed, the given config, and @toolshed/tool-echo as a dependency when asked. */
export function project(config: object, options: { echo?: boolean } = {}): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-mount-')));
  made.push(dir);
  mkdirSync(path.join(dir, 'node_modules', '@toolshed'), { recursive: true });
  symlinkSync(MCP_DIR, path.join(dir, 'node_modules/@toolshed/mcp'), 'dir');
  const dependencies: Record<string, string> = { '@toolshed/mcp': '^1' };
  if (options.echo) {
    symlinkSync(ECHO_DIR, path.join(dir, 'node_modules/@toolshed/tool-echo'), 'dir');
    dependencies['@toolshed/tool-echo'] = '^1';
  }
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'mount-project', private: true, dependencies }));
  writeFileSync(path.join(dir, 'toolshed.config.json'), JSON.stringify(config, null, 2));
  return dir;
}

/** The servers' cache files (`<name>.json`): everything the project's cache folder holds. */
export const cacheFiles = (dir: string) => {
  const cache = path.join(dir, 'node_modules/.cache/toolshed/mcp');
  return existsSync(cache) ? readdirSync(cache) : [];
};

/**
 * The marker server over HTTP on 127.0.0.1, refusing every request without `Bearer <token>`:
 * its origin, and the process to kill when done.
 */
export async function startHttpMarker(token: string): Promise<{ origin: string; server: ChildProcess }> {
  const portFile = path.join(mkdtempSync(path.join(tmpdir(), 'toolshed-http-')), 'port');
  made.push(path.dirname(portFile));
  const server = spawn(process.execPath, [MARKER_SERVER, '--http', portFile], {
    env: { ...process.env, EXPECTED_TOKEN: token },
    stdio: 'ignore',
  });
  for (let tries = 0; !existsSync(portFile) || readFileSync(portFile, 'utf8') === ''; tries++) {
    if (tries > 200) throw new Error('the HTTP test server did not start');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { origin: `http://127.0.0.1:${readFileSync(portFile, 'utf8')}`, server };
}
