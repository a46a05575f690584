import { rm } from 'node:fs/promises';
import path from 'node:path';
import { expectConformance } from '@toolshed/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTempDir } from './harness.fixture.js';
import plugin from './index.js';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.fixture.js';

let server: TestSmtpServer;
let dir: string;
beforeAll(async () => {
  server = await startSmtpServer();
  dir = await makeTempDir();
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

it('passes the Toolshed conformance checks, sending through a real SMTP server', async () => {
  const samples = [
    { to: 'alice@example.com', subject: 'Conformance', body: 'Hello from the conformance checks.' },
    {
      to: ['alice@example.com', 'bob@example.com'],
      cc: 'carol@example.com',
      subject: 'Two',
      body: 'Hi both.',
      replyTo: 'dave@example.com',
    },
  ];
  await expectConformance(plugin, {
    cwd: dir,
    options: {
      from: 'agent@example.com',
      smtp: { host: '127.0.0.1', port: server.port },
      allow: ['example.com'],
      ledger: path.join(dir, 'calls.jsonl'),
    },
    samples: { send_email: samples },
  });
  // Each sample was sent twice (output check, abort check; the abort may stop the second);
  // none of the generated invalid inputs reached the server.
  expect(server.received.length).toBeGreaterThanOrEqual(samples.length);
  expect(server.received.length).toBeLessThanOrEqual(samples.length * 2);
});
