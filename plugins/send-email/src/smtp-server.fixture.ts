import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface Received {
  envelope: { from: string; to: string[] };
  raw: string;
  mail: ParsedMail;
}

/** A reply the test server gives instead of accepting: an SMTP code and text. */
export interface Refusal {
  code: number;
  text: string;
  /** Send the reply over these lines (`550-…`, `550 …`) instead of `text`. */
  lines?: string[];
}

export interface FakeBehaviour {
  auth?: { user: string; pass: string };
  refuseMailFrom?: Refusal;
  refuseRcpt?: (address: string) => Refusal | undefined;
  refuseData?: Refusal;
  /** Close the socket once the message data starts arriving. */
  dropDuringData?: boolean;
  /** Quote the credentials it was sent in its refusal, as a careless server might. */
  echoCredentials?: boolean;
  /** Refuse every login with this reply, built from what the client sent (to echo it in any encoding). */
  authRefusal?: (login: { user: string; pass: string }) => Refusal;
  /** Wait this long before answering MAIL FROM. */
  slowMailFromMs?: number;
  /** Close the connection when RCPT TO arrives: a drop before DATA. */
  dropAtRcpt?: boolean;
  /**
   * After taking a whole message (it counts as received): close the connection without a reply
   * ('drop'), never reply ('silent'), or reply after `delayMs`.
   */
  afterData?: 'drop' | 'silent' | { delayMs: number };
}

export interface TestSmtpServer {
  port: number;
  received: Received[];
  /** Every AUTH attempt the server saw, to prove the credentials arrived. */
  logins: { user: string; pass: string }[];
  behaviour: FakeBehaviour;
  /** Connections made so far. */
  connectionCount(): number;
  close(): Promise<void>;
}

function refusal({ code, text, lines }: Refusal): Error {
  const error = Object.assign(new Error(text), { responseCode: code });
  // smtp-server sends an array as a multi-line reply: the way to split a reply over lines.
  if (lines) (error as { message: unknown }).message = lines;
  return error;
}

/** A real SMTP server (smtp-server) on 127.0.0.1 with a random port. */
export async function startSmtpServer(behaviour: FakeBehaviour = {}): Promise<TestSmtpServer> {
  const received: Received[] = [];
  const logins: { user: string; pass: string }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const options: SMTPServerOptions = {
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    // A reverse DNS lookup per connection would add ~100 ms to every test send.
    disableReverseLookup: true,
    onAuth(auth, _session, callback) {
      logins.push({ user: auth.username ?? '', pass: auth.password ?? '' });
      const expected = state.behaviour.auth;
      const custom = state.behaviour.authRefusal;
      if (custom) return callback(refusal(custom({ user: auth.username ?? '', pass: auth.password ?? '' })));
      if (expected && auth.username === expected.user && auth.password === expected.pass) callback(null, { user: auth.username });
      else if (state.behaviour.echoCredentials) {
        const plain = Buffer.from(`\0${auth.username}\0${auth.password}`).toString('base64');
        callback(refusal({ code: 535, text: `5.7.8 Bad credentials ${auth.password} (${plain})` }));
      } else callback(refusal({ code: 535, text: '5.7.8 Authentication credentials invalid' }));
    },
    onMailFrom(_address, session, callback) {
      if (state.behaviour.auth && !session.user) return callback(refusal({ code: 530, text: '5.7.0 Authentication required' }));
      if (state.behaviour.refuseMailFrom) return callback(refusal(state.behaviour.refuseMailFrom));
      const delay = state.behaviour.slowMailFromMs;
      if (delay) {
        const timer = setTimeout(() => (timers.delete(timer), callback()), delay);
        timers.add(timer);
        return;
      }
      callback();
    },
    onRcptTo(address, session, callback) {
      if (state.behaviour.dropAtRcpt) return dropSession(session.id);
      const refused = state.behaviour.refuseRcpt?.(address.address);
      callback(refused ? refusal(refused) : undefined);
    },
    onData(stream, session, callback) {
      if (state.behaviour.dropDuringData) {
        stream.once('data', () => {
          for (const connection of server.connections) {
            if (connection.session.id === session.id) connection._socket.destroy();
          }
        });
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.behaviour.refuseData) return callback(refusal(state.behaviour.refuseData));
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (mail) => {
            received.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              raw: raw.toString('utf8'),
              mail,
            });
            const after = state.behaviour.afterData;
            if (after === 'drop') return dropSession(session.id);
            if (after === 'silent') return;
            if (after) {
              const timer = setTimeout(() => (timers.delete(timer), callback(null, 'Ok: queued as TEST')), after.delayMs);
              timers.add(timer);
              return;
            }
            callback(null, 'Ok: queued as TEST');
          },
          (error: unknown) => callback(error as Error),
        );
      });
    },
  };
  const dropSession = (id: string) => {
    for (const connection of server.connections) if (connection.session.id === id) connection._socket.destroy();
  };
  let connections = 0;
  const server = new SMTPServer({ ...options, onConnect: (_session, callback) => (connections++, callback()) });
  server.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const state: TestSmtpServer = {
    port: (server.server.address() as AddressInfo).port,
    received,
    logins,
    behaviour,
    connectionCount: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const connection of server.connections) connection._socket.destroy();
        server.close(() => resolve());
      }),
  };
  return state;
}

/** A port on 127.0.0.1 with nothing listening: bind, note the port, release it. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
