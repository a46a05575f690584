import { defineTool, ToolError, type Tool } from '@toolshed/core';
import { isAllowed } from './allow.js';
import { resolveConfig, type SendEmailConfig } from './config.js';
import { CallLedger, messageIdFor } from './ledger.js';
import { openStore } from './stores.js';
import type { Message } from './message.js';
import type { ParsedSendEmailOptions } from './options.js';
import { composeMessage, outboxName, writeToOutbox } from './outbox.js';
import { displayPath, isSafeFileError } from './safe-file.js';
import { SendEmailInput, SendEmailOutput } from './schema.js';
import { SmtpSender } from './smtp.js';
import { dedupeRecipients } from './recipients.js';
import { decodedSubjectProblem } from './subject.js';

export type SendEmailTool = Tool<typeof SendEmailInput, typeof SendEmailOutput> & {
  /** Close pooled SMTP connections and the call ledger file (core's optional `close`, always present here). */
  close(): Promise<void>;
};

const DESCRIPTION =
  'Send a plain-text email. Addresses off the allow list are refused. ' +
  'Without an SMTP server it goes to a local outbox instead, and the result says so.';

/**
 * Make the send_email tool from options its schema has parsed. `cwd` is the base for the
 * default outbox (`.toolshed/outbox/`) and call ledger. Throws, naming the option, when
 * the options do not fit together (see resolveConfig).
 */
export function sendEmailTool(options: ParsedSendEmailOptions, host: { cwd: string }): SendEmailTool {
  const config = resolveConfig(options, host.cwd);
  const smtp = config.smtp ? new SmtpSender(config, config.smtp) : undefined;
  const ledger = new CallLedger<SendEmailOutput>(openStore(config.ledger, config.cwd), (callId) => messageIdFor(config.from, callId));

  return defineTool({
    name: 'send_email',
    description: DESCRIPTION,
    input: SendEmailInput,
    output: SendEmailOutput,
    annotations: { title: 'Send email', destructive: true, openWorld: true, idempotent: false },
    run: async (input, ctx) => {
      const checked = await checkMessage(config, input);
      // The Message-ID comes from the call id, so every attempt of a call carries the same one.
      const send = async (messageId: string) => {
        if (ctx.signal.aborted) throw new ToolError('execution_failed', 'send_email was cancelled before sending; nothing was sent.');
        const message = { ...checked, messageId };
        if (smtp) return smtp.send(message, ctx.signal);
        return deliverToOutbox(config, message);
      };
      return ledger.run(ctx.callId, input, send, ctx.signal);
    },
    // Core's Tool contract: the host calls close() once when it closes.
    close: async () => void (await Promise.all([smtp?.close(), ledger.close()])),
  }) as SendEmailTool;
}

/** Limits, the subject and the allow list, checked before anything is sent. The Message-ID comes later, from the ledger. */
async function checkMessage(config: SendEmailConfig, input: SendEmailInput): Promise<Omit<Message, 'messageId'>> {
  // Case variants of one address are one recipient: counted once, one RCPT TO.
  const { to, cc } = dedupeRecipients([input.to].flat(), [input.cc ?? []].flat());
  const { recipients, subjectChars, bodyChars } = config.limits;
  const tooLong = (field: string, length: number, limit: number, unit: string) =>
    new ToolError(
      'invalid_input',
      `Invalid input for send_email.${field}: ${length} ${unit}, more than the limit of ${limit}. Nothing was sent; shorten it and try again.`,
      { issues: [{ path: [field], at: `send_email.${field}`, message: `${length} ${unit}, more than the limit of ${limit}` }] },
    );
  if (to.length + cc.length > recipients) throw tooLong('to', to.length + cc.length, recipients, 'recipients (to and cc together)');
  if (input.subject.length > subjectChars) throw tooLong('subject', input.subject.length, subjectChars, 'characters');
  if (input.body.length > bodyChars) throw tooLong('body', input.body.length, bodyChars, 'characters');
  const subjectProblem = await decodedSubjectProblem(input.subject);
  if (subjectProblem) {
    throw new ToolError(
      'invalid_input',
      `Invalid input for send_email.subject: ${subjectProblem}. Nothing was sent; write the subject as plain text on one line.`,
      {
        issues: [{ path: ['subject'], at: 'send_email.subject', message: subjectProblem }],
      },
    );
  }

  if (config.allow || config.smtp) {
    const refused = [...to, ...cc].filter((address) => !config.allow || !isAllowed(config.allow, address));
    if (refused.length > 0) {
      const names = [...new Set(refused)].join(', ');
      throw new ToolError(
        'denied',
        `send_email may not send to ${names}: ${refused.length === 1 ? 'it is' : 'they are'} not on the allowed recipients list. ` +
          `Nothing was sent. Remove ${refused.length === 1 ? 'that recipient' : 'those recipients'}, or ask the user to allow ${refused.length === 1 ? 'it' : 'them'}.`,
      );
    }
    // Replies go where replyTo says: the same list decides where they may go.
    if (input.replyTo && (!config.allow || !isAllowed(config.allow, input.replyTo))) {
      throw new ToolError(
        'denied',
        `send_email may not use ${input.replyTo} as replyTo: it is not on the allowed recipients list, and replies would go to it. ` +
          `Nothing was sent. Leave replyTo out, use an allowed address, or ask the user to allow it.`,
      );
    }
  }
  return {
    from: config.from,
    to,
    cc,
    replyTo: input.replyTo,
    subject: input.subject,
    text: input.body,
    date: new Date(),
  };
}

async function deliverToOutbox(config: SendEmailConfig, message: Message): Promise<SendEmailOutput> {
  const raw = await composeMessage(message);
  let file: string;
  try {
    // Relative to the project: the model needs to name the file, not learn the host's folders.
    file = await writeToOutbox(config.cwd, config.outboxDir, outboxName(message.date), raw);
  } catch (error) {
    throw outboxError(config, error);
  }
  return {
    messageId: message.messageId,
    accepted: [...new Set([...message.to, ...message.cc])],
    rejected: [],
    delivery: { via: 'outbox', file },
  };
}

/** What went wrong with the outbox, naming paths relative to the project root only. */
function outboxError(config: SendEmailConfig, error: unknown): ToolError {
  const folder = JSON.stringify(displayPath(config.cwd, config.outboxDir));
  const start = `send_email could not write to the outbox folder ${folder}`;
  if (!isSafeFileError(error)) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    return new ToolError('execution_failed', `${start} (${code}). Nothing was saved; check that the folder is writable.`);
  }
  const { problem } = error;
  const fix =
    problem.kind === 'symlink' || problem.kind === 'outside' || problem.kind === 'moved' || problem.kind === 'hard_link'
      ? 'The outbox is written only inside the project root and never through a symbolic link: ask the user to replace the link with a real folder, or to set the outbox option to a folder inside the project.'
      : problem.kind === 'io'
        ? 'Check that the folder is writable.'
        : 'Ask the user to move it away or set the outbox option to another folder inside the project.';
  return new ToolError('execution_failed', `${start}: ${error.message}. Nothing was saved. ${fix}`);
}
