import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTransport } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FailureOutcome } from '@toolshed/core';
import { runChild } from './child-sender.fixture.js';
import { makeHarness, makeTempDir } from './harness.fixture.js';

// A server's TLS certificate names are the server's words too: a TLS error's message quotes
// them (CN and altnames). The marker stands for anything a server could put there.
const MARKER = 'leakmark7q';
const run = promisify(execFile);
let certs: string;
const servers: SMTPServer[] = [];

async function openssl(...args: string[]): Promise<void> {
  await run('openssl', args, { cwd: certs });
}

/** An SMTP server speaking implicit TLS with this key and certificate, on 127.0.0.1. */
async function tlsServer(name: string): Promise<number> {
  const server = new SMTPServer({
    secure: true,
    key: await readFile(join(certs, `${name}.key`)),
    cert: await readFile(join(certs, `${name}.crt`)),
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      stream.on('end', () => callback(null));
      stream.resume();
    },
  });
  server.on('error', () => {});
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.server.address() as AddressInfo).port;
}

beforeAll(async () => {
  certs = await makeTempDir();
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  // A CA the child process trusts, and a certificate from it whose names carry the marker.
  await openssl('req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.crt', '-subj', '/CN=Toolshed test CA', '-days', '2');
  await openssl('req', ...key, '-keyout', 'named.key', '-out', 'named.csr', '-subj', `/CN=${MARKER}.cn.test`);
  await writeFile(join(certs, 'san.ext'), `subjectAltName=DNS:${MARKER}.alt.test\n`);
  await openssl(
    'x509',
    '-req',
    '-in',
    'named.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'named.crt',
    '-days',
    '2',
    '-extfile',
    'san.ext',
  );
  // A self-signed certificate with the marker as its CN.
  await openssl('req', '-x509', ...key, '-keyout', 'self.key', '-out', 'self.crt', '-subj', `/CN=${MARKER}.self.test`, '-days', '2');
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  await rm(certs, { recursive: true, force: true });
});

const input = { to: 'alice@example.com', subject: 'hi', body: 'hello' };

it('the same server hands its certificate names to a plain nodemailer client in the error message (the marker is really there)', async () => {
  const port = await tlsServer('named');
  const transport = createTransport({ host: 'localhost', port, secure: true, tls: { ca: await readFile(join(certs, 'ca.crt')) } });
  const error = await transport.sendMail({ from: 'bot@example.com', to: 'alice@example.com', text: 'x' }).then(
    () => expect.fail('expected a TLS error'),
    (e: Error & { code?: string }) => e,
  );
  transport.close();
  expect(error.message).toContain(MARKER);
});

it('a certificate for another name (the process trusts its CA): the outcome and the ledger give ERR_TLS_CERT_ALTNAME_INVALID and a fixed explanation, never the names', async () => {
  const port = await tlsServer('named');
  const cwd = await makeTempDir();
  try {
    const child = runChild({
      cwd,
      env: { NODE_EXTRA_CA_CERTS: join(certs, 'ca.crt') },
      options: { from: 'bot@example.com', smtp: { host: 'localhost', port, secure: true }, allow: ['example.com'] },
      calls: [
        { callId: 'tls-1', input },
        { callId: 'tls-1', input },
      ],
    });
    const outcomes = await child.outcomes;
    expect(outcomes).toHaveLength(2);
    const error = (outcomes[0] as FailureOutcome).error;
    expect(error.code).toBe('execution_failed');
    expect(error.message).toContain('ESOCKET ERR_TLS_CERT_ALTNAME_INVALID');
    expect(error.message).toContain("the server's TLS certificate is not for this host name");
    expect(JSON.stringify(outcomes).toLowerCase()).not.toContain(MARKER);
    const ledger = await readFile(join(cwd, '.toolshed/send-email/calls.jsonl'), 'utf8');
    expect(ledger).toContain('"state":"failed"');
    expect(ledger.toLowerCase()).not.toContain(MARKER);
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
});

it('a self-signed certificate: the outcome and the ledger give its code and a fixed explanation, never its names', async () => {
  const port = await tlsServer('self');
  const h = await makeHarness({ from: 'bot@example.com', smtp: { host: '127.0.0.1', port, secure: true }, allow: ['example.com'] });
  const outcome = await h.send(input, 'tls-self');
  const transcript = h.transcript();
  // A failed attempt's record is written before its outcome is returned.
  const ledger = await readFile(join(h.cwd, '.toolshed/send-email/calls.jsonl'), 'utf8');
  await h.dispose();
  const error = (outcome as FailureOutcome).error;
  expect(error.code).toBe('execution_failed');
  expect(error.message).toContain('ESOCKET DEPTH_ZERO_SELF_SIGNED_CERT');
  expect(error.message).toContain("the server's TLS certificate is self-signed");
  expect(transcript.toLowerCase()).not.toContain(MARKER);
  expect(ledger.toLowerCase()).not.toContain(MARKER);
});
