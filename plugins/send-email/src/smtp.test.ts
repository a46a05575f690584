import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FailureOutcome, Outcome, SuccessOutcome } from '@toolshed/core';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeLine } from './ledger-line.js';
import { makeHostHarness, makeTempDir, secretForms, type Harness } from './harness.fixture.js';
import { freePort, startSmtpServer, type TestSmtpServer } from './smtp-server.fixture.js';

const USER = 'agent@example.com';
const PASSWORD = 'S3cr3t-p@ss/w0rd!';
const ENV = 'TOOLSHED_TEST_SMTP_PASSWORD';
// The host resolves the password's {"env": NAME} reference from here, as from process.env in a real start.
const env = { [ENV]: PASSWORD };

let server: TestSmtpServer;
let harness: Harness | undefined;

beforeEach(async () => {
  server = await startSmtpServer({ auth: { user: USER, pass: PASSWORD } });
});

afterEach(async () => {
  // Whatever happened, no form of the password left the registry.
  if (harness) {
    const transcript = harness.transcript();
    for (const form of secretForms(USER, PASSWORD)) expect(transcript).not.toContain(form);
    await harness.dispose();
    harness = undefined;
  }
  await server.close();
});

// Options as toolshed.config.json holds them, loaded by the real host: the password is only ever
// an {"env": NAME} reference, so every leak check below runs through the way a secret comes in.
type ConfigOptions = Record<string, unknown>;

function options(extra: ConfigOptions = {}, port = server.port): ConfigOptions {
  return {
    from: 'bot@example.com',
    smtp: { host: '127.0.0.1', port, user: USER, password: { env: ENV } },
    allow: ['example.com', 'partner@other.org'],
    timeouts: { connectMs: 2000, greetingMs: 2000, socketMs: 2000 },
    ...extra,
  };
}

async function open(extra: ConfigOptions = {}, port?: number): Promise<Harness> {
  harness = await makeHostHarness(options(extra, port), env);
  return harness;
}

const message = {
  to: ['alice@example.com', 'partner@other.org'],
  cc: 'carol@example.com',
  subject: 'Quarterly report — ready',
  body: 'Hello,\r\n\r\nThe report is attached in spirit.\n.\nA line with only a dot, above.\n',
  replyTo: 'reports@example.com',
};

function success(outcome: Outcome): SuccessOutcome {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome;
}

function failure(outcome: Outcome): FailureOutcome['error'] {
  if (outcome.ok) throw new Error(`expected failure, got success: ${JSON.stringify(outcome.output)}`);
  return outcome.error;
}

