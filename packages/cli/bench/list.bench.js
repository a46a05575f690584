// Cold `toolshed list` wall time, as a ratio to `node -e 0` measured in the same run:
// a project with the three bundled plugins, and one with 100 generated plugins.
// Runs are interleaved so that machine load hits all three alike; medians are reported.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const bin = fileURLToPath(new URL('../dist/toolshed.js', import.meta.url));
const require = createRequire(import.meta.url);
const BUNDLED = ['@toolshed/tool-echo', '@toolshed/tool-read-file', '@toolshed/tool-send-email'];

function write(file, content) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

function bundledProject() {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-bench-3-')));
  for (const name of BUNDLED) {
    const target = path.dirname(require.resolve(`${name}/package.json`));
    const manifest = path.join(target, 'dist/toolshed.json');
    try {
      readFileSync(manifest);
    } catch {
      throw new Error(`${name} has no ${path.relative(process.cwd(), manifest)}; build the workspace first (pnpm build).`);
    }
    mkdirSync(path.join(dir, 'node_modules/@toolshed'), { recursive: true });
    symlinkSync(target, path.join(dir, 'node_modules', name), 'dir');
  }
  write(path.join(dir, 'package.json'), { name: 'bench-3', private: true, devDependencies: Object.fromEntries(BUNDLED.map((name) => [name, '^1'])) });
  return dir;
}

function generatedProject(count) {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), `toolshed-bench-${count}-`)));
  const dependencies = {};
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

function timeRun(args, cwd, expectTools) {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed in ${cwd}: ${result.stderr}`);
  if (expectTools !== undefined) {
    const listed = JSON.parse(result.stdout).length;
    if (listed !== expectTools) throw new Error(`expected ${expectTools} tools from toolshed list in ${cwd}, got ${listed}`);
  }
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const three = bundledProject();
const hundred = generatedProject(100);
try {
  const cases = [
    { label: 'node -e 0', run: () => timeRun(['-e', '0'], three) },
    { label: 'toolshed list (3 bundled plugins)', target: 1.5, run: () => timeRun([bin, 'list', '--json'], three, 3) },
    { label: 'toolshed list (100 plugins)', target: 2, run: () => timeRun([bin, 'list', '--json'], hundred, 100) },
  ];
  for (const item of cases) item.run(); // warm the file cache
  const samples = cases.map(() => []);
  for (let i = 0; i < RUNS; i++) cases.forEach((item, index) => samples[index].push(item.run()));
  const baseline = median(samples[0]);
  console.log(`cold start, median of ${RUNS} interleaved runs`);
  cases.forEach((item, index) => {
    const ms = median(samples[index]);
    const ratio = ms / baseline;
    const verdict = item.target === undefined ? 'baseline' : `${ratio.toFixed(2)}x node -e 0 (target <= ${item.target}x: ${ratio <= item.target ? 'met' : 'MISSED'})`;
    console.log(`  ${item.label.padEnd(36)} ${ms.toFixed(1).padStart(7)} ms  ${verdict}`);
  });
} finally {
  rmSync(three, { recursive: true, force: true });
  rmSync(hundred, { recursive: true, force: true });
}
