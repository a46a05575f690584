// A throwaway PostgreSQL server for the benchmark, as src/postgres.fixture.ts starts one for
// the tests: Debian's server programs, a temporary folder, 127.0.0.1, trust authentication.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = '/usr/lib/postgresql';

/** The server programs' folder, or undefined when PostgreSQL is not installed. */
export function postgresBin() {
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .find((v) => existsSync(join(root, v, 'bin', 'initdb')));
  return version && join(root, version, 'bin');
}

export async function startPostgres(bin) {
  const dir = await mkdtemp(join(tmpdir(), 'toolshed-bench-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = async (flag) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
    await chown(dir, await id('-u'), await id('-g'));
  }
  const exec = (program, args) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args]) : run(join(bin, program), args);
  const data = join(dir, 'data');
  await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'toolshed', '--no-sync', '--no-instructions']);
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  // Durable commits, as a deployment would have them: the comparison is with a file that is not fsynced either way.
  await exec('pg_ctl', ['-D', data, '-o', `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir}`, '-l', join(dir, 'log'), '-w', 'start']);
  return {
    url: `postgres://toolshed@127.0.0.1:${port}/postgres`,
    async stop() {
      await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
