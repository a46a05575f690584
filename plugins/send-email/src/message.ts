import { randomUUID } from 'node:crypto';

/** A message as nodemailer takes it, fields already checked. */
export interface Message {
  from: string;
  to: string[];
  cc: string[];
  replyTo: string | undefined;
  subject: string;
  text: string;
  messageId: string;
  date: Date;
}

/** A Message-ID in the sender's domain, so the id is known before any transport runs. */
export function newMessageId(from: string): string {
  return `<${randomUUID()}@${from.slice(from.lastIndexOf('@') + 1)}>`;
}

/** Fields in nodemailer's shape; empty optional fields left out so no empty header is written. */
export function mailFields(message: Message) {
  return {
    from: message.from,
    to: message.to,
    ...(message.cc.length > 0 ? { cc: message.cc } : {}),
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    subject: message.subject,
    text: message.text,
    messageId: message.messageId,
    date: message.date,
  };
}
