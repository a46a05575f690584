import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createHost } from '@toolshed/host';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config.js';
import { makeTempDir } from './harness.fixture.js';
import plugin, { createSendEmailTool } from './index.js';

const PASSWORD = 'hunter2-Secret';
const bad: [string, unknown, string][] = [
  ['a number', 42, 'ledger must be a file path inside the project, {"kind": "file", "path"?} or {"kind": "postgres", "url", "table"?}'],
  ['an empty path', '', 'ledger must not be empty'],
  ['a path outside the project', '../elsewhere/calls.jsonl', 'ledger "../elsewhere/calls.jsonl" is outside the project root'],
  [
    'an absolute path outside the project',
    { kind: 'file', path: '/var/calls.jsonl' },
    'ledger "/var/calls.jsonl" is outside the project root',
  ],
  ['an unknown kind', { kind: 'mysql', url: `mysql://u:${PASSWORD}@h/db` }, 'ledger has "kind" "mysql": it must be "file" or "postgres"'],
  ['postgres without a url', { kind: 'postgres' }, 'ledger needs "url": a PostgreSQL connection string'],
  [
    'a table that is not an SQL name',
    { kind: 'postgres', url: `postgres://u:${PASSWORD}@h/db`, table: 'calls; DROP TABLE x' },
    'ledger has a "table" that is not a lower-case SQL name',
  ],
  [
    'a field a store does not take',
    { kind: 'postgres', url: `postgres://u:${PASSWORD}@h/db`, password: PASSWORD },
    'ledger has "password", which a PostgreSQL ledger does not take',
  ],
];

describe('the ledger option', () => {
  it.each(bad)('refuses %s, saying what it must be and never quoting a connection string', (label, ledger, said) => {
    let message = '';
    try {
      createSendEmailTool({ ledger } as never, { cwd: '/project' });
    } catch (error) {
      message = (error as Error).message;
    }
    // Where the file is needs the project root, so the plugin checks it; the schema checks the rest.
    const expected = label.includes('outside')
      ? `send_email options: ${said}`
      : `@toolshed/tool-send-email: invalid options: option ${said.replace(/^ledger /, 'ledger: ')}`;
    expect(message).toContain(expected);
    expect(message).not.toContain(PASSWORD);
  });

  it.each(bad.filter(([label]) => !label.includes('outside')))(
    'refuses %s when the host loads the plugin, naming the option',
    async (_label, ledger, said) => {
      const error = (await createHost({ plugins: [[plugin, { ledger }]], cwd: '/project' } as never).catch((e: unknown) => e)) as Error;
      expect(error.message).toContain('@toolshed/tool-send-email [options]');
      expect(error.message).toContain(`option ${said.replace(/^ledger /, 'ledger: ')}`);
      expect(error.message).not.toContain(PASSWORD);
    },
  );

  it('takes a path, {"kind": "file"} and {"kind": "postgres", "url"}', () => {
    expect(resolveConfig({ ledger: 'state/calls.jsonl' }, '/p').ledger).toEqual({ kind: 'file', path: 'state/calls.jsonl' });
    expect(resolveConfig({ ledger: { kind: 'file' } }, '/p').ledger).toEqual({ kind: 'file', path: '.toolshed/send-email/calls.jsonl' });
    expect(resolveConfig({ ledger: { kind: 'postgres', url: 'postgres://h/db' } }, '/p').ledger).toEqual({
      kind: 'postgres',
      url: 'postgres://h/db',
      table: 'send_email_calls',
    });
  });
});

it('loads the pg client only for the PostgreSQL store, and only on its first call', async () => {
  const dist = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href;
  const core = import.meta.resolve('@toolshed/core');
  const dir = await makeTempDir();
  try {
    // A module hook that notes every load of pg.
    await writeFile(
      join(dir, 'hooks.mjs'),
      `export async function resolve(specifier, context, next) { if (specifier === 'pg') process.stderr.write('pg loaded\\n'); return next(specifier, context); }`,
    );
    await writeFile(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});`,
    );
    await writeFile(
      join(dir, 'main.mjs'),
      `const { ToolRegistry } = await import(${JSON.stringify(core)});
      const { createSendEmailTool } = await import(${JSON.stringify(dist)});
      const input = { to: 'a@example.com', subject: 's', body: 'b' };
      const file = createSendEmailTool(undefined, { cwd: ${JSON.stringify(dir)} });
      const outcome = await new ToolRegistry({ approve: 'allow-all' }).register(file).seal().dispatch({ name: 'send_email', input });
      await file.close();
      process.stderr.write('file store: ' + outcome.ok + '\\n');
      const pgTool = createSendEmailTool({ ledger: { kind: 'postgres', url: 'postgres://toolshed@127.0.0.1:1/none' } }, { cwd: ${JSON.stringify(dir)} });
      const registry = new ToolRegistry({ approve: 'allow-all' }).register(pgTool).seal();
      process.stderr.write('postgres store made\\n');
      const failed = await registry.dispatch({ name: 'send_email', input });
      process.stderr.write('postgres call: ' + failed.ok + '\\n');
      await pgTool.close();`,
    );
    const { stderr } = await promisify(execFile)(process.execPath, [
      '--import',
      pathToFileURL(join(dir, 'register.mjs')).href,
      join(dir, 'main.mjs'),
    ]);
    expect(stderr.split('\n').filter(Boolean)).toEqual(['file store: true', 'postgres store made', 'pg loaded', 'postgres call: false']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
