/**
 * What an SMTP reply means, in fixed words. No text an SMTP server sends reaches
 * an outcome, event, transcript or ledger: a server may echo anything, the
 * password included, in any encoding. Only the reply code and the enhanced
 * status code (digits and dots, checked by pattern) are kept, and the
 * explanation comes from this table.
 */

/** The SMTP step a reply answered, as nodemailer names it. */
export type Step = 'CONN' | 'EHLO' | 'AUTH' | 'MAIL FROM' | 'RCPT TO' | 'DATA' | 'other';

export interface Reply {
  /** The three-digit reply code, when the server sent one. */
  code: number | undefined;
  /** The RFC 3463 enhanced status code (e.g. `5.7.8`), when the server sent one. */
  enhanced: string | undefined;
}

/** Read only the codes from a server reply; everything else it says is dropped here. */
export function readReply(response: string | undefined, responseCode?: number): Reply {
  const match = /^(\d{3})[ -](?:([245]\.\d{1,3}\.\d{1,3})(?=[ \r\n]|$))?/.exec(response ?? '');
  const code = match
    ? Number(match[1])
    : responseCode !== undefined && responseCode >= 200 && responseCode < 600
      ? responseCode
      : undefined;
  return { code, enhanced: match?.[2] };
}

export function stepOf(command: string | undefined): Step {
  if (!command) return 'other';
  if (command.startsWith('AUTH')) return 'AUTH';
  if (command === 'CONN' || command === 'EHLO' || command === 'MAIL FROM' || command === 'RCPT TO' || command === 'DATA') return command;
  if (command === 'HELO' || command === 'LHLO') return 'EHLO';
  return 'other';
}

/** `550 5.1.1` or `550` or `no reply code`. */
export function codes(reply: Reply): string {
  if (reply.code === undefined) return 'no reply code';
  return reply.enhanced ? `${reply.code} ${reply.enhanced}` : String(reply.code);
}

/** A fixed explanation of a reply at a step; never the server's words. */
export function explain(step: Step, reply: Reply): string {
  const { code, enhanced } = reply;
  if (code === undefined) return 'the server gave no reply code';
  if (code === 421) return 'the server is closing the connection (service not available)';
  if (code >= 200 && code < 400) return 'the server accepted it';
  const temporary = code < 500;
  switch (step) {
    case 'AUTH':
      if (temporary) return 'the server could not check the login just now';
      if (code === 534 || enhanced === '5.7.9')
        return "the server wants a stronger login method for this account (for example an app password); check the plugin's smtp options";
      if (code === 538 || code === 530) return 'the server wants an encrypted connection (TLS) before a login';
      return "the SMTP server refused the login; check the plugin's smtp.user and smtp.password options";
    case 'MAIL FROM':
      if (code === 530 || enhanced === '5.7.0')
        return "the server wants a login before it takes mail; set smtp.user and a password in the plugin's options";
      if (temporary) return 'the server cannot take mail from this sender just now';
      return "the server refused the sender address (the plugin's from option)";
    case 'RCPT TO':
      if (temporary) return 'the server cannot take mail for this recipient just now';
      if (code === 552 || enhanced === '5.2.2') return "the recipient's mailbox is full";
      if (enhanced?.startsWith('5.7.') || code === 554) return 'the server refused this recipient by its policy';
      return 'the server has no such mailbox, or does not take mail for it';
    case 'DATA':
      if (code === 552 || enhanced === '5.3.4') return 'the message is too large for the server';
      if (temporary) return 'the server cannot take the message just now';
      return 'the server refused the message content (for example a policy or spam filter)';
    case 'CONN':
    case 'EHLO':
      return temporary ? 'the server is not taking connections just now' : 'the server refused the connection';
    default:
      return temporary ? 'the server refused it for now' : 'the server refused it';
  }
}

/** `550 5.1.1 (the server has no such mailbox, …)`: codes and the fixed explanation. */
export function describeReply(step: Step, reply: Reply): string {
  return `${codes(reply)} (${explain(step, reply)})`;
}
