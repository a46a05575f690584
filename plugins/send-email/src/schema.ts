import * as v from 'valibot';

// One header line: no CR, LF or other control characters (tab allowed), no C1 controls
// (NEL among them) and no Unicode line or paragraph separator, so no field can end its
// header and start another, nor look as if it did. Checked at dispatch (v.check) rather than
// sent as a JSON Schema pattern: the model reads "one line", which costs a few tokens where the
// character class cost forty in every request. Encoded-words (=?UTF-8?Q?...?=) are decoded and
// checked in the handler.
const ONE_LINE = /^[^\u0000-\u0008\u000A-\u001F\u007F-\u009F\u2028\u2029]*$/;

// RFC 5321: a path holds at most 254 characters of address, and a local part at most 64.
// Only `format: "email"` goes into the schema (to, cc, their lists, replyTo); the
// lengths are checked at dispatch with the same messages, and no address repeats an example.
const Address = v.pipe(
  v.string(),
  v.check((address) => address.length <= 254, 'expected an email address of at most 254 characters'),
  v.email('expected a plain email address like alice@example.com (no display name, no line breaks)'),
  v.check((address) => /^[^@]{1,64}@/.test(address), 'expected at most 64 characters before the @ of an email address'),
);

const Addresses = v.union([
  Address,
  v.pipe(
    v.array(Address),
    v.check((list) => list.length > 0, 'expected at least one address'),
  ),
]);

export const SendEmailInput = v.strictObject({
  to: Addresses,
  cc: v.optional(Addresses),
  subject: v.pipe(
    v.string(),
    v.check((subject) => ONE_LINE.test(subject), 'expected a single line: line breaks and control characters are not allowed in a subject'),
    v.description('One line.'),
  ),
  body: v.string(),
  replyTo: v.optional(Address),
});

export type SendEmailInput = v.InferOutput<typeof SendEmailInput>;

const Delivery = v.variant('via', [
  v.object({
    via: v.literal('smtp'),
    host: v.string(),
    port: v.number(),
    response: v.pipe(v.string(), v.description('Reply code, fixed wording.')),
  }),
  v.object({
    via: v.literal('outbox'),
    file: v.pipe(v.string(), v.description('The .eml written instead of sending.')),
  }),
]);

export const SendEmailOutput = v.object({
  messageId: v.string(),
  accepted: v.array(v.string()),
  rejected: v.pipe(v.array(v.object({ address: v.string(), reason: v.string() })), v.description('Reason: reply code, fixed wording.')),
  delivery: Delivery,
});

export type SendEmailOutput = v.InferOutput<typeof SendEmailOutput>;