describe('send_email over SMTP', () => {
  it('delivers the message with the configured sender, logging in with user and password', async () => {
    const h = await open();
    const output = success(await h.send(message)).output as Record<string, unknown>;

    expect(server.logins).toEqual([{ user: USER, pass: PASSWORD }]);
    expect(server.received).toHaveLength(1);
    const [got] = server.received;
    expect(got!.envelope.from).toBe('bot@example.com');
    expect(got!.envelope.to.sort()).toEqual(['alice@example.com', 'carol@example.com', 'partner@other.org']);
    const mail = got!.mail;
    expect(mail.from?.value).toEqual([{ address: 'bot@example.com', name: '' }]);
    expect(mail.subject).toBe(message.subject);
    expect(mail.text).toBe(message.body.replace(/\r\n/g, '\n'));
    expect(mail.replyTo?.value.map((a) => a.address)).toEqual(['reports@example.com']);
    const addresses = (field: typeof mail.to) =>
      (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address));
    expect(addresses(mail.to)).toEqual(['alice@example.com', 'partner@other.org']);
    expect(addresses(mail.cc)).toEqual(['carol@example.com']);
    expect(mail.headers.has('bcc')).toBe(false);

    expect(output).toEqual({
      messageId: mail.messageId,
      accepted: ['alice@example.com', 'partner@other.org', 'carol@example.com'],
      rejected: [],
      delivery: { via: 'smtp', host: '127.0.0.1', port: server.port, response: '250 (the server accepted it)' },
    });
  });

  it('accepts a single address as a string', async () => {
    const h = await open();
    success(await h.send({ to: 'bob@example.com', subject: 'hi', body: 'one' }));
    expect(server.received.map((r) => r.envelope.to)).toEqual([['bob@example.com']]);
  });

  it('sends without login when no user is configured', async () => {
    server.behaviour.auth = undefined;
    const h = await open({ smtp: { url: `smtp://127.0.0.1:${server.port}` } });
    success(await h.send({ to: 'bob@example.com', subject: 'hi', body: 'no auth' }));
    expect(server.logins).toEqual([]);
    expect(server.received).toHaveLength(1);
  });

  it('logs in with the user from smtp.url and the password from the environment', async () => {
    const h = await open({ smtp: { url: `smtp://${encodeURIComponent(USER)}@127.0.0.1:${server.port}`, password: { env: ENV } } });
    success(await h.send({ to: 'bob@example.com', subject: 'hi', body: 'url' }));
    expect(server.logins).toEqual([{ user: USER, pass: PASSWORD }]);
  });

  it('reports a refused login as execution_failed with the reply, never the password', async () => {
    server.behaviour.auth = { user: USER, pass: 'another password' };
    const h = await open();
    const error = failure(await h.send(message));
    expect(error.code).toBe('execution_failed');
    expect(error.message).toContain('refused the login');
    expect(error.message).toContain('535');
    expect(server.received).toHaveLength(0);
  });
});

describe('send_email keeps the password out of what it reports', () => {
  it('reports a server reply that quotes the password by its codes and a fixed explanation only', async () => {
    // The server rejects the login because it expects another user, and quotes what it got.
    server.behaviour.auth = { user: 'someone-else', pass: PASSWORD };
    server.behaviour.echoCredentials = true;
    const h = await open();
    const error = failure(await h.send(message));
    expect(server.logins).toEqual([{ user: USER, pass: PASSWORD }]);
    expect(error.code).toBe('execution_failed');
    expect(error.message).toBe(
      `send_email: the SMTP server at 127.0.0.1:${server.port} refused the login with 535 5.7.8 (the SMTP server refused the login; ` +
        `check the plugin's smtp.user and smtp.password options). Nothing was sent.`,
    );
    // afterEach checks every outcome, event and log line for every form of the password.
  });
});

