import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FailureOutcome, Outcome } from '@toolshed/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from './harness.fixture.js';
import type { SendEmailOptions } from './options.js';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.fixture.js';

let server: TestSmtpServer;
let harness: Harness | undefined;
beforeEach(async () => {
  server = await startSmtpServer();
});
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  await server.close();
});

async function overSmtp(extra: Partial<SendEmailOptions> = {}): Promise<Harness> {
  harness = await makeHarness({
    from: 'bot@example.com',
    smtp: { host: '127.0.0.1', port: server.port },
    allow: ['example.com'],
    ...extra,
  });
  return harness;
}

function failure(outcome: Outcome): FailureOutcome['error'] {
  if (outcome.ok) throw new Error(`expected failure, got success: ${JSON.stringify(outcome.output)}`);
  return outcome.error;
}

/** The first `count` spellings of `address` in upper and lower case letters. */
function caseVariants(address: string, count: number): string[] {
  const letters = [...address].map((c, i) => (c.toLowerCase() !== c.toUpperCase() ? i : -1)).filter((i) => i >= 0);
  return Array.from({ length: count }, (_, n) =>
    [...address].map((c, i) => ((n >> letters.indexOf(i)) & 1 && letters.includes(i) ? c.toUpperCase() : c)).join(''),
  );
}

describe('send_email recipients', () => {
  it('sends one RCPT TO for 1000 case variants of one address, counted once against the limit', async () => {
    const variants = caseVariants('alice@example.com', 1000);
    expect(new Set(variants).size).toBe(1000);
    const h = await overSmtp({ limits: { recipients: 1 } });
    const outcome = await h.send({ to: variants.slice(0, 500), cc: variants.slice(500), subject: 's', body: 'b' });
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(server.received).toHaveLength(1);
    // One RCPT TO on the real server, for the first spelling.
    expect(server.received[0]!.envelope.to).toEqual(['alice@example.com']);
    expect((outcome.output as { accepted: string[] }).accepted).toEqual(['alice@example.com']);
    expect(server.received[0]!.mail.headers.has('cc')).toBe(false);
  });

  it('keeps an address named in to and cc in to only, with the first spelling', async () => {
    const h = await overSmtp();
    const outcome = await h.send({
      to: ['Bob@example.com', 'carol@example.com'],
      cc: ['BOB@example.com', 'dave@example.com'],
      subject: 's',
      body: 'b',
    });
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(server.received[0]!.envelope.to).toEqual(['Bob@example.com', 'carol@example.com', 'dave@example.com']);
    const cc = server.received[0]!.mail.cc;
    expect((Array.isArray(cc) ? cc : [cc!]).flatMap((a) => a.value.map((v) => v.address))).toEqual(['dave@example.com']);
  });

  it('still refuses more distinct recipients than the limit, sending nothing', async () => {
    const h = await overSmtp({ limits: { recipients: 2 } });
    const error = failure(
      await h.send({ to: ['a@example.com', 'B@example.com', 'b@example.com', 'c@example.com'], subject: 's', body: 'b' }),
    );
    expect(error.code).toBe('invalid_input');
    expect(error.message).toBe(
      'Invalid input for send_email.to: 3 recipients (to and cc together), more than the limit of 2. Nothing was sent; shorten it and try again.',
    );
    expect(server.received).toHaveLength(0);
  });
});

describe('send_email replyTo', () => {
  it('is refused when it is off the allow list, and nothing is sent', async () => {
    const h = await overSmtp();
    const error = failure(await h.send({ to: 'alice@example.com', subject: 's', body: 'b', replyTo: 'collector@evil.test' }));
    expect(error.code).toBe('denied');
    expect(error.message).toBe(
      'send_email may not use collector@evil.test as replyTo: it is not on the allowed recipients list, and replies would go to it. ' +
        'Nothing was sent. Leave replyTo out, use an allowed address, or ask the user to allow it.',
    );
    expect(server.received).toHaveLength(0);
  });

  it('is used when it is on the allow list', async () => {
    const h = await overSmtp();
    const outcome = await h.send({ to: 'alice@example.com', subject: 's', body: 'b', replyTo: 'Desk@EXAMPLE.com' });
    if (!outcome.ok) throw new Error(outcome.error.message);
    // The domain matched the list without regard to case (the parser lower-cases domains).
    expect(server.received[0]!.mail.replyTo?.value.map((a) => a.address)).toEqual(['Desk@example.com']);
  });

  it('obeys the allow list in outbox mode too, writing nothing when refused', async () => {
    harness = await makeHarness({ allow: ['example.com'] });
    const error = failure(await harness.send({ to: 'alice@example.com', subject: 's', body: 'b', replyTo: 'x@evil.test' }));
    expect(error.code).toBe('denied');
    await expect(readdir(join(harness.cwd, '.toolshed', 'outbox'))).rejects.toThrow(/ENOENT/);
  });
});

