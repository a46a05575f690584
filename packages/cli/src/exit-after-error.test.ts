// Every command exits with its error, however late the error comes: after the host has started an
// MCP server (a project with no cache yet starts each server to list its tools), a startup error
// must not leave the command waiting on the server's process. The real `toolshed` binary, in a
// project mounting the marker server over stdio.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { alive } from './alive.fixture.js';

const require = createRequire(import.meta.url);
const bin = fileURLToPath(new URL('../bin/toolshed.cjs', import.meta.url));
const MCP_DIR = realpathSync(path.dirname(require.resolve('@toolshed/mcp/package.json')));
const MARKER_SERVER = fileURLToPath(new URL('../test-fixtures/mcp-servers/marker-server.mjs', import.meta.url));
// The failure detector, not a timing assertion: a command still running then has hung.
const KILL_AFTER_MS = 20_000;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function toolshed(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: 'pipe' });
    child.stdin.end();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

let dir: string;
let marker: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-exit-')));
  made.push(dir);
  mkdirSync(path.join(dir, 'node_modules', '@toolshed'), { recursive: true });
  symlinkSync(MCP_DIR, path.join(dir, 'node_modules/@toolshed/mcp'), 'dir');
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'exit-project', private: true, dependencies: { '@toolshed/mcp': '^1' } }),
  );
  marker = path.join(dir, 'marker.log');
});

function config(extra: object = {}): void {
  const server = { name: 'marker', command: process.execPath, args: [MARKER_SERVER], env: { MARKER_FILE: { env: 'TEST_MARKER' } } };
  writeFileSync(path.join(dir, 'toolshed.config.json'), JSON.stringify({ mcpServers: [server], ...extra }));
}

/** The pids of every marker server started in this project (one line each). */
function serverPids(): number[] {
  if (!existsSync(marker)) return [];
  return readFileSync(marker, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => Number(line.split(' ')[1]));
}

async function expectExitWith(args: string[], code: number, message: string): Promise<void> {
  const run = await toolshed(dir, args, { TEST_MARKER: marker });
  // Killed by the detector means it hung.
  expect(run.signal).toBeNull();
  expect(run.code).toBe(code);
  expect(run.stderr).toContain(message);
  // The server was started (no cache), so the error came after it, and it is gone.
  const pids = serverPids();
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) expect(alive(pid), `marker server ${pid}`).toBe(false);
}

describe('a command that fails after its host started a server exits with its error', () => {
  it('serve --tool-search with an alwaysLoaded name no plugin offers', async () => {
    config({ exposure: { mode: 'search', alwaysLoaded: ['nope'] } });
    await expectExitWith(['serve', '--tool-search'], 2, 'exposure.alwaysLoaded names "nope"');
  });

  it('serve --http on a port in use', async () => {
    config();
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as { port: number };
      await expectExitWith(['serve', '--http', `127.0.0.1:${port}`], 1, 'the port is already in use');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('call --transcript into a folder that does not exist', async () => {
    config();
    await expectExitWith(
      ['call', 'whoami', '{}', '--transcript', path.join(dir, 'missing/t.jsonl')],
      2,
      'cannot write the transcript file',
    );
  });
});

describe('configured servers skipped and no tool left', () => {
  const mute = (name: string) => ({ name, command: process.execPath, args: ['-e', 'setInterval(() => {}, 1 << 30)'], startTimeoutMs: 500 });

  it.each(['list', 'list --json', 'schema', 'serve'])(
    '`%s` exits 1 naming each server and why, never "No tools" with 0',
    async (command) => {
      writeFileSync(path.join(dir, 'toolshed.config.json'), JSON.stringify({ mcpServers: [mute('mute'), mute('quiet')] }));
      const run = await toolshed(dir, command.split(' '), {});
      expect(run.signal).toBeNull();
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('toolshed: no tools: 2 MCP servers of the config could not be used:\n');
      for (const name of ['mute', 'quiet'])
        expect(run.stderr).toContain(
          `  - mcp server "${name}": could not list its tools: MCP server "${name}" could not start: it did not answer initialize within 500 ms`,
        );
      expect(run.stderr).not.toContain('No tools');
    },
  );

  it('with a plugin still giving tools, the skipped server is a warning and the command succeeds', async () => {
    const echo = realpathSync(path.dirname(require.resolve('@toolshed/tool-echo/package.json')));
    symlinkSync(echo, path.join(dir, 'node_modules/@toolshed/tool-echo'), 'dir');
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'exit-project', private: true, dependencies: { '@toolshed/mcp': '^1', '@toolshed/tool-echo': '^1' } }),
    );
    writeFileSync(path.join(dir, 'toolshed.config.json'), JSON.stringify({ mcpServers: [mute('mute')] }));
    const run = await toolshed(dir, ['list'], {});
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('toolshed: warning: skipped plugin mcp server "mute"');
  });
});
