import * as v from 'valibot';

// One header line: no CR, LF or other control characters (tab allowed), no C1 controls
// (NEL among them) and no Unicode line or paragraph separator, so no field can end its
// header and start another, nor look as if it did. A regex keeps the rule in the JSON
// Schema a model sees; encoded-words (=?UTF-8?Q?...?=) are decoded and checked in the handler.
const ONE_LINE = /^[^\u0000-\u0008\u000A-\u001F\u007F-\u009F\u2028\u2029]*$/;

// RFC 5321: a path holds at most 254 characters of address, and a local part at most 64.
const Address = v.pipe(
  v.string(),
  v.maxLength(254, 'expected an email address of at most 254 characters'),
  v.email('expected a plain email address like alice@example.com (no display name, no line breaks)'),
  v.regex(/^[^@]{1,64}@/, 'expected at most 64 characters before the @ of an email address'),
  v.description('An email address like alice@example.com.'),
);

const Addresses = v.union([Address, v.pipe(v.array(Address), v.minLength(1, 'expected at least one address'))]);

export const SendEmailInput = v.strictObject({
  to: v.pipe(Addresses, v.description('Recipient address, or a list of them.')),
  cc: v.optional(v.pipe(Addresses, v.description('Addresses to copy, or a list of them.'))),
  subject: v.pipe(
    v.string(),
    v.regex(ONE_LINE, 'expected a single line: line breaks and control characters are not allowed in a subject'),
    v.description('The subject line (one line).'),
  ),
  body: v.pipe(v.string(), v.description('The message body, plain text.')),
  replyTo: v.optional(v.pipe(Address, v.description('Address replies should go to, if not the sender.'))),
});

export type SendEmailInput = v.InferOutput<typeof SendEmailInput>;

const Delivery = v.variant('via', [
  v.object({
    via: v.literal('smtp'),
    host: v.pipe(v.string(), v.description('The SMTP server that accepted the message.')),
    port: v.number(),
    response: v.pipe(v.string(), v.description("The final reply's code with a fixed explanation (not the server's own words).")),
  }),
  v.object({
    via: v.literal('outbox'),
    file: v.pipe(v.string(), v.description('The .eml file the message was written to (not sent), relative to the project root.')),
  }),
]);

export const SendEmailOutput = v.object({
  messageId: v.string(),
  accepted: v.pipe(v.array(v.string()), v.description('Recipients the message was accepted for.')),
  rejected: v.pipe(
    v.array(v.object({ address: v.string(), reason: v.string() })),
    v.description("Recipients the server refused, each with the reply's code and a fixed explanation. Empty when all were accepted."),
  ),
  delivery: Delivery,
});

export type SendEmailOutput = v.InferOutput<typeof SendEmailOutput>;