describe('send_email subject after RFC 2047 decoding', () => {
  const bad: [string, string, string][] = [
    ['a Q-encoded CR LF and a header', '=?UTF-8?Q?Hello=0D=0ABcc:_spy@evil.test?=', 'a carriage return (CR) U+000D'],
    ['a B-encoded LF', `=?utf-8?B?${Buffer.from('Hi\nX-Evil: 1').toString('base64')}?=`, 'a line feed (LF) U+000A'],
    ['an encoded line separator', '=?UTF-8?Q?a=E2=80=A8b?=', 'a line separator (U+2028) U+2028'],
    ['an encoded paragraph separator', '=?UTF-8?Q?a=E2=80=A9b?=', 'a paragraph separator (U+2029) U+2029'],
    ['an encoded C1 control (NEL)', '=?UTF-8?Q?a=C2=85b?=', 'a control character U+0085'],
    ['an encoded NUL', '=?UTF-8?Q?a=00b?=', 'a control character U+0000'],
    ['an encoded-word inside an encoded-word', '=?UTF-8?Q?=3D=3FUTF-8=3FQ=3Fa=3D0Ab=3F=3D?=', 'a line feed (LF) U+000A'],
  ];

  it.each(bad)('refuses %s as invalid_input naming the subject, sending nothing', async (_label, subject, found) => {
    const h = await overSmtp();
    const error = failure(await h.send({ to: 'alice@example.com', subject, body: 'b' }));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toBe(
      `Invalid input for send_email.subject: its encoded-word (=?charset?Q/B?...?=) decodes to ${found}, which is not allowed in a one-line subject. ` +
        'Nothing was sent; write the subject as plain text on one line.',
    );
    expect(error.issues?.[0]?.at).toBe('send_email.subject');
    expect(server.received).toHaveLength(0);
  });

  it.each([
    ['a line separator', 'a\u2028b'],
    ['a paragraph separator', 'a\u2029b'],
    ['a C1 control (NEL)', 'a\u0085b'],
    ['DEL', 'a\u007fb'],
  ])('refuses a raw %s in the input schema, sending nothing', async (_label, subject) => {
    const h = await overSmtp();
    const error = failure(await h.send({ to: 'alice@example.com', subject, body: 'b' }));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain('send_email.subject');
    expect(error.message).toContain('line breaks and control characters are not allowed');
    expect(server.received).toHaveLength(0);
  });

  it('passes a harmless encoded-word through as written', async () => {
    const h = await overSmtp();
    const outcome = await h.send({ to: 'alice@example.com', subject: '=?UTF-8?Q?Caf=C3=A9?= menu', body: 'b' });
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(server.received[0]!.mail.subject).toBe('Café menu');
  });
});

describe('send_email address lengths', () => {
  const domain = `${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(57)}.com`; // 189 characters
  const longest = `${'a'.repeat(64)}@${domain}`; // 64 + 1 + 189 = 254
  const tooLong = `${'a'.repeat(64)}@x${domain}`; // 255
  const longLocal = `${'a'.repeat(65)}@example.com`;

  it('accepts an address of 254 characters with a 64-character local part', async () => {
    expect(longest.length).toBe(254);
    harness = await makeHarness(undefined);
    const outcome = await harness.send({ to: longest, subject: 's', body: 'b' });
    if (!outcome.ok) throw new Error(outcome.error.message);
  });

  it.each([
    ['to', { to: tooLong }, 'expected an email address of at most 254 characters'],
    ['cc', { cc: [tooLong] }, 'expected an email address of at most 254 characters'],
    ['replyTo', { replyTo: tooLong }, 'expected an email address of at most 254 characters'],
    ['to', { to: longLocal }, 'expected at most 64 characters before the @ of an email address'],
    ['to', { to: `${'a'.repeat(10_000)}@example.com` }, 'expected an email address of at most 254 characters'],
  ])('refuses a too long address in %s, naming the field, writing nothing', async (field, change, says) => {
    expect(tooLong.length).toBe(255);
    harness = await makeHarness(undefined);
    const error = failure(await harness.send({ to: 'alice@example.com', subject: 's', body: 'b', ...change }));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain(`send_email.${field}`);
    expect(error.message).toContain(says);
    await expect(readdir(join(harness.cwd, '.toolshed', 'outbox'))).rejects.toThrow(/ENOENT/);
  });
});
