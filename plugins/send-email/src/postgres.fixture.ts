import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './smtp-server.fixture.js';

const run = promisify(execFile);

/** Where Debian (and most Linux packages) put the server programs, newest version first. */
function findBin(): string | undefined {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) if (existsSync(join(debian, version, 'bin', 'initdb'))) return join(debian, version, 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':'))
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  return undefined;
}

export const POSTGRES_BIN = findBin();

/**
 * Why PostgreSQL tests cannot run here, or undefined when they can. In CI a missing
 * server is a failure (the tests call `requirePostgres`), never a silent skip.
 */
export const POSTGRES_MISSING =
  POSTGRES_BIN === undefined && !process.env.CI
    ? 'PostgreSQL server programs (initdb, pg_ctl) not found: install the postgresql package to run these tests (CI installs it in .ci/run).'
    : undefined;

export interface TestPostgres {
  url: string;
  /** Run one statement on a connection of its own, as another program using the database would. */
  query<Row extends object = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL server in a temporary folder on 127.0.0.1 and a free port,
 * with trust authentication. initdb refuses to run as root, so as root the
 * cluster belongs to the `postgres` user (or `nobody`) and is run through runuser.
 */
export async function startPostgres(): Promise<TestPostgres> {
  if (POSTGRES_BIN === undefined)
    throw new Error('PostgreSQL server programs (initdb, pg_ctl) not found; .ci/run installs the postgresql package.');
  const dir = await mkdtemp(join(tmpdir(), 'toolshed-pg-'));
  const data = join(dir, 'data');
  const asUser = process.getuid?.() === 0 ? await serviceUser() : undefined;
  if (asUser) await chown(dir, asUser.uid, asUser.gid);
  const exec = (program: string, args: string[]) =>
    asUser
      ? run('runuser', ['-u', asUser.name, '--', join(POSTGRES_BIN!, program), ...args], { cwd: dir })
      : run(join(POSTGRES_BIN!, program), args, { cwd: dir });
  await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'toolshed', '--no-sync', '-E', 'UTF8', '--no-instructions']);
  const port = await freePort();
  const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  await exec('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  const url = `postgres://toolshed@127.0.0.1:${port}/postgres`;
  return {
    url,
    async query<Row extends object>(sql: string, params: unknown[] = []) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows as Row[];
      } finally {
        await client.end();
      }
    },
    async stop() {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function serviceUser(): Promise<{ name: string; uid: number; gid: number }> {
  for (const name of ['postgres', 'nobody']) {
    try {
      const { stdout } = await run('id', ['-u', name]);
      const { stdout: group } = await run('id', ['-g', name]);
      return { name, uid: Number(stdout.trim()), gid: Number(group.trim()) };
    } catch {
      // try the next
    }
  }
  throw new Error('running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as');
}
