// Cold start of the toolshed command as a ratio to `node -e 0`, each case its
// own function in the same tinybench loop (vitest bench), each sample one
// spawned process: `list` in a project with the three bundled plugins and in
// one with 100 generated plugins, `call echo` (beside the echo plugin imported
// and run by hand, the least such a call costs) and `--version`.
// Children run without NODE_EXTRA_CA_CERTS: reading a CA bundle adds the same
// ~25 ms to every node start, floor included, and would only hide our share.
// Ratios and targets (bench/targets.json): scripts/bench-report.mjs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bench, describe } from 'vitest';

const bin = fileURLToPath(new URL('../bin/toolshed.cjs', import.meta.url));
const byHand = fileURLToPath(new URL('./echo-by-hand.js', import.meta.url));
// This repository's root, whose toolshed.config.json names the three plugins by path.
const repository = fileURLToPath(new URL('../../..', import.meta.url));
const require = createRequire(import.meta.url);
const BUNDLED = ['@toolshed/tool-echo', '@toolshed/tool-read-file', '@toolshed/tool-send-email'];
const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
delete env.NODE_EXTRA_CA_CERTS;

function write(file: string, content: unknown) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

function bundledProject(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-bench-3-')));
  for (const name of BUNDLED) {
    const target = path.dirname(require.resolve(`${name}/package.json`));
    const manifest = path.join(target, 'dist/toolshed.json');
    try {
      readFileSync(manifest);
    } catch {
      throw new Error(`${name} has no ${manifest}; build the workspace first (pnpm build).`);
    }
    mkdirSync(path.join(dir, 'node_modules/@toolshed'), { recursive: true });
    symlinkSync(target, path.join(dir, 'node_modules', name), 'dir');
  }
  write(path.join(dir, 'package.json'), {
    name: 'bench-3',
    private: true,
    devDependencies: Object.fromEntries(BUNDLED.map((name) => [name, '^1'])),
  });
  return dir;
}

function generatedProject(count: number): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), `toolshed-bench-${count}-`)));
  const dependencies: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const name = `toolshed-bench-plugin-${String(i).padStart(3, '0')}`;
    const tool = `tool_${String(i).padStart(3, '0')}`;
    dependencies[name] = '^1.0.0';
    const root = path.join(dir, 'node_modules', name);
    write(path.join(root, 'package.json'), {
      name,
      version: '1.0.0',
      type: 'module',
      exports: './index.js',
      peerDependencies: { '@toolshed/core': '^1' },
      toolshed: { apiVersion: 1, tools: [tool], manifest: './toolshed.json' },
    });
    // Never imported by `list`; it would fail loudly if it were.
    write(path.join(root, 'index.js'), "throw new Error('toolshed list imported a plugin');\n");
    write(path.join(root, 'toolshed.json'), {
      apiVersion: 1,
      tools: [
        {
          definition: {
            name: tool,
            description: `Generated tool number ${i}, with a description of a realistic length for a model to read.`,
            inputSchema: {
              type: 'object',
              properties: { text: { type: 'string', description: 'Some text.' }, count: { type: 'number' } },
              required: ['text'],
            },
            annotations: { readOnly: true },
          },
        },
      ],
    });
  }
  write(path.join(dir, 'package.json'), { name: `bench-${count}`, private: true, dependencies });
  return dir;
}

