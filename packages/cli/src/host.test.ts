import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadedModules, moduleLog } from './module-log.fixture.js';

const bin = fileURLToPath(new URL('../bin/toolshed.cjs', import.meta.url));
const workspace = fileURLToPath(new URL('../../..', import.meta.url));
const hostPackage = createRequire(import.meta.url).resolve('@toolshed/host/package.json');
const manifestBin = path.join(path.dirname(hostPackage), 'bin/toolshed-manifest.js');
const BUNDLED = {
  '@toolshed/tool-echo': 'plugins/echo',
  '@toolshed/tool-read-file': 'plugins/read-file',
  '@toolshed/tool-send-email': 'plugins/send-email',
};

/** All a stream gives until it ends, read by a reader that stops for 300 ms after the first chunk. */
async function slowText(stream: NodeJS.ReadableStream): Promise<string> {
  let all = '';
  for await (const chunk of stream) {
    if (all === '') await new Promise((resolve) => setTimeout(resolve, 300));
    all += String(chunk);
  }
  return all;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function toolshed(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; nodeArgs?: string[] } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...(options.nodeArgs ?? []), bin, ...args],
      { cwd: options.cwd ?? project, env: { ...process.env, NO_COLOR: '1', ...options.env } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end('');
  });
}

let project: string;

