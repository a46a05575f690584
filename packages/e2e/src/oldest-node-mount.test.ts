import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OLDEST_NODE, REPO_ROOT } from './workspace-copy.js';

// The workspace's `toolshed` on the oldest Node that engines allows, mounting server-everything:
// the mount lists it, then from its cache, and a call imports the mount's heavy half and the MCP SDK.
const BIN = path.join(REPO_ROOT, 'packages/cli/bin/toolshed.cjs');
const MCP_DIR = path.join(REPO_ROOT, 'packages/mcp');
const EVERYTHING = path.join(
  path.dirname(createRequire(path.join(MCP_DIR, 'package.json')).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

let project: string;

beforeAll(() => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-oldest-mount-')));
  mkdirSync(path.join(project, 'node_modules/@toolshed'), { recursive: true });
  symlinkSync(MCP_DIR, path.join(project, 'node_modules/@toolshed/mcp'), 'dir');
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'oldest-mount', private: true, dependencies: { '@toolshed/mcp': '^1' } }),
  );
  // The server itself runs on this Node: only the host side is under test.
  writeFileSync(
    path.join(project, 'toolshed.config.json'),
    JSON.stringify({
      mcpServers: [{ name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], readOnlyTools: ['get-sum'] }],
    }),
  );
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

function toolshed(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(OLDEST_NODE, [BIN, ...args], { cwd: project, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

it('on the oldest Node, a mounted MCP server is listed, cached and called', async () => {
  const version = await new Promise<string>((resolve, reject) =>
    execFile(OLDEST_NODE, ['--version'], (error, stdout) => (error ? reject(error) : resolve(stdout.trim()))),
  );
  const minimum = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'packages/cli/package.json'), 'utf8')) as { engines: { node: string } })
    .engines.node;
  expect(minimum.split('||')[0]?.trim()).toBe(`^${version.slice(1)}`);

  const first = await toolshed(['list', '--json']);
  expect(first).toMatchObject({ code: 0, stderr: '' });
  expect((JSON.parse(first.stdout) as { name: string; source?: string }[]).find((tool) => tool.name === 'get-sum')).toMatchObject({
    source: 'mcp',
  });
  // From the cache now: the same tools, and the cache file is not written again (no server listed them).
  const cacheFile = path.join(project, 'node_modules/.cache/toolshed/mcp/everything.json');
  const before = { text: readFileSync(cacheFile, 'utf8'), mtime: statSync(cacheFile).mtimeMs };
  const cached = await toolshed(['list', '--json']);
  expect(cached).toMatchObject({ code: 0, stderr: '' });
  expect(JSON.parse(cached.stdout)).toEqual(JSON.parse(first.stdout));
  expect({ text: readFileSync(cacheFile, 'utf8'), mtime: statSync(cacheFile).mtimeMs }).toEqual(before);

  const call = await toolshed(['call', 'get-sum', '{"a":2,"b":40}', '--json']);
  expect(call).toMatchObject({ code: 0, stderr: '' });
  expect(JSON.stringify(JSON.parse(call.stdout).output)).toContain('The sum of 2 and 40 is 42.');
}, 120_000);