describe('send_email refuses unsafe or over-limit input before sending', () => {
  const injections: [string, Record<string, unknown>, string][] = [
    ['subject with CRLF and a Bcc header', { subject: 'Hi\r\nBcc: spy@evil.test' }, 'send_email.subject'],
    ['subject with a bare LF', { subject: 'Hi\nX-Evil: 1' }, 'send_email.subject'],
    ['subject with a bare CR', { subject: 'Hi\rX-Evil: 1' }, 'send_email.subject'],
    ['subject with a NUL byte', { subject: 'Hi\u0000there' }, 'send_email.subject'],
    ['to with an injected header', { to: 'alice@example.com\r\nBcc: spy@evil.test' }, 'send_email.to'],
    ['to list with an injected header', { to: ['alice@example.com', 'bob@example.com\nBcc: spy@evil.test'] }, 'send_email.to'],
    ['cc with an injected header', { cc: 'carol@example.com\r\nBcc: spy@evil.test' }, 'send_email.cc'],
    ['replyTo with an injected header', { replyTo: 'r@example.com\r\nBcc: spy@evil.test' }, 'send_email.replyTo'],
    ['to with a display name', { to: 'Alice <alice@example.com>' }, 'send_email.to'],
    ['to that is not an address', { to: 'alice' }, 'send_email.to'],
    ['an empty to list', { to: [] }, 'send_email.to'],
    ['a sender chosen by the model', { from: 'ceo@example.com' }, 'send_email.from'],
    ['an extra header field', { headers: { Bcc: 'spy@evil.test' } }, 'send_email.headers'],
    ['a missing body', { body: undefined }, 'send_email.body'],
    ['a numeric subject', { subject: 42 }, 'send_email.subject'],
  ];

  it.each(injections)('%s is invalid_input naming the field, and nothing is sent', async (_label, change, field) => {
    const h = await open();
    const input: Record<string, unknown> = { to: 'alice@example.com', subject: 'ok', body: 'ok', ...change };
    const error = failure(await h.send(input));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain(field);
    expect(server.received).toHaveLength(0);
    expect(server.logins).toHaveLength(0);
  });

  it('denies a recipient off the allow list, naming it, and sends nothing', async () => {
    const h = await open();
    const error = failure(await h.send({ ...message, cc: ['carol@example.com', 'mallory@evil.test'] }));
    expect(error.code).toBe('denied');
    expect(error.message).toContain('mallory@evil.test');
    expect(error.message).not.toContain('carol@example.com');
    expect(server.received).toHaveLength(0);
  });

  it('matches the allow list case-insensitively, by exact address or whole domain', async () => {
    const h = await open();
    success(await h.send({ to: ['ALICE@Example.COM', 'Partner@Other.org'], subject: 's', body: 'b' }));
    const error = failure(await h.send({ to: 'someone@other.org', subject: 's', body: 'b' }));
    expect(error.code).toBe('denied');
    expect(error.message).toContain('someone@other.org');
    expect(failure(await h.send({ to: 'a@sub.example.com', subject: 's', body: 'b' })).code).toBe('denied');
    expect(server.received).toHaveLength(1);
  });

  it('denies every recipient when SMTP is configured without an allow list', async () => {
    const h = await open({ allow: undefined });
    const error = failure(await h.send({ to: 'alice@example.com', subject: 's', body: 'b' }));
    expect(error.code).toBe('denied');
    expect(error.message).toContain('alice@example.com');
    expect(server.received).toHaveLength(0);
  });

  it.each([
    ['recipients', { to: ['a@example.com', 'b@example.com'], cc: ['c@example.com'] }, 'send_email.to', '3 recipients'],
    ['subject', { subject: 'x'.repeat(11) }, 'send_email.subject', '11 characters'],
    ['body', { body: 'x'.repeat(101) }, 'send_email.body', '101 characters'],
  ])('enforces the %s limit with a clear message and sends nothing', async (_label, change, field, said) => {
    const h = await open({ limits: { recipients: 2, subjectChars: 10, bodyChars: 100 } });
    const error = failure(await h.send({ to: 'a@example.com', subject: 'ok', body: 'ok', ...change }));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain(field);
    expect(error.message).toContain(said);
    expect(error.issues?.[0]?.at).toBe(field);
    expect(server.received).toHaveLength(0);
  });

  it('counts a recipient named twice once against the limit', async () => {
    const h = await open({ limits: { recipients: 1 } });
    success(await h.send({ to: ['a@example.com', 'A@example.com'], cc: 'a@example.com', subject: 's', body: 'b' }));
  });
});