function write(relative: string, content: string | object): string {
  const file = path.join(project, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

function link(target: string, relative: string): void {
  mkdirSync(path.dirname(path.join(project, relative)), { recursive: true });
  symlinkSync(target, path.join(project, relative), 'dir');
}

/** A plugin package whose import leaves a marker file, with its manifest built by the real toolshed-manifest. */
function markerPlugin(name: string, tool: string): string {
  const dir = path.join(project, 'node_modules', name);
  write(`node_modules/${name}/package.json`, {
    name,
    version: '3.2.1',
    type: 'module',
    exports: './index.js',
    peerDependencies: { '@toolshed/core': '^1' },
    toolshed: { apiVersion: 1, tools: [tool], manifest: './toolshed.json' },
  });
  write(
    `node_modules/${name}/index.js`,
    `import { writeFileSync } from 'node:fs';
import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';
writeFileSync(new URL('./imported.marker', import.meta.url), 'imported');
export default definePlugin({ name: ${JSON.stringify(name)}, apiVersion: 1, tools: [defineTool({
  name: ${JSON.stringify(tool)}, description: 'Shouts the text.', input: v.object({ text: v.string() }),
  run: ({ text }) => ({ text: text.toUpperCase() }),
})] });
`,
  );
  execFileSync(process.execPath, [manifestBin], { cwd: dir, stdio: 'pipe' });
  rmSync(path.join(dir, 'imported.marker'));
  return dir;
}

beforeEach(() => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-cli-host-')));
  // The workspace's built core and valibot stand in for what npm would install next to the plugins.
  link(path.join(workspace, 'packages/core'), 'node_modules/@toolshed/core');
  link(realpathSync(path.join(workspace, 'packages/core/node_modules/valibot')), 'node_modules/valibot');
  for (const [name, dir] of Object.entries(BUNDLED)) link(path.join(workspace, dir), `node_modules/${name}`);
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe('toolshed list with discovered plugins', () => {
  it('lists the three bundled plugins and a marker plugin without importing any plugin module', async () => {
    const marker = markerPlugin('tool-shout', 'shout');
    write('package.json', {
      name: 'app',
      private: true,
      devDependencies: { ...Object.fromEntries(Object.keys(BUNDLED).map((name) => [name, '^1'])), 'tool-shout': '^3' },
    });
    const log = path.join(project, 'loaded.log');
    const run = await toolshed(['list', '--json'], moduleLog(log));

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const tools = JSON.parse(run.stdout) as { name: string; plugin: string; version: string }[];
    expect(tools.map((tool) => [tool.name, tool.plugin])).toEqual([
      ['echo', '@toolshed/tool-echo'],
      ['read_file', '@toolshed/tool-read-file'],
      ['send_email', '@toolshed/tool-send-email'],
      ['shout', 'tool-shout'],
    ]);
    expect(existsSync(path.join(marker, 'imported.marker'))).toBe(false);
    const loaded = loadedModules(readFileSync(log, 'utf8'));
    expect(loaded.esm.map((url) => url.replace(/^.*\/packages\//, ''))).toEqual(
      expect.arrayContaining(['cli/dist/toolshed.js', 'host/dist/index.js', 'core/dist/contract.js']),
    );
    const pluginModules = [...loaded.esm, ...loaded.cjs].filter((url) =>
      /\/plugins\/(echo|read-file|send-email)\/|\/tool-shout\//.test(url),
    );
    expect(pluginModules).toEqual([]);

    // The same project, called: now the plugin's code runs.
    const call = await toolshed(['call', 'shout', '{"text":"hi"}']);
    expect(call).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(call.stdout)).toEqual({ text: 'HI' });
    expect(existsSync(path.join(marker, 'imported.marker'))).toBe(true);
  });

  it('--cwd points at the project and list warns on stderr about a skipped plugin', async () => {
    write('package.json', { name: 'app', dependencies: { '@toolshed/tool-echo': '^1', 'tool-broken': '^1' } });
    write('node_modules/tool-broken/package.json', '{ "name": "tool-broken",');
    const run = await toolshed(['--cwd', project, 'list'], { cwd: tmpdir() });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^echo {2}@toolshed\/tool-echo@/);
    expect(run.stderr).toMatch(
      /^toolshed: warning: skipped plugin tool-broken \(resolve\): .*tool-broken\/package\.json is not valid JSON .*\(see toolshed plugins\)\n$/,
    );
  });

  it('names the plugin that serves a tool, not one skipped for offering the same name', async () => {
    const first = markerPlugin('@acc/echo1', 'echo');
    const second = markerPlugin('@acc/echo2', 'echo');
    write('package.json', { name: 'app', dependencies: { '@acc/echo1': '^3', '@acc/echo2': '^3' } });

    const plugins = await toolshed(['plugins', '--json']);
    const report = (JSON.parse(plugins.stdout) as { plugins: { name: string; status: string }[] }).plugins;
    expect(report.map(({ name, status }) => [name, status])).toEqual([
      ['@acc/echo1', 'loaded'],
      ['@acc/echo2', 'skipped'],
    ]);

    const list = await toolshed(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe('echo  @acc/echo1@3.2.1\n  Shouts the text.\n');
    expect(list.stderr).toMatch(/^toolshed: warning: skipped plugin @acc\/echo2@3\.2\.1 \(register\): .*echo.*\n$/);
    const json = JSON.parse((await toolshed(['list', '--json'])).stdout) as { name: string; plugin: string; version: string }[];
    expect(json.map(({ name, plugin, version }) => [name, plugin, version])).toEqual([['echo', '@acc/echo1', '3.2.1']]);

    // The call goes to the plugin the listing names.
    const call = await toolshed(['call', 'echo', '{"text":"hi"}']);
    expect(call).toMatchObject({ code: 0 });
    expect(existsSync(path.join(first, 'imported.marker'))).toBe(true);
    expect(existsSync(path.join(second, 'imported.marker'))).toBe(false);
  });

  it('names the plugin that serves a tool, not a later one skipped for a manifest that does not fit', async () => {
    markerPlugin('@acc/echo1', 'echo');
    // Its package.json offers echo, but its manifest file is torn.
    write('node_modules/@acc/echo2/package.json', {
      name: '@acc/echo2',
      version: '1.0.0',
      toolshed: { apiVersion: 1, tools: ['echo'], manifest: './toolshed.json' },
    });
    write('node_modules/@acc/echo2/toolshed.json', '{"apiVersion": 1, "tools": [');
    write('package.json', { name: 'app', dependencies: { '@acc/echo1': '^3', '@acc/echo2': '^1' } });
    const list = await toolshed(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe('echo  @acc/echo1@3.2.1\n  Shouts the text.\n');
    expect(list.stderr).toMatch(/^toolshed: warning: skipped plugin @acc\/echo2@1\.0\.0 \(\w+\): .*toolshed\.json/);
  });

  it('lists a plugin loaded from a module file by its name, with no version', async () => {
    write('package.json', { name: 'app', type: 'module' });
    write(
      'one-file.js',
      `import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';
export default definePlugin({ name: 'one-file', apiVersion: 1, tools: [defineTool({
  name: 'whisper', description: 'Lowers the text.', input: v.object({ text: v.string() }),
  run: ({ text }) => ({ text: text.toLowerCase() }),
})] });
`,
    );
    write('toolshed.config.json', { plugins: ['./one-file.js'] });
    const list = await toolshed(['list']);
    expect(list).toMatchObject({ code: 0, stdout: 'whisper  one-file\n  Lowers the text.\n' });
    expect(list.stdout).not.toContain('undefined');
    const json = JSON.parse((await toolshed(['list', '--json'])).stdout) as { name: string; plugin: string; version?: string }[];
    expect(json).toEqual([{ name: 'whisper', description: 'Lowers the text.', plugin: 'one-file', annotations: {} }]);
  });

  it('a plain list ends its own process only once all it wrote is out: a reader that waits still gets every line', async () => {
    // A listing writes synchronously and then ends its process at once (bin/toolshed.cjs); a
    // warning left queued in process.stderr would be lost there. Each stream gets far more than
    // a pipe and the reader's buffer hold, so the command must wait for the reader to write it all.
    const tools = 500;
    const missing = 700;
    const description = `A generated tool with a long description. ${'It says a lot. '.repeat(25)}`;
    const dependencies: Record<string, string> = {};
    for (let i = 0; i < tools; i++) {
      const name = `tool-many-${i}`;
      dependencies[name] = '^1';
      write(`node_modules/${name}/package.json`, {
        name,
        version: '1.0.0',
        type: 'module',
        exports: './index.js',
        peerDependencies: { '@toolshed/core': '^1' },
        toolshed: { apiVersion: 1, tools: [`many_${i}`], manifest: './toolshed.json' },
      });
      write(`node_modules/${name}/toolshed.json`, {
        apiVersion: 1,
        tools: [{ definition: { name: `many_${i}`, description, inputSchema: { type: 'object', properties: {} } } }],
      });
    }
    const devDependencies = Object.fromEntries(Array.from({ length: missing }, (_, i) => [`@acme/tool-absent-${i}`, '^1']));
    write('package.json', { name: 'app', private: true, dependencies, devDependencies });

    const child = spawn(process.execPath, [bin, 'list'], { cwd: project, env: { ...process.env, NO_COLOR: '1' } });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const [stdout, stderr] = await Promise.all([slowText(child.stdout), slowText(child.stderr)]);
    expect(await exited).toBe(0);
    expect(Buffer.byteLength(stdout)).toBeGreaterThan(3 * 64 * 1024);
    expect(Buffer.byteLength(stderr)).toBeGreaterThan(3 * 64 * 1024);
    const listed = stdout.split('\n').filter((line) => line !== '' && !line.startsWith(' '));
    expect(listed.sort()).toEqual(Array.from({ length: tools }, (_, i) => `many_${i}  tool-many-${i}@1.0.0`).sort());
    const warnings = stderr.split('\n').filter((line) => line !== '');
    expect(warnings).toHaveLength(missing);
    for (const [i, line] of warnings.entries())
      expect(line).toMatch(
        new RegExp(`^toolshed: warning: skipped plugin @acme/tool-absent-${i} \\(resolve\\): .*\\(see toolshed plugins\\)$`),
      );
  });

  it('--cwd that is not a directory is a usage error', async () => {
    const run = await toolshed(['list', '--cwd', path.join(project, 'nope')]);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toBe(`toolshed: --cwd ${path.join(project, 'nope')}: there is no such directory.\n`);
  });
});

describe('toolshed call of a tool whose output JSON cannot carry', () => {
  const TOOLS = {
    loop: ['const o = { a: 1 }; o.self = o; return o;', 'Converting circular structure to JSON'],
    big: ['return { n: 10n };', 'Do not know how to serialize a BigInt'],
    deep: ['let o = {}; for (let i = 0; i < 200000; i++) o = { o }; return o;', 'Maximum call stack size exceeded'],
    getter: ["return { get text() { throw new Error('no reading this'); } };", 'no reading this'],
  };

  beforeEach(() => {
    write(
      'tools.mjs',
      `import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';
const tool = (name, run) => defineTool({ name, description: 'A tool with a bug in its output.', input: v.object({}), run });
export default definePlugin({ name: 'faulty', apiVersion: 1, tools: [
${Object.entries(TOOLS)
  .map(([name, [body]]) => `  tool(${JSON.stringify(name)}, () => { ${body} }),`)
  .join('\n')}
  tool('nothing', () => undefined),
  tool('fn', () => () => 1),
  // Writes the first time JSON asks and throws after: checked once and written again, it would slip through.
  tool('flaky', () => { let asked = 0; return { toJSON: () => { asked += 1; if (asked > 1) throw new Error('asked twice'); return { text: 'once' }; } }; }),
  // Progress JSON cannot write (a bigint, a cycle in a field of its own) beside two good reports.
  tool('sloppy_progress', (_input, ctx) => { const cyclic = {}; cyclic.self = cyclic; ctx.report({ progress: 1n }); ctx.report({ progress: 1, total: 2, extra: cyclic }); ctx.report({ progress: 2, total: 2, message: 'done' }); return { text: 'ok' }; }),
] });
`,
    );
    write('toolshed.config.json', { plugins: ['./tools.mjs'] });
  });

  it.each(Object.entries(TOOLS))(
    '%s fails as invalid_output, the fault of the tool, with its outcome printed as JSON',
    async (name, [, why]) => {
      const expected = `${name} returned output that cannot be sent as JSON (${why}). This is a fault in the tool, not in your call.`;
      const plain = await toolshed(['call', name]);
      expect(plain).toEqual({ code: 1, stdout: '', stderr: `${name}: invalid_output: ${expected}\n` });

      const json = await toolshed(['call', name, '--json']);
      expect(json.code).toBe(1);
      expect(json.stderr).toBe('');
      const outcome = JSON.parse(json.stdout) as Record<string, unknown>;
      expect(outcome).toMatchObject({ ok: false, name, input: {}, error: { code: 'invalid_output', message: expected } });
      expect(outcome).not.toHaveProperty('output');
    },
  );

  it('an output that JSON can write once is written once: printed, not failed by a second try', async () => {
    expect(await toolshed(['call', 'flaky'])).toEqual({ code: 0, stdout: '{\n  "text": "once"\n}\n', stderr: '' });
    const json = await toolshed(['call', 'flaky', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, name: 'flaky', output: { text: 'once' } });
  });

  // The transcript's call.end holds the outcome the command reports: written once, after the
  // call, so the two cannot disagree and the transcript never lacks the call's end.
  const transcriptOf = (file: string) =>
    readFileSync(path.join(project, file), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it.each(Object.keys(TOOLS))('%s ends in the transcript as the invalid_output the command printed', async (name) => {
    const run = await toolshed(['call', name, '--json', '--transcript', 'calls.jsonl']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    const events = transcriptOf('calls.jsonl');
    expect(events.map((event) => event.type)).toEqual(['definitions', 'call.start', 'call.end']);
    expect(events[2]!.outcome).toEqual(JSON.parse(run.stdout));
    expect(events[2]!.outcome).toMatchObject({ ok: false, error: { code: 'invalid_output' } });
  });

  it('an output that JSON can write once is one success on stdout and in the transcript', async () => {
    const run = await toolshed(['call', 'flaky', '--json', '--transcript', 'calls.jsonl']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const events = transcriptOf('calls.jsonl');
    expect(events.map((event) => event.type)).toEqual(['definitions', 'call.start', 'call.end']);
    expect(events[2]!.outcome).toEqual(JSON.parse(run.stdout));
    expect(events[2]!.outcome).toMatchObject({ ok: true, output: { text: 'once' } });
  });

  it('progress JSON cannot write is not passed on: the transcript has every good report and the end, and the call succeeds', async () => {
    const run = await toolshed(['call', 'sloppy_progress', '--json', '--transcript', 'calls.jsonl']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const events = transcriptOf('calls.jsonl');
    expect(events.map((event) => event.type)).toEqual(['definitions', 'call.start', 'call.progress', 'call.progress', 'call.end']);
    expect(events.slice(2, 4).map((event) => event.progress)).toEqual([
      { progress: 1, total: 2 },
      { progress: 2, total: 2, message: 'done' },
    ]);
    expect(events[4]!.outcome).toEqual(JSON.parse(run.stdout));
  });

  it.each(['nothing', 'fn'])('%s, a tool that returned nothing JSON writes, prints nothing and exits 0', async (name) => {
    expect(await toolshed(['call', name])).toEqual({ code: 0, stdout: '', stderr: '' });
    const json = await toolshed(['call', name, '--json']);
    const outcome = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(outcome).toMatchObject({ ok: true, name });
    expect(outcome).not.toHaveProperty('output');
  });
});

describe('toolshed plugins', () => {
  it('prints each plugin with version, source, tools, status, warnings and errors', async () => {
    write('package.json', { name: 'app', dependencies: { '@toolshed/tool-echo': '^1', 'tool-broken': '^1' } });
    write('node_modules/tool-broken/package.json', { name: 'tool-broken', version: '0.1.0', toolshed: { apiVersion: 9, tools: ['x'] } });
    markerPlugin('tool-shout', 'shout');
    write('toolshed.config.json', { plugins: ['tool-shout'], rename: { shout: 'yell' } });
    const run = await toolshed(['plugins']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const echoVersion = (JSON.parse(readFileSync(path.join(workspace, 'plugins/echo/package.json'), 'utf8')) as { version: string })
      .version;
    expect(run.stdout).toBe(
      [
        'tool-shout@3.2.1  loaded  from toolshed.config.json: tool-shout',
        '  tools: yell',
        '  permissions: read -; write -; net -; env -; spawn no (runs in the host with your full rights)',
        '  warning: it is a third-party plugin running with your full rights (files, network, environment); set "isolate": true in its toolshed.config.json entry to hold it to its declared permissions.',
        `@toolshed/tool-echo@${echoVersion}  loaded  from package.json: @toolshed/tool-echo`,
        '  tools: echo',
        '  permissions: read -; write -; net -; env -; spawn no (runs in the host with your full rights)',
        'tool-broken@0.1.0  skipped  from package.json: tool-broken',
        '  permissions: none declared (runs in the host with your full rights)',
        '  error (validate): it declares apiVersion 9, but this host supports apiVersion 1. Upgrade @toolshed/host (or @toolshed/cli), or install an older version of the plugin.',
        '',
      ].join('\n'),
    );
  });

  it('--json gives the report, and a named plugin that fails makes it exit 1', async () => {
    write('package.json', { name: 'app', dependencies: { '@toolshed/tool-echo': '^1' } });
    write('toolshed.config.json', { plugins: ['tool-missing', ['@toolshed/tool-read-file', { maxLines: 'many' }]] });
    const run = await toolshed(['plugins', '--json']);
    expect(run.code).toBe(1);
    const { plugins } = JSON.parse(run.stdout) as {
      plugins: { name: string; source: string; status: string; error?: { phase: string; message: string } }[];
    };
    // The missing plugin does not hide the other's invalid options.
    expect(plugins.map(({ name, source, status, error }) => ({ name, source, status, phase: error?.phase }))).toEqual([
      { name: 'tool-missing', source: 'config', status: 'failed', phase: 'resolve' },
      { name: '@toolshed/tool-read-file', source: 'config', status: 'failed', phase: 'options' },
      { name: '@toolshed/tool-echo', source: 'dependency', status: 'loaded', phase: undefined },
    ]);
  });

  it('invalid options show once the plugin is loaded', async () => {
    write('package.json', { name: 'app' });
    write('toolshed.config.json', { plugins: [['@toolshed/tool-read-file', { maxLines: 'many' }]] });
    const run = await toolshed(['plugins', '--json']);
    expect(run.code).toBe(1);
    const { plugins } = JSON.parse(run.stdout) as { plugins: { status: string; error?: { phase: string; message: string } }[] };
    expect(plugins[0]).toMatchObject({
      status: 'failed',
      error: { phase: 'options', message: expect.stringContaining('option maxLines: expected number, received string') },
    });
  });
});

describe('config errors', () => {
  it('a config file that is not valid JSON: the file is named, exit code 2', async () => {
    write('package.json', { name: 'app' });
    const file = write('toolshed.config.json', '{"plugins": [}');
    for (const command of ['list', 'schema', 'plugins']) {
      const run = await toolshed([command]);
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr).toMatch(
        new RegExp(
          `^toolshed: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not valid JSON \\(.+\\)\\. Fix the file, or pass another with --config\\.\\n$`,
        ),
      );
    }
  });

  it('--config names another file; a missing one is a usage error', async () => {
    write('package.json', { name: 'app' });
    write('conf/tools.json', { plugins: ['@toolshed/tool-echo'] });
    const run = await toolshed(['list', '--config', 'conf/tools.json']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^echo {2}@toolshed\/tool-echo@/);
    const missing = await toolshed(['list', '--config', 'conf/none.json']);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toBe(`toolshed: Cannot read config file ${path.join(project, 'conf/none.json')}: it does not exist.\n`);
  });

  it('a named plugin that cannot be found fails list with exit 1, naming it', async () => {
    write('package.json', { name: 'app' });
    write('toolshed.config.json', { plugins: ['@toolshed/tool-echo', 'tool-missing'] });
    const run = await toolshed(['list']);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toContain(
      '1 plugin you named could not be loaded:\n  - tool-missing [resolve]: package "tool-missing" is not installed in',
    );
  });
});

describe('the project root, from a subfolder', () => {
  it('list and call typed in a nested folder use the project above; --cwd still wins', async () => {
    write('package.json', { name: 'app', dependencies: { '@toolshed/tool-echo': '^1' } });
    write('toolshed.config.json', { rename: { echo: 'say' } });
    const nested = path.join(project, 'src', 'deep', 'down');
    mkdirSync(nested, { recursive: true });

    const list = await toolshed(['list'], { cwd: nested });
    expect(list).toMatchObject({ code: 0, stderr: '' });
    expect(list.stdout).toMatch(/^say {2}@toolshed\/tool-echo@/);
    const call = await toolshed(['call', 'say', '{"text":"from below"}'], { cwd: nested });
    expect(call).toMatchObject({ code: 0, stderr: '' });
    expect(call.stdout).toContain('from below');

    const pinned = await toolshed(['--cwd', '.', 'list'], { cwd: nested });
    expect(pinned).toMatchObject({ code: 0, stderr: '' });
    expect(pinned.stdout).toBe('No tools. Install a Toolshed plugin package, e.g. @toolshed/tool-echo.\n');
  });
});

describe('prototype keys in the config', () => {
  /** A file outside the project (read_file's default root), the config file written as given, and a call reading that file. */
  async function callOutside(config: string, tool = 'read_file') {
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-outside-')));
    try {
      writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE-THE-ROOT\n');
      write('package.json', { name: 'app', dependencies: { '@toolshed/tool-read-file': '^1' } });
      write('toolshed.config.json', config);
      return await toolshed(['call', tool, JSON.stringify({ path: path.join(outside, 'secret.txt') })]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  }

  it('options {"__proto__": {"root": "/"}} are refused, naming the file, the key path and the plugin; nothing is read', async () => {
    const run = await callOutside('{"plugins": [["@toolshed/tool-read-file", {"__proto__": {"root": "/"}}]]}');
    expect(run.stdout).toBe('');
    expect(run.stdout + run.stderr).not.toContain('OUTSIDE-THE-ROOT');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path.join(project, 'toolshed.config.json')} is not a valid Toolshed config:`);
    expect(run.stderr).toContain(
      '  - plugins[0][1].__proto__ (in the entry of "@toolshed/tool-read-file"): the key "__proto__" is refused (JavaScript takes "__proto__", "constructor" and "prototype" for an object\'s prototype, so options could get values no check saw); remove it',
    );
  });

  it('"constructor" and "prototype" are refused at any depth, every one listed at once', async () => {
    const run = await callOutside(
      '{"plugins": [{"plugin": "@toolshed/tool-read-file", "options": {"maxLines": 5, "x": [{"constructor": {"prototype": {"root": "/"}}}]}}], "mcpServers": [{"name": "s", "command": "node", "args": ["-e", ""], "env": {"__proto__": {"PATH": "/tmp"}}}]}',
    );
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).not.toContain('OUTSIDE-THE-ROOT');
    expect(run.stderr).toContain(
      '  - plugins[0].options.x[0].constructor (in the entry of "@toolshed/tool-read-file"): the key "constructor" is refused',
    );
    expect(run.stderr).toContain('  - mcpServers[0].env.__proto__: the key "__proto__" is refused');
  });

  it('a tool named "constructor" can still be renamed (rename maps are keyed by tool names), and read_file keeps its root', async () => {
    const run = await callOutside(
      '{"plugins": ["@toolshed/tool-read-file"], "rename": {"constructor": "build", "read_file": "read"}}',
      'read',
    );
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toContain('read: denied: ');
    expect(run.stderr).not.toContain('OUTSIDE-THE-ROOT');
    const inside = await toolshed(['call', 'read', '{"path": "package.json"}']);
    expect(inside).toMatchObject({ code: 0 });
    expect(JSON.parse(inside.stdout)).toMatchObject({ path: 'package.json', text: expect.stringContaining('"name": "app"') });
  });
});

describe('diagnostics that do not hide', () => {
  it("a missing named plugin and another one's invalid options are reported together", async () => {
    write('package.json', { name: 'app', dependencies: { '@toolshed/tool-echo': '^1' } });
    write('toolshed.config.json', { plugins: ['tool-missing', ['@toolshed/tool-read-file', { root: 123, maxLinez: 5 }]] });
    const call = await toolshed(['call', 'echo', '{"text":"hi"}']);
    expect(call).toMatchObject({ code: 1, stdout: '' });
    expect(call.stderr).toContain('2 plugins you named could not be loaded:');
    expect(call.stderr).toContain('  - tool-missing [resolve]: package "tool-missing" is not installed in');
    expect(call.stderr).toMatch(
      / {2}- @toolshed\/tool-read-file@\S+ \[options\]: invalid options: option root: expected string, received number; unknown option "maxLinez"\./,
    );
    const plugins = await toolshed(['plugins']);
    expect(plugins.code).toBe(1);
    expect(plugins.stdout).toContain('  error (resolve): package "tool-missing" is not installed in');
    expect(plugins.stdout).toContain(
      '  error (options): invalid options: option root: expected string, received number; unknown option "maxLinez".',
    );
  });

  it('a plugin declared as a devDependency but not installed is a warning naming it and the fix', async () => {
    write('package.json', { name: 'app', dependencies: { '@toolshed/tool-echo': '^1' }, devDependencies: { '@acme/tool-weather': '^1' } });
    const run = await toolshed(['list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^echo {2}@toolshed\/tool-echo@/);
    expect(run.stderr).toBe(
      'toolshed: warning: skipped plugin @acme/tool-weather (resolve): it is declared in package.json "devDependencies" but is not installed, so its tools are missing. ' +
        'Run npm install (npm ci --omit=dev, npm install --production and NODE_ENV=production leave devDependencies out: install them, or move it to "dependencies"). (see toolshed plugins)\n',
    );
    const plugins = await toolshed(['plugins']);
    expect(plugins.stdout).toContain(
      '@acme/tool-weather  skipped  from package.json: @acme/tool-weather\n  permissions: none declared (runs in the host with your full rights)\n  error (resolve): it is declared in package.json "devDependencies" but is not installed',
    );
  });

  it('a plugin made for another core is a warning where its tools are used: list and call, and once in plugins', async () => {
    const dir = markerPlugin('tool-shout', 'shout');
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    write('node_modules/tool-shout/package.json', { ...manifest, peerDependencies: { '@toolshed/core': '^0.9' } });
    write('package.json', { name: 'app', dependencies: { 'tool-shout': '^3' } });
    const warning =
      /^toolshed: warning: plugin tool-shout@3\.2\.1 asks for @toolshed\/core "\^0\.9" but runs with \d+\.\d+\.\d+\S*; its tools may misbehave\. Install a version of the plugin made for @toolshed\/core \S+\.\n$/;

    const list = await toolshed(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^shout {2}tool-shout@3\.2\.1/);
    expect(list.stderr).toMatch(warning);
    expect(existsSync(path.join(dir, 'imported.marker'))).toBe(false);
    const call = await toolshed(['call', 'shout', '{"text":"hi"}']);
    expect(call).toMatchObject({ code: 0 });
    expect(call.stderr).toMatch(warning);
    const plugins = await toolshed(['plugins']);
    expect(plugins.stdout.match(/asks for @toolshed\/core/g)).toHaveLength(1);
  });
});
