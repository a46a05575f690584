import { execFile } from 'node:child_process';
import { cpSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { createHost, inspectPlugins, isConfigError, type PluginReport } from '../index.js';
import { Project } from '../project.fixture.js';

const run = promisify(execFile);
const HOST_DIR = fileURLToPath(new URL('../..', import.meta.url));

let project: Project;
afterEach(() => project?.remove());

function setup(): Project {
  project = new Project();
  project.plugin({ name: 'tool-ok', tools: [{ name: 'ok' }] });
  project.packageJson({ dependencies: { 'tool-ok': '^1' } });
  return project;
}

it('refuses an mcpServers list it cannot read, naming the file and every entry at fault at once', async () => {
  setup().config({
    mcpServers: [{ name: 'files', command: 'x' }, 'npx server', { command: 'y' }, { name: 'files', url: 'http://127.0.0.1:1/mcp' }],
  });
  const error = await createHost({ cwd: project.dir }).catch((thrown: unknown) => thrown);
  expect(isConfigError(error)).toBe(true);
  expect((error as Error).message).toBe(
    [
      `${project.dir}/toolshed.config.json is not a valid Toolshed config:`,
      '  - mcpServers[1] must be an object with "name" and either "command" (stdio) or "url" (Streamable HTTP)',
      '  - mcpServers[2].name must be 1-64 letters, digits, _ or - (it names the server in reports and errors); got nothing',
      '  - mcpServers[3].name "files" is also the name of mcpServers[0]; give each server its own name',
    ].join('\n'),
  );
  project.config({ mcpServers: 'npx server' });
  await expect(inspectPlugins({ cwd: project.dir })).rejects.toThrow('"mcpServers" must be an object of servers by name');
  project.config({
    mcpServers: { files: { command: 'x' }, 'two words': { command: 'y' }, other: { name: 'else', url: 'http://127.0.0.1:1/' } },
  });
  const error2 = await createHost({ cwd: project.dir }).catch((thrown: unknown) => thrown);
  expect((error2 as Error).message).toBe(
    [
      `${project.dir}/toolshed.config.json is not a valid Toolshed config:`,
      '  - mcpServers "two words" must be 1-64 letters, digits, _ or - (it names the server in reports and errors); got "two words"',
      '  - mcpServers "other" has "name" "else"; in the object form the key is the name: leave "name" out',
    ].join('\n'),
  );
});

it('a createHost mcpServers list is checked the same way, and names the createHost options', async () => {
  setup();
  const error = await createHost({ cwd: project.dir, mcpServers: [{ name: 'bad name!', command: 'x' }] }).catch(
    (thrown: unknown) => thrown,
  );
  expect(isConfigError(error)).toBe(true);
  expect((error as Error).message).toContain('the createHost options are not valid:\n  - mcpServers[0].name must be 1-64 letters');
});

it('without @toolshed/mcp installed, each server fails with the command that installs it, and nothing else is lost', async () => {
  // A project where host is installed as a copy (not a link into the workspace, whose
  // node_modules may hold @toolshed/mcp) and @toolshed/mcp is nowhere: run by plain Node,
  // so the module lookup is Node's own.
  setup().config({ plugins: ['tool-ok'], mcpServers: [{ name: 'files', command: 'npx', args: ['server'] }] });
  const installed = path.join(project.dir, 'node_modules', '@toolshed', 'host');
  cpSync(path.join(HOST_DIR, 'dist'), path.join(installed, 'dist'), { recursive: true });
  cpSync(path.join(HOST_DIR, 'package.json'), path.join(installed, 'package.json'));
  for (const name of ['resolve.exports', 'semver']) {
    symlinkSync(realpathSync(path.join(HOST_DIR, 'node_modules', name)), path.join(project.dir, 'node_modules', name), 'dir');
  }
  project.write(
    'report.mjs',
    `import { createHost, isHostError } from '@toolshed/host';
createHost({ cwd: process.cwd() }).then(
  (host) => console.log(JSON.stringify({ started: host.plugins })),
  (error) => console.log(JSON.stringify({ host: isHostError(error), message: error.message, plugins: error.plugins })),
);
`,
  );
  // pnpm's script runner sets NODE_PATH to its store of hoisted packages; a user's shell does not.
  const { NODE_PATH: _, ...env } = process.env;
  const { stdout } = await run(process.execPath, ['report.mjs'], { cwd: project.dir, env });
  const result = JSON.parse(stdout) as { host: boolean; message: string; plugins: PluginReport[] };
  expect(result.host).toBe(true);
  expect(result.message).toContain('mcp server "files" [resolve]: install @toolshed/mcp to mount MCP servers: npm install @toolshed/mcp.');
  expect(result.plugins.map((report) => [report.name, report.source, report.status])).toEqual([
    ['tool-ok', 'config', 'loaded'],
    ['files', 'mcp', 'failed'],
  ]);
  expect(result.plugins[1]!.server).toEqual({ transport: 'stdio', cached: false, state: { status: 'idle' } });
});

it("createHost({mcpServers}) takes the object form too, each key its entry's name", async () => {
  setup();
  const host = await createHost({
    cwd: project.dir,
    config: false,
    mcpServers: { files: { command: 'x', args: ['${UNSET_IN_THIS_TEST}'] } },
  }).catch((thrown: unknown) => thrown);
  // The entry is read with its key as its name: the unset variable is named with the server.
  expect((host as Error).message).toContain(
    'mcp server "files" [options]: option args[0] refers to environment variable UNSET_IN_THIS_TEST, which is not set.',
  );
});

// A real MCP server over stdio: @toolshed/mcp's own test server (its test tools, echo among them).
const STDIO_SERVER = fileURLToPath(new URL('../../../mcp/test-fixtures/stdio-server.mjs', import.meta.url));

it('createHost({mcpServers}) takes every field the config file takes: startTimeoutMs, readOnlyTools, type', async () => {
  setup();
  const server = { name: 'tools', command: process.execPath, args: [STDIO_SERVER], type: 'stdio' as const, readOnlyTools: ['echo'] };
  const host = await createHost({ cwd: project.dir, mcpServers: [{ ...server, startTimeoutMs: 20_000 }] });
  try {
    expect(await host.registry.dispatch({ name: 'echo', input: { text: 'hi' } })).toMatchObject({ ok: true, output: { text: 'hi' } });
  } finally {
    await host.close();
  }
  // The field reaches @toolshed/mcp's check, which names it.
  const refused = await createHost({ cwd: project.dir, mcpServers: [{ ...server, startTimeoutMs: -1 }] }).catch(
    (thrown: unknown) => thrown,
  );
  expect((refused as Error).message).toContain('createHost options mcpServers[0] "tools": "startTimeoutMs"');
});
