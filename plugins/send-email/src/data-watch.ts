import { DeliveryInDoubt } from './in-doubt.js';

/**
 * Whether a message's content began to go out over SMTP. nodemailer does not say
 * which step a send failed in, but it pipes the message stream into the
 * connection only after the server answered DATA with 354: the stream having
 * been read is the line between "nothing reached the server" and "the server
 * may have the message".
 */
export interface DataWatch {
  stream?: { readableDidRead?: boolean };
}

/** The sendMail field that carries a DataWatch to the plugin below. */
export const WATCH = 'toolshedDataWatch';

interface MailWithWatch {
  data: { [WATCH]?: DataWatch };
  message: { createReadStream(...args: unknown[]): { readableDidRead?: boolean } };
}

/** A nodemailer 'stream' plugin: note the message stream each send hands to its connection. */
export function watchData(sent: { data: unknown; message: unknown }, done: (error?: Error | null) => void): void {
  const mail = sent as MailWithWatch;
  const watch = mail.data[WATCH];
  if (watch) {
    const create = mail.message.createReadStream;
    mail.message.createReadStream = function (this: unknown, ...args: unknown[]) {
      const stream = create.apply(this, args);
      watch.stream = stream;
      return stream;
    };
  }
  done();
}

export function dataStarted(watch: DataWatch): boolean {
  return watch.stream?.readableDidRead === true;
}

/** The in-doubt error for a send that failed after its content went out. */
export function inDoubt(error: { code?: string }): DeliveryInDoubt {
  if (error.code === 'ETIMEDOUT') {
    return new DeliveryInDoubt('no_final_reply', 'the server received the message content but gave no final reply in time');
  }
  return new DeliveryInDoubt(
    'connection_closed',
    'the connection ended after the message content was sent, before the server’s final reply',
  );
}
