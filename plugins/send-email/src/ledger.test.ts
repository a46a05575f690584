import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '@toolshed/core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir } from './harness.fixture.js';
import { CallLedger } from './ledger.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await makeTempDir();
  file = join(dir, 'nested', 'calls.jsonl');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const lines = async () => (await readFile(file, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: string; state: string; input?: string });

it('records pending then done, and answers a retry from the record', async () => {
  const ledger = new CallLedger<string>(file);
  let sends = 0;
  const send = async () => `sent ${++sends}`;
  expect(await ledger.run('a', { n: 1 }, send)).toBe('sent 1');
  expect(await ledger.run('a', { n: 1 }, send)).toBe('sent 1');
  expect(sends).toBe(1);
  expect((await lines()).map((l) => [l.id, l.state])).toEqual([['a', 'pending'], ['a', 'done']]);
  await ledger.close();
});

it('records a failure so the same call id may be sent again', async () => {
  const ledger = new CallLedger<string>(file);
  await expect(ledger.run('a', { n: 1 }, async () => Promise.reject(new Error('server said no')))).rejects.toThrow('server said no');
  expect(await ledger.run('a', { n: 1 }, async () => 'second try')).toBe('second try');
  await ledger.close();
  const reopened = new CallLedger<string>(file);
  expect(await reopened.run('a', { n: 1 }, async () => 'third')).toBe('second try');
  await reopened.close();
});

it('refuses a call id reused with different input, before sending', async () => {
  const ledger = new CallLedger<string>(file);
  await ledger.run('a', { n: 1 }, async () => 'first');
  let sent = false;
  const error = await ledger.run('a', { n: 2 }, async () => ((sent = true), 'x')).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ToolError);
  expect((error as ToolError).code).toBe('invalid_input');
  expect(sent).toBe(false);
  await ledger.close();
});

it('compacts a long file to the newest 10,000 calls when it is read back', async () => {
  const probe = new CallLedger<string>(file);
  await probe.run('probe', { n: 1 }, async () => 'x');
  await probe.close();
  const input = (await lines())[0]!.input;
  const entries = Array.from({ length: 20_002 }, (_, i) => JSON.stringify({ id: `c${i}`, state: 'done', input, output: `out ${i}` }));
  await writeFile(file, `${entries.join('\n')}\n`);

  const ledger = new CallLedger<string>(file);
  expect(await ledger.run('c20001', { n: 1 }, async () => 'sent again')).toBe('out 20001');
  const kept = await lines();
  expect(kept).toHaveLength(10_000);
  expect(kept[0]!.id).toBe('c10002');
  // The oldest call ids are forgotten: a retry of one sends.
  expect(await ledger.run('c0', { n: 1 }, async () => 'sent again')).toBe('sent again');
  await ledger.close();
});

it('reports an unwritable ledger as execution_failed naming the file, and sends nothing', async () => {
  await writeFile(join(dir, 'nested'), 'a file where the folder should be');
  const ledger = new CallLedger<string>(file);
  let sent = false;
  const error = (await ledger.run('a', {}, async () => ((sent = true), 'x')).catch((e: unknown) => e)) as ToolError;
  expect(error.code).toBe('execution_failed');
  expect(error.message).toContain(file);
  expect(sent).toBe(false);
});

it('writes the lines of many concurrent calls whole, each pending line before its send, and a restart knows them all', async () => {
  const ledger = new CallLedger<string>(file);
  const pendingAtSend: boolean[] = [];
  const ids = Array.from({ length: 50 }, (_, i) => `c${i}`);
  await Promise.all(
    ids.map((id) =>
      ledger.run(id, { id }, async () => {
        // The record must be in the file before the message goes out.
        pendingAtSend.push((await lines()).some((line) => line.id === id && line.state === 'pending'));
        return `sent ${id}`;
      }),
    ),
  );
  await ledger.close();
  expect(pendingAtSend).toEqual(ids.map(() => true));
  const written = await lines();
  expect(written).toHaveLength(100);
  expect(new Set(written.filter((l) => l.state === 'done').map((l) => l.id))).toEqual(new Set(ids));

  const restarted = new CallLedger<string>(file);
  let sends = 0;
  expect(await restarted.run('c7', { id: 'c7' }, async () => `again ${++sends}`)).toBe('sent c7');
  expect(sends).toBe(0);
  await restarted.close();
});
