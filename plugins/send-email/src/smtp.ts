import { ToolError } from '@toolshed/core';
import type { SendEmailConfig } from './config.js';
import type { SmtpConfig } from './smtp-option.js';
import { mailFields, type Message } from './message.js';
import { describeReply, readReply, stepOf } from './replies.js';
import type { SendEmailOutput } from './schema.js';
import { dataStarted, inDoubt, WATCH, watchData, type DataWatch } from './data-watch.js';
import { sandboxProxy } from './sandbox-proxy.js';

type Transporter = import('nodemailer').Transporter;

interface SmtpFault {
  code?: string;
  /** The system or TLS error's own code, when nodemailer put its own (ESOCKET) in `code`. */
  originalCode?: string;
  message?: string;
  response?: string;
  responseCode?: number;
  command?: string;
  timeoutType?: string;
  recipient?: string;
  rejectedErrors?: SmtpFault[];
}

/** One nodemailer transport per tool, made on the first send (nodemailer is slow to import). */
export class SmtpSender {
  readonly #config: SendEmailConfig;
  readonly #smtp: SmtpConfig;
  #transport: Promise<Transporter> | undefined;

  constructor(config: SendEmailConfig, smtp: SmtpConfig) {
    this.#config = config;
    this.#smtp = smtp;
  }

  get where(): string {
    return `${this.#smtp.host}:${this.#smtp.port}`;
  }

