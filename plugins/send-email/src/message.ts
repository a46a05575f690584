/** A message as nodemailer takes it, fields already checked. */
export interface Message {
  from: string;
  to: string[];
  cc: string[];
  replyTo: string | undefined;
  subject: string;
  text: string;
  /** Derived from the call id by the ledger (messageIdFor), the one id every attempt of a call carries. */
  messageId: string;
  date: Date;
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