/** Run node with args in cwd; check what it printed, so a broken command is never timed as a fast one. */
function run(args: string[], cwd: string, check?: (stdout: string) => void): void {
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed in ${cwd}: ${result.stderr}`);
  check?.(result.stdout);
}
// The listing a user reads: a line per tool, its description indented under it.
const lines = (count: number) => (stdout: string) => {
  const listed = stdout.split('\n').filter((line) => line !== '' && !line.startsWith(' ')).length;
  if (listed !== count) throw new Error(`expected ${count} tools from toolshed list, got ${listed}:\n${stdout}`);
};

/**
 * Two MCP servers mounted (server-everything and the tests' marker server, over stdio) with
 * their tool lists cached, and the listings their mounts keep, by one `toolshed list` here;
 * `list` must then start neither: the marker server appends to marker.log whenever it starts,
 * and a sample that grew it throws.
 */
function mountedProject(): { dir: string; tools: number; unstarted: () => void } {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-bench-mcp-')));
  mkdirSync(path.join(dir, 'node_modules/@toolshed'), { recursive: true });
  symlinkSync(path.dirname(require.resolve('@toolshed/mcp/package.json')), path.join(dir, 'node_modules/@toolshed/mcp'), 'dir');
  const everything = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
  const marker = fileURLToPath(new URL('../test-fixtures/mcp-servers/marker-server.mjs', import.meta.url));
  write(path.join(dir, 'package.json'), { name: 'bench-mcp', private: true, dependencies: { '@toolshed/mcp': '^1' } });
  write(path.join(dir, 'toolshed.config.json'), {
    mcpServers: [
      { name: 'everything', command: process.execPath, args: [everything, 'stdio'] },
      { name: 'marker', command: process.execPath, args: [marker], env: { MARKER_FILE: path.join(dir, 'marker.log') } },
    ],
  });
  const first = spawnSync(process.execPath, [bin, 'list', '--json'], { cwd: dir, encoding: 'utf8', env });
  if (first.status !== 0 || first.stderr !== '')
    throw new Error(`toolshed list could not cache the servers' tools in ${dir}: ${first.stderr}`);
  const log = path.join(dir, 'marker.log');
  const started = readFileSync(log, 'utf8');
  const unstarted = () => {
    if (readFileSync(log, 'utf8') !== started) throw new Error('toolshed list started an MCP server although its tools were cached');
  };
  return { dir, tools: JSON.parse(first.stdout).length, unstarted };
}

const three = bundledProject();
const hundred = generatedProject(100);
const mounted = mountedProject();
// Each sample is a process start: a fixed count, not a time budget, so every case gets as many.
// Twenty rounds of the whole group, each case 2 starts a round: tinybench times a case's samples
// back to back, and the machine is shared, so each ratio is taken within one round and the
// report gives the median of the rounds' (scripts/bench-report.mjs). With 5 rounds of 8 starts
// the speed of this machine drifted within a round: list's median ratio was 1.41x in one run and
// 1.75x in the next; 20 rounds of 2 gave 1.66x and 1.64x.
const ROUNDS = 20;
const options = { time: 0, iterations: 2, warmupTime: 0, warmupIterations: 1 };

for (let round = 1; round <= ROUNDS; round++)
  describe(`cold start (round ${round})`, () => {
    bench('floor: node -e 0', () => run(['-e', '0'], three), options);
    bench('toolshed --version', () => run([bin, '--version'], three), options);
    bench('toolshed list (3 plugins)', () => run([bin, 'list'], three, lines(3)), options);
    bench('toolshed list (this repository)', () => run([bin, 'list'], repository, lines(3)), options);
    bench('toolshed list (100 plugins)', () => run([bin, 'list'], hundred, lines(100)), options);
    bench(
      'toolshed list (2 MCP servers, cached)',
      () =>
        run([bin, 'list'], mounted.dir, (stdout) => {
          lines(mounted.tools)(stdout);
          mounted.unstarted();
        }),
      options,
    );
    // The floor of the call targets: what a call of echo costs at the least.
    bench(
      'reference: the echo plugin imported and run by hand',
      () =>
        run([byHand, '{"text":"hi"}'], three, (stdout) => {
          if (JSON.parse(stdout).text !== 'hi') throw new Error(`echo by hand printed ${stdout}`);
        }),
      options,
    );
    bench(
      'toolshed call echo (this repository)',
      () =>
        run([bin, 'call', 'echo', '{"text":"hi"}'], repository, (stdout) => {
          if (JSON.parse(stdout).text !== 'hi') throw new Error(`toolshed call echo printed ${stdout}, expected {"text": "hi"}`);
        }),
      options,
    );
    bench(
      'toolshed call echo',
      () =>
        run([bin, 'call', 'echo', '{"text":"hi"}'], three, (stdout) => {
          if (JSON.parse(stdout).text !== 'hi') throw new Error(`toolshed call echo printed ${stdout}, expected {"text": "hi"}`);
        }),
      {
        ...options,
        teardown: (_task: unknown, mode?: string) => {
          if (mode === 'run' && round === ROUNDS)
            for (const dir of [three, hundred, mounted.dir]) rmSync(dir, { recursive: true, force: true });
        },
      },
    );
  });
