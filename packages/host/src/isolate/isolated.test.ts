import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host.js';
import { Project } from '../project.fixture.js';

const projects: Project[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

function project(): Project {
  const made = new Project();
  projects.push(made);
  return made;
}

const readerCode = `import { readFileSync } from 'node:fs';
import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';
export default definePlugin({
  name: 'reader',
  apiVersion: 1,
  tools: [defineTool({
    name: 'read',
    description: 'Reads a file.',
    input: v.object({ file: v.string() }),
    annotations: { readOnly: true },
    run: ({ file }) => { try { return { text: readFileSync(file, 'utf8') }; } catch (error) { return { error: error.code }; } },
  })],
});
`;

describe('an isolated plugin', () => {
  it('runs its tools in a sandboxed child, with the same outcome as in the host', async () => {
    const p = project().packageJson({ dependencies: { echoer: '1.0.0' } });
    p.plugin({ name: 'echoer' });
    p.config({ isolate: true });
    const host = await createHost({ cwd: p.dir });
    try {
      expect(host.plugins[0]).toMatchObject({
        name: 'echoer',
        status: 'loaded',
        isolated: true,
        permissions: { read: [], write: [], net: [], env: [], spawn: false },
      });
      const outcome = await host.registry.dispatch({ name: 'echo', input: { text: 'hi' } }, { approve: 'allow-all' });
      expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true, output: { text: 'hi' } });
      expect(host.plugins[0]!.imported).toBe(true);
    } finally {
      await host.close();
    }
  });

  it("carries a result's parts across the boundary as they were, names included", async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const p = project().packageJson({ dependencies: { shooter: '1.0.0' } });
    p.plugin({
      name: 'shooter',
      code: `import { definePlugin, defineTool, withParts } from '@toolshed/core';
import * as v from 'valibot';
export default definePlugin({
  name: 'shooter',
  apiVersion: 1,
  tools: [defineTool({
    name: 'shoot',
    description: 'Takes a picture.',
    input: v.object({}),
    parts: ['image', 'file'],
    annotations: { readOnly: true },
    run: () => withParts('Took one.', [
      { type: 'image', mimeType: 'image/png', data: '${png}', name: 'dot.png' },
      { type: 'file', mimeType: 'text/markdown', text: '# Notes', uri: 'file:///notes.md', name: 'notes.md' },
    ]),
  })],
});
`,
      packageJson: { toolshed: { apiVersion: 1, tools: ['shoot'], manifest: './dist/toolshed.json', permissions: {} } },
    });
    p.buildManifest('node_modules/shooter');
    p.config({ isolate: true });
    const host = await createHost({ cwd: p.dir });
    try {
      const outcome = await host.registry.dispatch({ name: 'shoot', input: {} });
      expect(outcome, JSON.stringify(outcome)).toMatchObject({
        ok: true,
        output: 'Took one.',
        parts: [
          { type: 'image', mimeType: 'image/png', data: png, name: 'dot.png' },
          { type: 'file', mimeType: 'text/markdown', text: '# Notes', uri: 'file:///notes.md', name: 'notes.md' },
        ],
      });
    } finally {
      await host.close();
    }
  });

  it('starts a fresh process after a stopped call, keeps one that a call gave up on while it started, and drops one that failed', async () => {
    const p = project().packageJson({ dependencies: { starter: '1.0.0' } });
    p.plugin({
      name: 'starter',
      code: `import { appendFileSync } from 'node:fs';
import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';
// Each process that imports the plugin says so, in the one file it may write.
appendFileSync(new URL('../../starts.log', import.meta.url), 'start\\n');
export default definePlugin({
  name: 'starter',
  apiVersion: 1,
  tools: [
    defineTool({ name: 'hang', description: 'Waits a minute.', input: v.object({}), annotations: { readOnly: true }, run: () => new Promise((done) => setTimeout(() => done({ waited: true }), 60_000)) }),
    defineTool({ name: 'ping', description: 'Answers.', input: v.object({}), annotations: { readOnly: true }, run: () => ({ pid: process.pid }) }),
  ],
});
`,
      packageJson: {
        toolshed: { apiVersion: 1, tools: ['hang', 'ping'], manifest: './dist/toolshed.json', permissions: { write: ['starts.log'] } },
      },
    });
    p.buildManifest('node_modules/starter');
    const log = p.write('starts.log', '');
    p.config({ plugins: [{ plugin: 'starter', isolate: true, grant: { write: ['starts.log'] } }] });
    const starts = () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
    // The plugin's private folders; those an earlier, killed run left behind are not this host's.
    const folders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('toolshed-isolated-isolated-starter-'));
    const before = new Set(folders());
    const call = (name: string, timeoutMs?: number) =>
      host.registry.dispatch({ name, input: {} }, timeoutMs === undefined ? undefined : { timeoutMs });
    const host = await createHost({ cwd: p.dir });
    try {
      expect(host.plugins[0], JSON.stringify(host.plugins[0])).toMatchObject({ status: 'loaded', isolated: true });
      // Its process starts with its first call, which times out in the child and so ends that process.
      // The call right after starts another and gives up (1 ms) before it is up. That process is
      // kept: the next call runs in it.
      expect(await call('hang', 300)).toMatchObject({ ok: false, error: { code: 'timeout' } });
      expect(await call('ping', 1)).toMatchObject({ ok: false, error: { code: 'timeout' } });
      // Once it is up (it has imported the plugin), a while for it to be ended if it were not kept.
      while (starts() < 2) await sleep(20);
      await sleep(1000);
      const answered = await call('ping');
      expect(answered, JSON.stringify(answered)).toMatchObject({ ok: true });
      expect(starts()).toBe(2);
      // A process that fails to start is not kept: once the plugin can start again, so can its next call.
      expect(await call('hang', 300)).toMatchObject({ ok: false, error: { code: 'timeout' } });
      const entry = path.join(p.dir, 'node_modules/starter/index.js');
      const code = readFileSync(entry, 'utf8');
      writeFileSync(entry, 'throw new Error("broken for a while");\n');
      const broken = await call('ping');
      expect(broken, JSON.stringify(broken)).toMatchObject({ ok: false, error: { code: 'execution_failed' } });
      writeFileSync(entry, code);
      const again = await call('ping');
      expect(again, JSON.stringify(again)).toMatchObject({ ok: true });
      expect(starts()).toBe(3);
      // Closing ends every process, one still ending after a stopped call too, and starts none after.
      expect(await call('hang', 300)).toMatchObject({ ok: false, error: { code: 'timeout' } });
      await host.close();
      expect(folders().filter((name) => !before.has(name))).toEqual([]);
      const late = await call('ping');
      expect(late, JSON.stringify(late)).toMatchObject({
        ok: false,
        error: { code: 'execution_failed', message: expect.stringContaining('plugin "starter" is closed') },
      });
      expect(starts()).toBe(3);
    } finally {
      await host.close();
    }
  });

  it('reads only what it declares and is granted', async () => {
    const p = project().packageJson({ dependencies: { reader: '1.0.0' } });
    p.write('.env', 'SECRET=1\n');
    p.write('docs/a.txt', 'inside');
    p.plugin({
      name: 'reader',
      code: readerCode,
      packageJson: { toolshed: { apiVersion: 1, tools: ['read'], manifest: './dist/toolshed.json', permissions: { read: ['docs'] } } },
    });
    p.buildManifest('node_modules/reader');
    p.config({ isolate: true, plugins: [{ plugin: 'reader', grant: { read: ['docs'] } }] });
    const host = await createHost({ cwd: p.dir });
    try {
      const read = (file: string) => host.registry.dispatch({ name: 'read', input: { file } });
      expect(await read(path.join(p.dir, 'docs/a.txt'))).toMatchObject({ ok: true, output: { text: 'inside' } });
      expect(await read(path.join(p.dir, '.env'))).toMatchObject({ ok: true, output: { error: 'ENOENT' } });
    } finally {
      await host.close();
    }
  });

  it('does not load when it asks for more than is granted, naming the permission and where to grant it', async () => {
    const p = project().packageJson({ dependencies: { reader: '1.0.0' } });
    p.plugin({
      name: 'reader',
      code: readerCode,
      packageJson: {
        toolshed: {
          apiVersion: 1,
          tools: ['read'],
          manifest: './dist/toolshed.json',
          permissions: { read: ['docs'], net: ['smtp.example.com:587'] },
        },
      },
    });
    p.buildManifest('node_modules/reader');
    p.config({ plugins: [{ plugin: 'reader', isolate: true, grant: { read: ['docs'] } }] });
    await expect(createHost({ cwd: p.dir })).rejects.toThrow(
      /reader.*it asks to connect to smtp\.example\.com:587, which is not granted: add "smtp\.example\.com:587" to "net" in "plugins\[0\]\.grant" of toolshed\.config\.json/s,
    );
  });

  it('does not load when a tool returns something other than an object, naming the tool and what to do', async () => {
    const p = project().packageJson({ dependencies: { counter: '1.0.0' } });
    p.plugin({
      name: 'counter',
      code: `import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';
export default definePlugin({
  name: 'counter',
  apiVersion: 1,
  tools: [defineTool({ name: 'count', description: 'Counts.', input: v.object({}), output: v.number(), run: () => 3 })],
});
`,
      packageJson: { toolshed: { apiVersion: 1, tools: ['count'], manifest: './dist/toolshed.json', permissions: {} } },
    });
    p.buildManifest('node_modules/counter');
    p.config({ plugins: [{ plugin: 'counter', isolate: true }] });
    const host = await createHost({ cwd: p.dir });
    try {
      const outcome = await host.registry.dispatch({ name: 'count', input: {} });
      expect(outcome, JSON.stringify(outcome)).toMatchObject({
        ok: false,
        error: {
          code: 'execution_failed',
          message: expect.stringMatching(
            /counter.*its tool "count" returns "number" output, and an isolated plugin's tools must return objects; wrap it, e\.g\. v\.object\(\{ value: \.\.\. \}\), or run the plugin with "isolate": false/s,
          ),
        },
      });
    } finally {
      await host.close();
    }
  });

  it("checks its outputs against its manifest's output schema, not the one its own process lists", async () => {
    // A hostile plugin: its code declares an output of any text and returns a long one; its manifest,
    // edited by hand, promises text of at most 5 characters.
    const p = project().packageJson({ dependencies: { teller: '1.0.0' } });
    p.plugin({
      name: 'teller',
      code: `import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';
export default definePlugin({
  name: 'teller',
  apiVersion: 1,
  tools: [defineTool({
    name: 'tell',
    description: 'Tells something short.',
    input: v.object({}),
    output: v.object({ text: v.string() }),
    annotations: { readOnly: true },
    run: () => ({ text: 'a much longer text than promised' }),
  })],
});
`,
      packageJson: { toolshed: { apiVersion: 1, tools: ['tell'], manifest: './dist/toolshed.json', permissions: {} } },
    });
    p.buildManifest('node_modules/teller');
    const file = path.join(p.dir, 'node_modules/teller/dist/toolshed.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    const listed = manifest.tools[0].definition.outputSchema;
    expect(listed).toEqual({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    const promised = { ...listed, properties: { text: { type: 'string', maxLength: 5 } } };
    manifest.tools[0].definition.outputSchema = promised;
    p.write('node_modules/teller/dist/toolshed.json', manifest);

    // The host used to check outputs against the output schema the child's process listed: the code's own,
    // which takes this output, so the call succeeded however the manifest was written.
    const { jsonSchemaOutput } = await import('@toolshed/mcp/mount');
    const output = { text: 'a much longer text than promised' };
    expect(await v.safeParseAsync(jsonSchemaOutput(listed, 'the listing'), output)).toMatchObject({ success: true });
    expect(await v.safeParseAsync(jsonSchemaOutput(promised, 'the manifest'), output)).toMatchObject({ success: false });

    p.config({ isolate: true });
    const host = await createHost({ cwd: p.dir });
    try {
      expect(host.plugins[0]).toMatchObject({ name: 'teller', status: 'loaded', isolated: true });
      // What the model sees is the manifest's schema too.
      expect(host.registry.list()[0]!.outputSchema).toEqual(promised);
      const outcome = await host.registry.dispatch({ name: 'tell', input: {} });
      expect(outcome, JSON.stringify(outcome)).toMatchObject({
        ok: false,
        name: 'tell',
        error: { code: 'invalid_output', message: expect.stringMatching(/^tell returned output that breaks its own output schema.*text/s) },
      });
    } finally {
      await host.close();
    }
  });
});

const SERVER_SOURCE = `import { readFileSync } from 'node:fs';
import { defineTool, ToolRegistry } from '@toolshed/core';
import { serveStdio } from '@toolshed/mcp';
import * as v from 'valibot';
const registry = new ToolRegistry({ approve: 'allow-all' });
registry.register(defineTool({
  name: 'read',
  description: 'Reads a file.',
  input: v.object({ file: v.string() }),
  run: ({ file }) => { try { return { text: readFileSync(file, 'utf8') }; } catch (error) { return { error: error.code }; } },
}));
registry.seal();
await serveStdio(registry);
`;

describe('an isolated MCP server', () => {
  it('reads only what its entry grants', async () => {
    const p = project().packageJson({});
    p.write('.env', 'SECRET=1\n');
    p.write('docs/a.txt', 'inside');
    p.write('server/server.mjs', SERVER_SOURCE);
    p.link('@toolshed/mcp', path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', '@toolshed', 'mcp'));
    const entry = { command: process.execPath, args: ['server/server.mjs'], isolate: true, grant: { read: ['server', 'docs'] } };
    p.config({ mcpServers: { files: entry } });
    const host = await createHost({ cwd: p.dir });
    try {
      expect(host.plugins[0]).toMatchObject({
        name: 'files',
        status: 'loaded',
        isolated: true,
        permissions: { read: [path.join(p.dir, 'server'), path.join(p.dir, 'docs')] },
      });
      const read = (file: string) => host.registry.dispatch({ name: 'read', input: { file } }, { approve: 'allow-all' });
      expect(await read(path.join(p.dir, 'docs/a.txt'))).toMatchObject({ ok: true, output: { text: 'inside' } });
      expect(await read(path.join(p.dir, '.env'))).toMatchObject({ ok: true, output: { error: 'ENOENT' } });
    } finally {
      await host.close();
    }
  });
});

describe('the real filesystem MCP server, isolated', () => {
  const require = createRequire(import.meta.url);
  const serverDir = realpathSync(path.dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')));
  // The server and what it imports sit in pnpm's store: the entry grants reading them, and nothing else of the machine.
  const store = serverDir.slice(0, serverDir.indexOf('/.pnpm/') + '/.pnpm'.length);

  /** The server given the whole project to serve; the entry grants it less. */
  async function files(isolate: boolean) {
    const p = project().packageJson({});
    p.write('.env', 'SECRET=1\n');
    p.write('shared/a.txt', 'inside');
    const entry = {
      command: process.execPath,
      args: [path.join(serverDir, 'dist', 'index.js'), p.dir],
      isolate,
      grant: { read: [store], write: ['shared'] },
    };
    p.config({ mcpServers: { files: entry } });
    const host = await createHost({ cwd: p.dir });
    const call = (name: string, input: object) => host.registry.dispatch({ name, input }, { approve: 'allow-all' });
    return { p, host, call };
  }

  it('reads and writes only the folder its entry grants, though the server itself would serve the whole project', async () => {
    const { p, host, call } = await files(true);
    try {
      expect(host.plugins[0]).toMatchObject({ name: 'files', status: 'loaded', isolated: true });
      expect(await call('read_text_file', { path: path.join(p.dir, 'shared/a.txt') })).toMatchObject({ ok: true });
      expect(await call('write_file', { path: path.join(p.dir, 'shared/b.txt'), content: 'written' })).toMatchObject({ ok: true });
      expect(readFileSync(path.join(p.dir, 'shared/b.txt'), 'utf8')).toBe('written');

      const secret = await call('read_text_file', { path: path.join(p.dir, '.env') });
      expect(secret.ok).toBe(false);
      expect(JSON.stringify(secret)).not.toContain('SECRET=1');
      // Under /tmp (where this project is) the sandbox gives the server a scratch /tmp of its own, so the
      // server may say it wrote: what matters is that nothing reached the project on disk.
      await call('write_file', { path: path.join(p.dir, 'outside.txt'), content: 'escaped' });
      expect(existsSync(path.join(p.dir, 'outside.txt'))).toBe(false);
    } finally {
      await host.close();
    }
  });

  it('reads and writes anywhere in the project unisolated, so the checks above can fail', async () => {
    const { p, host, call } = await files(false);
    try {
      expect(JSON.stringify(await call('read_text_file', { path: path.join(p.dir, '.env') }))).toContain('SECRET=1');
      expect(await call('write_file', { path: path.join(p.dir, 'outside.txt'), content: 'escaped' })).toMatchObject({ ok: true });
      expect(existsSync(path.join(p.dir, 'outside.txt'))).toBe(true);
    } finally {
      await host.close();
    }
  });
});

describe('isolation settings', () => {
  it('are checked with the rest of the config, naming the entry', async () => {
    const p = project().packageJson({});
    p.config({ isolate: 'yes', plugins: [{ plugin: 'x', isolate: 1, grant: { net: ['example.com'], env: ['A B'], files: [] } }] });
    const error = await createHost({ cwd: p.dir }).catch((thrown: unknown) => thrown as Error);
    expect(String(error)).toContain('"isolate" must be true or false');
    expect(String(error)).toContain('plugins[0].isolate must be true or false');
    expect(String(error)).toContain('plugins[0].grant.net[0] must be "host:port"');
    expect(String(error)).toContain('plugins[0].grant.env[0] must be an environment variable name');
    expect(String(error)).toContain('plugins[0].grant has unknown key "files"');
  });

  it('refuse a plugin handed over in code: it cannot leave the host process', async () => {
    const plugin = { name: 'inline', apiVersion: 1, tools: [] };
    await expect(createHost({ plugins: [plugin], isolate: true })).rejects.toThrow(/only an installed package .* can/);
  });

  it('never run a plugin unisolated when the sandbox cannot run: it fails naming what is missing', () => {
    const p = project().packageJson({ dependencies: { echoer: '1.0.0' } });
    p.plugin({ name: 'echoer' });
    p.config({ isolate: true });
    const host = pathToHostEntry();
    const script = `const { createHost } = await import(${JSON.stringify(host)});
const host = await createHost({ cwd: ${JSON.stringify(p.dir)} });
console.log(host.plugins[0].status, host.plugins[0].name, host.plugins[0].error?.message);`;
    // No bubblewrap, socat or ripgrep on this PATH.
    const said = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: '/nonexistent' }, encoding: 'utf8' });
    // Found among the dependencies, it is skipped (the others load); named in the config, startup fails.
    expect(said).toMatch(/^skipped echoer /);
    expect(said).toMatch(/it is to run isolated, but the sandbox cannot run here: .*bubblewrap/);
    expect(said).toContain('apt-get install -y bubblewrap socat ripgrep');
  });
});

function pathToHostEntry(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'index.js');
}
