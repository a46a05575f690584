// An isolated plugin's call (the echo plugin in its own process under the OS sandbox, reached
// through @toolshed/mcp's mount) against the same plugin in an unsandboxed child over the same
// bridge (the same child entry, mount and registry, without the sandbox): sequential calls, and
// the first call of a fresh host (process and sandbox start included); and, for what that
// first call is made of, the kept sandbox's own start (its CLI running `node -e 0`). Ratios and
// targets: scripts/bench-report.mjs and bench/targets.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from '@toolshed/core';
import { mountServer } from '@toolshed/mcp/mount';
import { bench, describe } from 'vitest';
import { createHost } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const echoDir = realpathSync(path.join(here, '../../../plugins/echo'));
const coreDir = path.dirname(realpathSync(require.resolve('@toolshed/core/package.json')));
const mcpEntry = realpathSync(require.resolve('@toolshed/mcp'));
const child = path.join(here, '../dist/isolated-child.js');

const project = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolshed-isolation-bench-')));
const link = (name: string, target: string) => {
  const at = path.join(project, 'node_modules', name);
  mkdirSync(path.dirname(at), { recursive: true });
  symlinkSync(target, at, 'dir');
};
link('@toolshed/tool-echo', echoDir);
link('@toolshed/core', coreDir);
writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'bench', private: true }));
const config = { plugins: [{ plugin: '@toolshed/tool-echo', isolate: true }] };
const input = { text: 'hello' };

/** The same plugin in a child over the same bridge, without the sandbox. */
async function unsandboxed() {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-isolation-bench-cache-'));
  const mount = mountServer(
    { name: 'echo-child', command: process.execPath, args: [child, echoDir, project, mcpEntry] },
    { cwd: project, cacheDir },
  );
  const registry = new ToolRegistry({ approve: 'allow-all' });
  for (const definition of await mount.refresh()) registry.registerDeferred({ definition, load: async () => mount.tool(definition.name) });
  registry.seal();
  return { registry, close: async () => (await mount.close(), rmSync(cacheDir, { recursive: true, force: true })) };
}

const floor = await unsandboxed();
const isolated = await createHost({ cwd: project, config });
for (const registry of [floor.registry, isolated.registry]) {
  const outcome = await registry.dispatch({ name: 'echo', input });
  if (!outcome.ok) throw new Error(`echo failed: ${outcome.error.message}`);
}

const calls = { iterations: 300, time: 0, warmupIterations: 30, warmupTime: 0 };
describe('echo call: isolated plugin vs the same plugin in an unsandboxed child', () => {
  bench(
    'floor: unsandboxed child over the same bridge',
    async () => {
      const outcome = await floor.registry.dispatch({ name: 'echo', input });
      if (!outcome.ok) throw new Error(outcome.error.message);
    },
    calls,
  );
  bench(
    'isolated',
    async () => {
      const outcome = await isolated.registry.dispatch({ name: 'echo', input });
      if (!outcome.ok) throw new Error(outcome.error.message);
    },
    {
      ...calls,
      teardown: async (_task, mode) => {
        if (mode !== 'run') return;
        await Promise.all([floor.close(), isolated.close()]);
      },
    },
  );
});

// In rounds, each its own group (scripts/bench-report.mjs takes the median of the rounds' ratios):
// one case's samples run back to back, and a floor timed in a quiet minute against a case timed
// in a busy one would give a false ratio.
const ROUNDS = 4;
const starts = { iterations: 3, time: 0, warmupIterations: 1, warmupTime: 0 };
for (let round = 1; round <= ROUNDS; round++)
  describe(`first call (process start included): isolated vs unsandboxed child (round ${round})`, () => {
    bench(
      'floor: unsandboxed child, first call',
      async () => {
        const fresh = await unsandboxed();
        const outcome = await fresh.registry.dispatch({ name: 'echo', input });
        await fresh.close();
        if (!outcome.ok) throw new Error(outcome.error.message);
      },
      starts,
    );
    bench(
      'isolated, first call',
      async () => {
        const host = await createHost({ cwd: project, config });
        const outcome = await host.registry.dispatch({ name: 'echo', input });
        await host.close();
        if (!outcome.ok) throw new Error(outcome.error.message);
      },
      {
        ...starts,
        teardown: (_task, mode) => void (mode === 'run' && round === ROUNDS && rmSync(project, { recursive: true, force: true })),
      },
    );
  });

// No target: what the sandbox itself costs before a plugin's process can start, against a bare
// Node start. The sandbox's CLI (srt) starts Node, loads its package, checks its programs, starts
// its proxies and their bridges, then bubblewrap; the isolated first call above pays it once.
const srt = path.join(path.dirname(path.dirname(require.resolve('@anthropic-ai/sandbox-runtime'))), 'dist', 'cli.js');
const settingsDir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-isolation-bench-srt-'));
const settings = path.join(settingsDir, 'settings.json');
writeFileSync(
  settings,
  JSON.stringify({ network: { allowedDomains: [], deniedDomains: [] }, filesystem: { denyRead: [], allowWrite: [], denyWrite: [] } }),
);
const exits = (command: string, args: string[]) => {
  const { status, stderr } = spawnSync(command, args, {
    cwd: settingsDir,
    env: { ...process.env, HOME: settingsDir, TMPDIR: settingsDir },
  });
  if (status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${status}: ${stderr}`);
};
// Its own sample count: short processes, and one block each is enough for a figure without a target.
const spawns = { iterations: 8, time: 0, warmupIterations: 1, warmupTime: 0 };
describe("the sandbox's own start: its CLI running node -e 0 vs node -e 0", () => {
  bench('floor: node -e 0', () => exits(process.execPath, ['-e', '0']), spawns);
  bench('srt -- node -e 0', () => exits(process.execPath, [srt, '--settings', settings, '--', process.execPath, '-e', '0']), {
    ...spawns,
    teardown: (_task, mode) => void (mode === 'run' && rmSync(settingsDir, { recursive: true, force: true })),
  });
});
