import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cut, passwordArb, replyLines, simpleForms, spell, spellingArb, splitArb, wordsArb } from './encodings.fixture.js';
import { makeHostHarness } from './harness.fixture.js';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.fixture.js';

// Attack test for "no SMTP server text reaches any output": a real smtp-server echoes the
// password, spelled every way encodings.fixture.ts knows (letter case, one or two encodings,
// split over two reply lines), in its reply to AUTH, MAIL FROM, RCPT TO or DATA. Whatever it
// says, the password in no spelling appears in the outcome, the registry's events and log
// lines (what a transcript is written from), the host's plugin reports, or any file the plugin
// wrote (the ledger). The password comes in the one way there is: an {"env": NAME} reference
// in the options, resolved by the real host.

const USER = 'agent@example.com';
let server: TestSmtpServer;
beforeAll(async () => {
  server = await startSmtpServer();
});
afterAll(async () => {
  await server.close();
});

type Step = 'AUTH' | 'MAIL FROM' | 'RCPT TO' | 'RCPT TO (one of two)' | 'DATA';
const CODES: Record<Step, number> = { AUTH: 535, 'MAIL FROM': 553, 'RCPT TO': 550, 'RCPT TO (one of two)': 550, DATA: 554 };

/** Every file under `dir`, as text. */
async function filesText(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name), 'latin1')));
  return texts.join('\n');
}

/** The reply made from the spelled password, as the test server sends it. */
function echo(step: Step, lines: string[]) {
  return { code: CODES[step], text: lines.join(' '), lines };
}

describe('send_email never reports what an SMTP server says', () => {
  it('keeps the password out of outcomes, events, logs and the ledger, however the server spells it back', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        passwordArb,
        spellingArb,
        wordsArb,
        splitArb,
        fc.constantFrom<Step>('AUTH', 'MAIL FROM', 'RCPT TO', 'RCPT TO (one of two)', 'DATA'),
        async (password, spelling, words, split, step) => {
          const spelled = spell(password, spelling);
          const lines = replyLines(words, spelled, 'rejected', split);
          const reply = echo(step, lines);
          server.behaviour = {
            auth: { user: USER, pass: password },
            ...(step === 'AUTH' ? { authRefusal: () => reply } : {}),
            ...(step === 'MAIL FROM' ? { refuseMailFrom: reply } : {}),
            ...(step === 'RCPT TO' ? { refuseRcpt: () => reply } : {}),
            ...(step === 'RCPT TO (one of two)'
              ? { refuseRcpt: (address: string) => (address === 'bob@example.com' ? reply : undefined) }
              : {}),
            ...(step === 'DATA' ? { refuseData: reply } : {}),
          };
          const harness = await makeHostHarness(
            {
              from: 'bot@example.com',
              smtp: { host: '127.0.0.1', port: server.port, user: USER, password: { env: 'SMTP_PASSWORD' } },
              allow: ['example.com'],
              timeouts: { connectMs: 2000, greetingMs: 2000, socketMs: 2000 },
            },
            { SMTP_PASSWORD: password },
          );
          try {
            const outcome = await harness.send({ to: ['alice@example.com', 'bob@example.com'], subject: 's', body: 'b' }, `leak-${run++}`);
            // The server's reply was received and is reported by its code.
            const reported = outcome.ok ? JSON.stringify(outcome.output) : outcome.error.message;
            expect(outcome.ok).toBe(step === 'RCPT TO (one of two)');
            expect(reported).toContain(String(CODES[step]));

            const said = [harness.transcript(), await filesText(harness.cwd)];
            // The whole spelling, each simple form, and each half of a split spelling long enough
            // (8 characters) not to turn up by chance in the text around it.
            const halves = lines.length === 2 ? [spelled.slice(0, cut(spelled, split)), spelled.slice(cut(spelled, split))] : [];
            const forms = [spelled, ...halves.filter((half) => half.length >= 8), ...simpleForms(password)];
            for (const text of said) for (const form of forms) expect(text).not.toContain(form);
          } finally {
            await harness.dispose();
          }
        },
      ),
      { numRuns: 40 },
    );
    // 40 sends take seconds; the limit is only there to catch a hang on a loaded machine.
  }, 120_000);

  it('is a real test: the same server hands the spelled password to a plain nodemailer client', async () => {
    const password = 'Tr0ub4dor & 3';
    const spelled = spell(password, { letterCase: 'swapped', encoders: ['base64url', 'hexUpper'] });
    const lines = replyLines('Bad credentials', spelled, 'rejected', 0.5);
    server.behaviour = { authRefusal: () => echo('AUTH', lines) };
    const { createTransport } = await import('nodemailer');
    const transport = createTransport({
      host: '127.0.0.1',
      port: server.port,
      secure: false,
      auth: { user: USER, pass: password },
      logger: false,
    });
    const error = (await transport.sendMail({ from: 'bot@example.com', to: 'alice@example.com', text: 'b' }).catch((e: unknown) => e)) as {
      response?: string;
    };
    transport.close();
    expect(error.response).toBe(`535-${lines[0]}\n535 ${lines[1]}`);
  });
});
