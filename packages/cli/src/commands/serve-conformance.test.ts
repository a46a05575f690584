import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// @modelcontextprotocol/conformance 0.1.13 (the newest that runs on Node 20) against `toolshed serve --http`.
const here = fileURLToPath(new URL('../../conformance/', import.meta.url));
const RUNNER = path.join(here, 'run.mjs');
const EXPECTED_FAILURES = path.join(here, 'expected-failures.yml');
const GUARD = path.join(here, 'network-guard.mjs');

/** The expected-failures file's entries, each with the reason written after it. */
function expectedFailures(): { scenario: string; reason: string }[] {
  return readFileSync(EXPECTED_FAILURES, 'utf8')
    .split('\n')
    .filter((line) => /^\s+- /.test(line))
    .map((line) => {
      const [, scenario, reason] = /^\s+- ([\w-]+)\s*(?:#\s*(.*))?$/.exec(line)!;
      return { scenario: scenario!, reason: reason?.trim() ?? '' };
    });
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [file, ...args],
      { env: { ...process.env, ...env }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

// Scratch space: the guard's self-test log and the suite's result files.
let project: string;
beforeAll(() => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-conformance-')));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the network guard around the conformance tool', () => {
  it('refuses and notes a connection outside loopback', async () => {
    const log = path.join(project, 'guard-self-test.log');
    // 192.0.2.1 is TEST-NET-1, reserved for documentation: nothing answers there.
    const probe = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', GUARD, '-e', "fetch('http://192.0.2.1/').catch((e) => { console.error(String(e.cause ?? e)); process.exit(3); })"],
        {
          env: { ...process.env, NETWORK_GUARD_LOG: log },
        },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.once('exit', (code) => resolve({ code, stderr }));
    });
    expect(probe.code).toBe(3);
    expect(probe.stderr).toContain('network-guard: a connection to 192.0.2.1:80 (outside loopback) was refused');
    expect(readFileSync(log, 'utf8')).toBe('192.0.2.1:80\n');
  });
});

describe('@modelcontextprotocol/conformance against toolshed serve --http', { timeout: 180_000 }, () => {
  it('lists a reason for every expected failure, and only scenarios a tools-only server cannot pass', () => {
    const entries = expectedFailures();
    expect(entries.length).toBeGreaterThan(0);
    for (const { scenario, reason } of entries) expect(reason, scenario).toMatch(/^needs /);
    // Nothing about tools/list, tools/call, ping, initialize, the transport or DNS rebinding may be excused.
    const names = entries.map((e) => e.scenario);
    for (const required of [
      'server-initialize',
      'ping',
      'tools-list',
      'tools-call-simple-text',
      'tools-call-error',
      'tools-call-with-progress',
      'server-sse-multiple-streams',
      'dns-rebinding-protection',
    ]) {
      expect(names).not.toContain(required);
    }
  });

  // Through the documented command's script (`pnpm --filter @toolshed/cli conformance`), so what a reader runs is what is tested.
  for (const mode of ['sessions', 'stateless'] as const) {
    it(`passes every server scenario but the expected failures (${mode})`, async () => {
      const outDir = path.join(project, `results-${mode}`);
      const result = await run(RUNNER, [...(mode === 'stateless' ? ['--stateless'] : []), '-o', outDir], { NO_COLOR: '1' });
      expect(result.stdout).toMatch(/^toolshed serve --http.* at http:\/\/127\.0\.0\.1:\d+\/mcp, with the suite's tools/);
      // What each scenario found, from the suite's own result files.
      const failed = new Map<string, string[]>();
      const ran: string[] = [];
      for (const dir of readdirSync(outDir)) {
        const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
        ran.push(scenario);
        const checks = JSON.parse(readFileSync(path.join(outDir, dir, 'checks.json'), 'utf8')) as {
          id: string;
          status: string;
          errorMessage?: string;
        }[];
        const bad = checks
          .filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
          .map((c) => `${c.id}: ${c.errorMessage ?? c.status}`);
        if (bad.length) failed.set(scenario, bad);
      }
      expect(ran).toHaveLength(32);
      const expected = expectedFailures().map((e) => e.scenario);
      const unexpected = Object.fromEntries([...failed].filter(([scenario]) => !expected.includes(scenario)));
      // Stateless by choice: the suite warns that no session id came back, and nothing else differs.
      expect(unexpected).toEqual(
        mode === 'stateless' ? { 'server-sse-multiple-streams': ['server-sse-multiple-streams-session: WARNING'] } : {},
      );
      // An entry that passes now is stale: it must leave the file.
      expect(expected.filter((scenario) => !failed.has(scenario))).toEqual([]);
      if (mode === 'sessions') {
        expect(result.stdout).toContain('Baseline check passed: all failures are expected.');
        expect(result.code).toBe(0);
      }
      // The script stops the server (it must exit 0) and says whether the suite reached outside loopback.
      expect(result.stdout).not.toContain('network-guard:');
      expect(result.stdout).not.toContain('toolshed serve exited');
    });
  }
});
