import type { Outcome } from '@toolshed/core';

export interface ResultOptions {
  /**
   * Most characters of one call's result sent back to the model (default 30000).
   * Longer results are cut, with a note saying so. `Infinity` sends everything.
   */
  maxChars?: number;
  /**
   * Most decoded bytes of one content part (an image, audio, a file) sent inline. Above it the
   * part is named in a note instead. Default: the API's own limit (Anthropic 5 MB, others 20 MB).
   */
  maxPartBytes?: number;
}

export const DEFAULT_MAX_CHARS = 30_000;
/** Room for the truncation note, so a capped result never exceeds the cap. */
const MIN_MAX_CHARS = 200;

/** A cap as given: Infinity, or a whole number of at least `min`; `rule` says so in the error. */
function checkCap(name: string, cap: number, min: number, rule: string): number {
  if (cap === Infinity || (Number.isInteger(cap) && cap >= min)) return cap;
  throw new RangeError(`${name} must be ${rule} (or Infinity), got ${String(cap)}.`);
}

export function checkMaxChars(options: ResultOptions | undefined): number {
  const rule = `a whole number of characters, at least ${MIN_MAX_CHARS}`;
  return checkCap('maxChars', options?.maxChars ?? DEFAULT_MAX_CHARS, MIN_MAX_CHARS, rule);
}

/** The per-part byte cap an adapter applies: the caller's, else the API's own limit. */
export function checkMaxPartBytes(options: ResultOptions | undefined, apiLimit: number): number {
  return checkCap('maxPartBytes', options?.maxPartBytes ?? apiLimit, 0, 'a whole number of bytes');
}

function truncationNote(kept: number, total: number): string {
  return (
    `\n[Truncated: showing the first ${kept} of ${total} characters. ` +
    'Ask for less (a narrower range, a filter or a smaller page) to see the rest.]'
  );
}

/**
 * Cut text to at most maxChars (default 30000), the note included, never
 * splitting a surrogate pair. Every path to a model uses this one cap.
 */
export function capText(text: string, maxChars: number = DEFAULT_MAX_CHARS): string {
  if (text.length <= maxChars) return text;
  checkMaxChars({ maxChars });
  const room = maxChars - truncationNote(text.length, text.length).length;
  let kept = room;
  const code = text.charCodeAt(kept - 1);
  if (code >= 0xd800 && code <= 0xdbff) kept -= 1;
  return text.slice(0, kept) + truncationNote(kept, text.length);
}

/**
 * What a model reads when JSON cannot write a tool's output (a cycle, a BigInt, nesting deeper
 * than the stack): the tool's fault, said in place of its result, so no result list throws.
 */
export function unwritableOutputMessage(name: string, error: unknown): string {
  // V8 explains a cycle over several lines; the first says enough.
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  return `${name} returned output that cannot be sent as JSON (${reason}). This is a fault in the tool, not in your call.`;
}

/** A tool's output as text: strings as they are, anything else as JSON (which may throw; see unwritableOutputMessage). */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined) return '';
  return JSON.stringify(output) ?? '';
}

/**
 * The output as it is when its text fits the cap, else its text cut to the cap
 * with the note: for APIs that take structured results (the AI SDK, Gemini).
 */
export function capOutput(output: unknown, maxChars: number = DEFAULT_MAX_CHARS): unknown {
  if (maxChars === Infinity) return output;
  checkMaxChars({ maxChars });
  const text = outputText(output);
  return text.length > maxChars ? capText(text, maxChars) : output;
}

/**
 * The output for an API that takes structured results (capOutput), or, when JSON cannot write
 * it, the message a model reads in its place: one answer for the AI SDK and Gemini alike.
 */
export function structuredOutput(
  name: string,
  output: unknown,
  maxChars: number,
): { ok: true; output: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, output: capOutput(output, maxChars) };
  } catch (error) {
    return { ok: false, message: capText(unwritableOutputMessage(name, error), maxChars) };
  }
}

/**
 * Said for a call that returned nothing: some APIs refuse an empty result
 * (Anthropic's tool_result), and a model reads silence as a fault.
 */
export function emptyResultText(name: string): string {
  return `${name} finished and returned no output.`;
}

/** What the model reads for one outcome: the output, or the error with its code. */
export function outcomeText(outcome: Outcome, maxChars: number): string {
  if (!outcome.ok) return capText(`Error (${outcome.error.code}): ${outcome.error.message}`, maxChars);
  let text: string;
  try {
    text = outputText(outcome.output) || emptyResultText(outcome.name);
  } catch (error) {
    text = `Error (invalid_output): ${unwritableOutputMessage(outcome.name, error)}`;
  }
  return capText(text, maxChars);
}
