#!/usr/bin/env node
// Run @modelcontextprotocol/conformance's server suite against `toolshed serve --http`, as
// `pnpm --filter @toolshed/cli conformance` (after `pnpm build`). The suite calls tools of its own
// (test_simple_text, test_tool_with_progress, ...), so it is served a project whose one plugin is
// conformance/plugin.js, which has them; a project of other tools fails most scenarios. Arguments:
// `--stateless` serves without sessions; the others go to the suite (e.g. `-o <folder>` for its
// result files). Prints the suite's report, and exits with its code (0: only expected failures).
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, '../bin/toolshed.cjs');
const require = createRequire(import.meta.url);
const suite = path.join(path.dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const coreDir = path.dirname(realpathSync(require.resolve('@toolshed/core/package.json')));
const valibotDir = realpathSync(path.join(coreDir, 'node_modules', 'valibot'));

/** A project whose one plugin has the suite's tools, with the core and valibot of this workspace. */
function conformanceProject() {
  const project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-conformance-')));
  mkdirSync(path.join(project, 'node_modules', '@toolshed'), { recursive: true });
  symlinkSync(coreDir, path.join(project, 'node_modules', '@toolshed', 'core'), 'dir');
  symlinkSync(valibotDir, path.join(project, 'node_modules', 'valibot'), 'dir');
  const plugin = path.join(project, 'conformance-tools');
  mkdirSync(plugin);
  const manifest = {
    name: 'conformance-tools',
    version: '1.0.0',
    type: 'module',
    exports: './index.js',
    peerDependencies: { '@toolshed/core': '^1' },
  };
  writeFileSync(path.join(plugin, 'package.json'), JSON.stringify(manifest));
  copyFileSync(path.join(here, 'plugin.js'), path.join(plugin, 'index.js'));
  writeFileSync(path.join(project, 'toolshed.config.json'), JSON.stringify({ plugins: ['./conformance-tools'] }));
  return project;
}

/** Start `toolshed serve --http` in the project; resolves with its URL once it serves the suite's tools. */
function serve(project, stateless) {
  const child = spawn(process.execPath, [bin, 'serve', '--http', '127.0.0.1:0', ...(stateless ? ['--stateless'] : [])], {
    cwd: project,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /serving \d+ tools at (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`toolshed serve exited with ${code} before serving: ${err}`)));
  });
  return { child, exited, url };
}

const args = process.argv.slice(2);
const stateless = args.includes('--stateless');
const passed = args.filter((arg) => arg !== '--stateless');
const project = conformanceProject();
const guardLog = path.join(project, 'network.log');
const server = serve(project, stateless);
let code = 1;
try {
  const url = await server.url;
  console.log(`toolshed serve --http${stateless ? ' --stateless' : ''} at ${url}, with the suite's tools (conformance/plugin.js)`);
  code = await new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [suite, 'server', '--url', url, '--suite', 'all', '--expected-failures', path.join(here, 'expected-failures.yml'), ...passed],
      // The suite runs with the network guard: it may reach this machine only.
      {
        env: { ...process.env, NODE_OPTIONS: `--import ${path.join(here, 'network-guard.mjs')}`, NETWORK_GUARD_LOG: guardLog },
        maxBuffer: 16 * 1024 * 1024,
      },
      (error) => resolve(error ? (typeof error.code === 'number' ? error.code : 1) : 0),
    );
    child.stdout.pipe(process.stdout);
    child.stderr.pipe(process.stderr);
  });
  if (existsSync(guardLog)) {
    console.log(
      `network-guard: the suite tried to connect outside loopback: ${readFileSync(guardLog, 'utf8').trim().split('\n').join(', ')}`,
    );
    code = 1;
  }
} finally {
  server.child.kill('SIGTERM');
  const exit = await server.exited;
  if (exit !== 0) {
    console.log(`toolshed serve exited with ${exit} when stopped (expected 0)`);
    code = 1;
  }
  rmSync(project, { recursive: true, force: true });
}
process.exitCode = code;
