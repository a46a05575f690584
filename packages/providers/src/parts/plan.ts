import {
  type ContentPart,
  essence,
  type InlinePart,
  isInlinePart,
  isTextFilePart,
  type LinkedPart,
  partBytes,
  type SuccessOutcome,
  type TextFilePart,
} from '@toolshed/core';
import { partIssueNotes } from '../part-notes.js';

/** What one model API takes in a tool result, said once per adapter. */
export interface PartRules {
  /** The API's name as a model reads it in a note. */
  api: string;
  /** Why the API cannot take this inline part, or undefined when it can. */
  refuses(part: InlinePart, mime: string): string | undefined;
  /** Most decoded bytes of one part the API takes. */
  maxPartBytes: number;
}

/** A part as an adapter sends it: bytes in the API's own block, or text in place of what it cannot take. */
export type PlannedPart = { kind: 'inline'; part: InlinePart; mime: string } | { kind: 'text'; text: string };

/**
 * Each part of a success, in order, as the adapter will send it, then a note for any part the
 * registry left out. A part the API cannot take, or one over its cap, becomes a note saying what
 * it was and why it is not shown: never base64 as text, never dropped unsaid.
 */
export function planParts(outcome: SuccessOutcome, rules: PartRules): PlannedPart[] {
  const planned: PlannedPart[] = (outcome.parts ?? []).map((part, index) => planPart(outcome.name, part, index, rules));
  const notes = partIssueNotes(outcome);
  if (notes !== undefined) planned.push({ kind: 'text', text: notes });
  return planned;
}

function planPart(tool: string, part: ContentPart, index: number, rules: PartRules): PlannedPart {
  if (isTextFilePart(part)) return { kind: 'text', text: fileText(part) };
  if (!isInlinePart(part)) return { kind: 'text', text: linkText(part) };
  const what = describe(tool, part, index);
  const mime = essence(part.mimeType);
  const bytes = partBytes(part);
  if (bytes > rules.maxPartBytes) {
    return {
      kind: 'text',
      text: `[${what} was not sent: ${rules.api} takes at most ${rules.maxPartBytes} bytes per part. Ask the tool for a smaller one (a crop, a lower resolution, fewer pages).]`,
    };
  }
  const refusal = rules.refuses(part, mime);
  if (refusal !== undefined)
    return { kind: 'text', text: `[${what} was not sent: ${refusal}. Ask for it in another form if you need its content.]` };
  return { kind: 'inline', part, mime };
}

function describe(tool: string, part: InlinePart, index: number): string {
  const name = part.name ?? part.uri;
  return `Part ${index} of ${tool}'s result (${part.type}, ${essence(part.mimeType)}, ${partBytes(part)} bytes${name === undefined ? '' : `, ${name}`})`;
}

function fileText(part: TextFilePart): string {
  const label = part.name ?? part.uri;
  return `[File${label === undefined ? '' : ` ${label}`} (${essence(part.mimeType)}):]\n${part.text}`;
}

const ARTICLED = { image: 'An image', audio: 'Audio', file: 'A file' } as const;

function linkText(part: LinkedPart): string {
  const said = [part.name, part.mimeType, part.description].filter((text) => text !== undefined).join(', ');
  return `[${ARTICLED[part.type]} is at ${part.uri}${said === '' ? '' : ` (${said})`}; it was not sent inline.]`;
}

/** The part's bytes as a `data:` URL, as the OpenAI APIs take them. */
export function dataUrl(part: InlinePart, mime: string): string {
  return `data:${mime};base64,${part.data}`;
}

/** A file name for APIs that want one: the part's name, else the last segment of its URI, else one from its index and type. */
export function fileNameOf(part: InlinePart, fallback: string): string {
  if (part.name !== undefined) return part.name;
  const last = part.uri?.split(/[/\\]/).pop();
  return last !== undefined && last !== '' ? last : fallback;
}
