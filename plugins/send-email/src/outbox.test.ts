import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHarness, makeTempDir, type Harness } from './harness.fixture.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

const message = {
  to: ['alice@example.com', 'bob@example.org'],
  cc: 'carol@example.net',
  subject: 'Café menu — Thursday',
  body: 'Soup of the day.\n\nSee you there.\n',
  replyTo: 'kitchen@example.com',
};

describe('send_email with no SMTP server configured', () => {
  it('writes a complete .eml file to .toolshed/outbox under the host cwd', async () => {
    harness = await makeHarness(undefined);
    const outcome = await harness.send(message);
    if (!outcome.ok) throw new Error(outcome.error.message);
    const output = outcome.output as {
      messageId: string;
      accepted: string[];
      rejected: unknown[];
      delivery: { via: string; file: string };
    };

    const outbox = join(harness.cwd, '.toolshed', 'outbox');
    const files = await readdir(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{8}\.eml$/);
    // The model is told where the file is relative to the project, not where the project is.
    expect(output.delivery).toEqual({ via: 'outbox', file: `.toolshed/outbox/${files[0]!}` });
    expect(JSON.stringify(outcome)).not.toContain(harness.cwd);
    expect(output.accepted).toEqual(['alice@example.com', 'bob@example.org', 'carol@example.net']);
    expect(output.rejected).toEqual([]);

    const mail = await simpleParser(await readFile(join(harness.cwd, output.delivery.file)));
    expect(mail.messageId).toBe(output.messageId);
    expect(mail.from?.value.map((a) => a.address)).toEqual(['toolshed@localhost']);
    const to = Array.isArray(mail.to) ? mail.to : [mail.to!];
    expect(to.flatMap((a) => a.value.map((v) => v.address))).toEqual(message.to);
    const cc = Array.isArray(mail.cc) ? mail.cc : [mail.cc!];
    expect(cc.flatMap((a) => a.value.map((v) => v.address))).toEqual(['carol@example.net']);
    expect(mail.replyTo?.value.map((a) => a.address)).toEqual(['kitchen@example.com']);
    expect(mail.subject).toBe(message.subject);
    expect(mail.text).toBe(message.body);
    expect(mail.date).toBeInstanceOf(Date);
  });

  it('uses the configured sender and outbox folder, relative to the host cwd', async () => {
    harness = await makeHarness({ from: 'desk@example.com', outbox: 'mail/out' });
    const outcome = await harness.send({ to: 'alice@example.com', subject: 'hi', body: 'x' });
    if (!outcome.ok) throw new Error(outcome.error.message);
    const files = await readdir(join(harness.cwd, 'mail/out'));
    expect(files).toHaveLength(1);
    const mail = await simpleParser(await readFile(join(harness.cwd, 'mail/out', files[0]!)));
    expect(mail.from?.value.map((a) => a.address)).toEqual(['desk@example.com']);
  });

  it('leaves no temporary file behind, whatever the number of messages', async () => {
    harness = await makeHarness(undefined);
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => harness!.send({ ...message, subject: `n${i}` })));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    const files = await readdir(join(harness.cwd, '.toolshed', 'outbox'));
    expect(files).toHaveLength(10);
    expect(files.every((f) => f.endsWith('.eml') && !f.startsWith('.'))).toBe(true);
  });

  it('still enforces an allow list when one is configured', async () => {
    harness = await makeHarness({ allow: ['example.com'] });
    const outcome = await harness.send(message);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('denied');
    expect(outcome.error.message).toContain('bob@example.org, carol@example.net');
    await expect(readdir(join(harness.cwd, '.toolshed', 'outbox'))).rejects.toThrow(/ENOENT/);
  });

  it('still rejects header injection', async () => {
    harness = await makeHarness(undefined);
    const outcome = await harness.send({ ...message, subject: 'x\r\nBcc: spy@evil.test' });
    expect(outcome.ok ? 'ok' : outcome.error.code).toBe('invalid_input');
    await expect(readdir(join(harness.cwd, '.toolshed', 'outbox'))).rejects.toThrow(/ENOENT/);
  });

  it('fails naming the outbox folder when it cannot be written', async () => {
    const cwd = await makeTempDir();
    try {
      await writeFile(join(cwd, 'blocked'), 'a file where the folder should be');
      harness = await makeHarness({ outbox: 'blocked/outbox' }, cwd);
      const outcome = await harness.send(message);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error.code).toBe('execution_failed');
      // Named as the user wrote it, relative to the project; the host's folders stay private.
      expect(outcome.error.message).toBe(
        'send_email could not write to the outbox folder "blocked/outbox": "blocked" is not a folder. Nothing was saved. ' +
          'Ask the user to move it away or set the outbox option to another folder inside the project.',
      );
      expect(JSON.stringify(harness.events)).not.toContain(cwd);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it('writes a retried call once', async () => {
    harness = await makeHarness(undefined);
    const first = await harness.send(message, 'same-call');
    const again = await harness.send(message, 'same-call');
    expect(again.ok && first.ok && again.output).toEqual(first.ok && first.output);
    expect(await readdir(join(harness.cwd, '.toolshed', 'outbox'))).toHaveLength(1);
  });
});