  async send(message: Message, signal: AbortSignal): Promise<SendEmailOutput> {
    const transport = await (this.#transport ??= this.#createTransport());
    let info: { accepted?: unknown[]; rejected?: unknown[]; rejectedErrors?: SmtpFault[]; response?: string };
    const watch: DataWatch = {};
    // The caller may cancel only until the content goes out: after that, only the server's
    // final reply tells sent from not sent, so the send runs on (bounded by timeouts.socketMs)
    // and the ledger learns the outcome a retry will get.
    const cancel = new AbortController();
    const onAbort = () => {
      if (!dataStarted(watch)) cancel.abort(signal.reason);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    try {
      info = await transport.sendMail({ ...mailFields(message), signal: cancel.signal, [WATCH]: watch } as Parameters<
        Transporter['sendMail']
      >[0]);
    } catch (error) {
      // A refusal after the content is a final reply: the server did not keep the message.
      const refused = (error as SmtpFault).code === 'EMESSAGE' && (error as SmtpFault).responseCode !== undefined;
      if (dataStarted(watch) && !refused) throw inDoubt(error as SmtpFault);
      throw this.#fault(error as SmtpFault, cancel.signal);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    // The server's words never pass on (they may echo a secret): its codes and a fixed explanation do.
    const reasons = new Map(
      (info.rejectedErrors ?? []).map((e) => [e.recipient, describeReply('RCPT TO', readReply(e.response, e.responseCode))]),
    );
    const accepted = (info.accepted ?? []).map(String);
    const rejected = (info.rejected ?? []).map(String).map((address) => ({
      address,
      reason: reasons.get(address) ?? 'refused by the server',
    }));
    if (accepted.length === 0) {
      // nodemailer reports this as an error itself; never let it pass as a success.
      throw new ToolError('execution_failed', `send_email: the SMTP server at ${this.where} accepted no recipient; nothing was delivered.`);
    }
    return {
      messageId: message.messageId,
      accepted,
      rejected,
      delivery: { via: 'smtp', host: this.#smtp.host, port: this.#smtp.port, response: describeReply('DATA', readReply(info.response)) },
    };
  }

  /** Close pooled connections so the process can exit. */
  async close(): Promise<void> {
    const transport = this.#transport;
    this.#transport = undefined;
    if (transport) (await transport).close();
  }

  async #createTransport(): Promise<Transporter> {
    const { createTransport } = await import('nodemailer');
    const { host, port, secure, user, password, pool } = this.#smtp;
    const { connectMs, greetingMs, socketMs } = this.#config.timeouts;
    const common = {
      host,
      port,
      secure,
      ...(user !== undefined ? { auth: { user, pass: password ?? '' } } : {}),
      connectionTimeout: connectMs,
      greetingTimeout: greetingMs,
      socketTimeout: socketMs,
      logger: false,
      // Run isolated, the sandbox lets SMTP out only through its proxy (HTTP CONNECT, which nodemailer speaks).
      ...(sandboxProxy() ? { proxy: sandboxProxy() } : {}),
    };
    // A pooled connection that drops mid-message must fail the call, not quietly resend
    // it on a new connection: the server may have taken the first copy.
    const transport = pool ? createTransport({ ...common, pool: true, maxRequeues: 0 }) : createTransport(common);
    transport.use('stream', watchData);
    return transport;
  }

  #fault(error: SmtpFault, signal: AbortSignal): Error {
    if (signal.aborted)
      return new ToolError('execution_failed', 'send_email was cancelled before the message content was sent; nothing was delivered.');
    const at = `the SMTP server at ${this.where}`;
    // Only the reply's codes and a fixed explanation are shown; nodemailer appends the server's
    // words to error.message whenever there was a reply. Without a reply the message is not
    // shown either: a TLS error's names the server's certificate (its CN and altnames), which
    // the server chose. Its codes and a fixed explanation stand in for it.
    const said =
      error.response || error.responseCode
        ? describeReply(stepOf(error.command), readReply(error.response, error.responseCode))
        : undefined;
    const local = describeLocal(error);
    const step = error.command ? ` to ${error.command.replace(/^AUTH .*/, 'AUTH')}` : '';
    let message: string;
    switch (error.code) {
      case 'ECONNECTION':
      case 'ESOCKET':
      case 'EDNS':
        message = said
          ? `${at} closed the connection (reply${step}: ${said}). The message was not delivered.`
          : `the connection to ${at} failed: ${local}. ` +
            `The message was not confirmed as delivered. Check that the server is running and reachable, or retry later.`;
        break;
      case 'ETIMEDOUT':
        message = `${at} did not answer in time (${describeTimeout(error.timeoutType)}). The message content was never sent, so nothing was delivered; retrying later may work.`;
        break;
      case 'EAUTH':
        message = said
          ? `${at} refused the login with ${said}. Nothing was sent.`
          : `the login at ${at} failed: ${local}. Nothing was sent. Check smtp.user and the password in the plugin options.`;
        break;
      case 'EENVELOPE':
      case 'EMESSAGE':
      case 'EPROTOCOL':
        message = `${at} refused the message (reply${step}: ${said ?? local}). ${advice(error.responseCode)}`;
        break;
      default:
        message = `sending through ${at} failed: ${said ?? local}. The message was not confirmed as delivered.`;
    }
    const rejected = (error.rejectedErrors ?? []).filter((e) => e.recipient && e.response);
    if (rejected.length > 0) {
      message += ` Refused recipients: ${rejected.map((e) => `${e.recipient} ${describeReply('RCPT TO', readReply(e.response, e.responseCode))}`).join(', ')}.`;
    }
    return new ToolError('execution_failed', `send_email: ${message}`);
  }
}

/** What a failure without a reply was, in fixed words: codes that look like codes, and their meaning. */
const LOCAL_MEANING: Record<string, string> = {
  ECONNREFUSED: 'nothing accepted a connection at that host and port',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed while writing',
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be looked up just now',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  CERT_NOT_YET_VALID: "the server's TLS certificate is not valid yet",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed, so it is not trusted",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's TLS certificate chain ends in a self-signed certificate that is not trusted",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate is not signed by a trusted authority",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "the server's TLS certificate is not signed by a trusted authority",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is not for this host name (check smtp.host)",
  ERR_SSL_WRONG_VERSION_NUMBER: 'the server did not speak TLS where TLS was expected (check smtp.secure and the port)',
  ETLS: 'the TLS connection could not be set up',
  EDNS: 'the host name could not be resolved',
  EAUTH: 'the login could not be made (no reply from the server)',
};

function describeLocal(error: SmtpFault): string {
  const codes = [error.code, error.originalCode].filter(
    (code, i, all): code is string => typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) && all.indexOf(code) === i,
  );
  const meaning = [...codes]
    .reverse()
    .map((code) => LOCAL_MEANING[code])
    .find(Boolean);
  const named = codes.length > 0 ? codes.join(' ') : 'no error code';
  return `${named} (${meaning ?? 'the connection failed'})`;
}

function advice(code: number | undefined): string {
  if (code !== undefined && code >= 400 && code < 500)
    return 'Nothing was delivered; this is a temporary refusal, so retrying later may work.';
  if (code !== undefined && code >= 500) return 'Nothing was delivered; this is a permanent refusal, so do not retry it unchanged.';
  return 'Nothing was delivered.';
}

function describeTimeout(type: string | undefined): string {
  switch (type) {
    case 'CONNECT_TIMEOUT':
      return 'connecting timed out';
    case 'GREETING_TIMEOUT':
      return 'no greeting after connecting';
    case 'UPGRADE_TIMEOUT':
      return 'the TLS upgrade timed out';
    default:
      return 'the server stopped replying mid-conversation';
  }
}