describe('send_email reports every server fault as a failure', () => {
  it('lists recipients the server refused when others were accepted', async () => {
    server.behaviour.refuseRcpt = (address) =>
      address === 'partner@other.org' ? { code: 550, text: '5.1.1 No such user here' } : undefined;
    const h = await open();
    const output = success(await h.send(message)).output as { accepted: string[]; rejected: { address: string; reason: string }[] };
    expect(output.accepted).toEqual(['alice@example.com', 'carol@example.com']);
    // The server's codes with a fixed explanation; its own words never pass on.
    expect(output.rejected).toEqual([
      { address: 'partner@other.org', reason: '550 5.1.1 (the server has no such mailbox, or does not take mail for it)' },
    ]);
    expect(server.received[0]!.envelope.to.sort()).toEqual(['alice@example.com', 'carol@example.com']);
  });

  it('fails when every recipient is refused, quoting the server', async () => {
    server.behaviour.refuseRcpt = () => ({ code: 550, text: '5.1.1 No such user here' });
    const h = await open();
    const error = failure(await h.send(message));
    expect(error.code).toBe('execution_failed');
    expect(error.message).toContain('550 5.1.1 (the server has no such mailbox, or does not take mail for it)');
    expect(error.message).not.toContain('No such user here');
    expect(error.message).toContain('alice@example.com');
    expect(server.received).toHaveLength(0);
  });

  it('fails on a temporary 451 refusal, saying a later retry may work', async () => {
    server.behaviour.refuseMailFrom = { code: 451, text: '4.3.0 Try again later' };
    const h = await open();
    const error = failure(await h.send(message));
    expect(error.code).toBe('execution_failed');
    expect(error.message).toContain('451 4.3.0 (the server cannot take mail from this sender just now)');
    expect(error.message).toContain('MAIL FROM');
    expect(error.message).toContain('temporary');
  });

  it('fails on a permanent 550 refusal of the message data', async () => {
    server.behaviour.refuseData = { code: 550, text: '5.7.1 Message content rejected' };
    const h = await open();
    const error = failure(await h.send(message));
    expect(error.code).toBe('execution_failed');
    expect(error.message).toContain('550 5.7.1 (the server refused the message content (for example a policy or spam filter))');
    expect(error.message).toContain('permanent');
    expect(server.received).toHaveLength(0);
  });

  it('reports a connection dropped during DATA as in doubt, and a retry does not send again', async () => {
    server.behaviour.dropDuringData = true;
    const h = await open();
    const error = failure(await h.send(message, 'call-dropped'));
    expect(error.code).toBe('execution_failed');
    expect(error.message).toContain('may have been delivered');
    server.behaviour.dropDuringData = false;
    expect(failure(await h.send(message, 'call-dropped')).message).toContain('may have been delivered');
    expect(server.received).toHaveLength(0);
  });

  it('fails when the server answers too slowly', async () => {
    server.behaviour.slowMailFromMs = 5000;
    const h = await open({ timeouts: { socketMs: 200, connectMs: 2000, greetingMs: 2000 } });
    const error = failure(await h.send(message));
    expect(error.code).toBe('execution_failed');
    expect(error.message).toContain('did not answer in time');
    expect(server.received).toHaveLength(0);
  });

  it('fails when nothing listens on the port', async () => {
    const port = await freePort();
    const h = await open({}, port);
    const error = failure(await h.send(message));
    expect(error.code).toBe('execution_failed');
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('send_email sends a retried call once', () => {
  it('returns the first result to a retry with the same call id', async () => {
    const h = await open();
    const first = success(await h.send(message, 'call-1'));
    const again = success(await h.send(message, 'call-1'));
    expect(again.output).toEqual(first.output);
    expect(server.received).toHaveLength(1);
    success(await h.send(message, 'call-2'));
    expect(server.received).toHaveLength(2);
  });

  it('generates one Message-ID per call: the one the ledger records is the one the server received and the result names', async () => {
    const cwd = await makeTempDir();
    const h = await makeHostHarness(options(), env, cwd);
    const outputs = [success(await h.send(message, 'call-mid-1')).output, success(await h.send(message, 'call-mid-2')).output];
    await h.dispose(); // the ledger has every record once its tool is closed
    const ledger = (await readFile(join(cwd, '.toolshed/send-email/calls.jsonl'), 'utf8')).split('\n').filter(Boolean);
    await rm(cwd, { recursive: true, force: true });
    const records = ledger.map((line) => decodeLine(line)).map((d) => (d.kind === 'record' ? d.record : undefined));
    expect(server.received).toHaveLength(2);
    for (const [i, got] of server.received.entries()) {
      const callId = `call-mid-${i + 1}`;
      // Exactly one Message-ID header went out, and it is the ledger's.
      expect(got.raw.match(/^message-id:/gim)).toHaveLength(1);
      const ofCall = records.filter((r) => r?.id === callId);
      expect(ofCall.map((r) => r?.state)).toEqual(['claimed', 'sent']);
      for (const record of ofCall) expect(record?.messageId).toBe(got.mail.messageId);
      expect((outputs[i] as { messageId: string }).messageId).toBe(got.mail.messageId);
    }
    expect(server.received[0]!.mail.messageId).not.toBe(server.received[1]!.mail.messageId);
  });

  it('sends once when retries arrive while the first is still sending', async () => {
    server.behaviour.slowMailFromMs = 100;
    const h = await open();
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => h.send(message, 'call-concurrent')));
    const outputs = outcomes.map((o) => success(o).output);
    expect(new Set(outputs.map((o) => JSON.stringify(o))).size).toBe(1);
    expect(server.received).toHaveLength(1);
  });

  it('refuses a call id reused for a different message', async () => {
    const h = await open();
    success(await h.send(message, 'call-x'));
    const error = failure(await h.send({ ...message, subject: 'Something else' }, 'call-x'));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain('call-x');
    expect(server.received).toHaveLength(1);
  });

  it('remembers a sent call across a restart (a new tool on the same folder)', async () => {
    const cwd = await makeTempDir();
    try {
      const before = await makeHostHarness(options(), env, cwd);
      const first = success(await before.send(message, 'call-restart'));
      await before.dispose();
      harness = await makeHostHarness(options(), env, cwd);
      const again = success(await harness.send(message, 'call-restart'));
      expect(again.output).toEqual(first.output);
      expect(server.received).toHaveLength(1);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it('lets a failed call be retried with the same id once the fault is gone', async () => {
    server.behaviour.refuseMailFrom = { code: 451, text: '4.3.0 Try again later' };
    const h = await open();
    expect(failure(await h.send(message, 'call-retry')).code).toBe('execution_failed');
    server.behaviour.refuseMailFrom = undefined;
    success(await h.send(message, 'call-retry'));
    success(await h.send(message, 'call-retry'));
    expect(server.received).toHaveLength(1);
  });
  it('stops sending when the caller cancels, and lets the same call id be sent later', async () => {
    server.behaviour.slowMailFromMs = 5000;
    const h = await open();
    const controller = new AbortController();
    const pending = h.registry.dispatch({ name: 'send_email', input: message, callId: 'call-cancel' }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    expect(failure(await pending).code).toBe('aborted');
    server.behaviour.slowMailFromMs = undefined;
    // The ledger settles the cancelled attempt as failed; retry until it has.
    let retried = await h.send(message, 'call-cancel');
    for (let i = 0; i < 50 && !retried.ok; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      retried = await h.send(message, 'call-cancel');
    }
    success(retried);
    expect(server.received).toHaveLength(1);
  });

  it('sends nothing when the ledger file cannot be written', async () => {
    const cwd = await makeTempDir();
    try {
      await writeFile(join(cwd, 'blocked'), 'a file where a folder should be');
      harness = await makeHostHarness(options({ ledger: 'blocked/calls.jsonl' }), env, cwd);
      const error = failure(await harness.send(message, 'call-no-ledger'));
      expect(error.code).toBe('execution_failed');
      expect(error.message).toContain('ledger file blocked/calls.jsonl');
      expect(error.message).not.toContain(cwd);
      expect(server.received).toHaveLength(0);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

describe('send_email with a pooled connection', () => {
  it('sends many messages over the pool and closes it', async () => {
    const h = await open({ smtp: { host: '127.0.0.1', port: server.port, user: USER, password: { env: ENV }, pool: true } });
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => h.send({ ...message, subject: `n${i}` })));
    outcomes.forEach(success);
    expect(server.received.map((r) => r.mail.subject).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `n${i}`).sort());
    // One pooled connection logs in once, not once per message.
    expect(server.logins.length).toBeLessThan(8);
  });

  it('fails a message whose pooled connection drops instead of resending it', async () => {
    server.behaviour.dropDuringData = true;
    const h = await open({ smtp: { host: '127.0.0.1', port: server.port, user: USER, password: { env: ENV }, pool: true } });
    const error = failure(await h.send(message));
    expect(error.code).toBe('execution_failed');
    expect(server.logins).toHaveLength(1);
  });
});
