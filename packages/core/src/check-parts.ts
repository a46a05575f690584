import { base64Bytes, type ContentPart, PART_TYPES, type PartType } from './content-part.js';
import { type CallIssue, formatPath } from './issues.js';
import { isRecord } from './record.js';
import { essence, MAGIC_HEAD_BYTES, matchesMagic } from './magic-bytes.js';

/** Most parts in one result: past it a result is a fault (a loop), not content. */
export const DEFAULT_MAX_PARTS = 64;
/** Most decoded bytes of one inline part: the largest a model API takes inline (Gemini, OpenAI: 20 MB). */
export const DEFAULT_MAX_PART_BYTES = 20 * 1024 * 1024;
/** Longest part name: a file name's limit on common file systems. */
const MAX_NAME_LENGTH = 255;

export interface PartLimits {
  maxParts?: number;
  maxPartBytes?: number;
}

export interface CheckedParts {
  parts: ContentPart[];
  /** One per part left out, naming its index and field. */
  issues: CallIssue[];
}

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;.*)?$/i;

/**
 * The parts a tool returned that can be sent on, and why each other one was left out. A bad part
 * never costs the rest of the result: the output and the good parts are kept.
 */
export function checkParts(tool: string, declared: readonly PartType[] | undefined, raw: unknown, limits: PartLimits = {}): CheckedParts {
  const maxParts = limits.maxParts ?? DEFAULT_MAX_PARTS;
  const maxBytes = limits.maxPartBytes ?? DEFAULT_MAX_PART_BYTES;
  const issues: CallIssue[] = [];
  if (!Array.isArray(raw)) {
    return { parts: [], issues: [issue(tool, [], `${tool} returned parts that are not a list; they were left out.`)] };
  }
  const parts: ContentPart[] = [];
  const count = Math.min(raw.length, maxParts);
  for (let index = 0; index < count; index++) {
    const problem = partProblem(raw[index], declared, maxBytes);
    if (problem === undefined) parts.push(raw[index] as ContentPart);
    else issues.push(issue(tool, [index, ...problem.path], `${tool} returned part ${index} ${problem.message}; it was left out.`));
  }
  if (raw.length > maxParts) {
    issues.push(
      issue(
        tool,
        [maxParts],
        `${tool} returned ${raw.length} parts; at most ${maxParts} are sent, so parts ${maxParts} to ${raw.length - 1} were left out.`,
      ),
    );
  }
  return { parts, issues };
}

function issue(tool: string, path: (string | number)[], message: string): CallIssue {
  const full = ['parts', ...path];
  return { path: full, at: formatPath(full, tool), message };
}

interface Problem {
  path: string[];
  message: string;
}

function partProblem(p: unknown, declared: readonly PartType[] | undefined, maxBytes: number): Problem | undefined {
  if (!isRecord(p)) return { path: [], message: 'that is not an object' };
  const type = p.type;
  if (typeof type !== 'string' || !(PART_TYPES as readonly string[]).includes(type)) {
    return { path: ['type'], message: `with type ${JSON.stringify(type)}; a part's type is one of ${PART_TYPES.join(', ')}` };
  }
  if (declared === undefined || !declared.includes(type as PartType)) {
    const says = declared === undefined ? 'declares no parts' : `declares parts: ${declared.join(', ') || 'none'}`;
    return { path: ['type'], message: `of type ${type}, but the tool ${says}` };
  }
  const linked = p.data === undefined && p.text === undefined;
  if (linked && p.uri === undefined) return { path: [], message: 'with no content: give data (base64), text (a file part) or uri' };
  if (p.data !== undefined && p.text !== undefined) return { path: ['text'], message: 'with both data and text; give one' };
  for (const key of ['uri', 'name', 'description'] as const) {
    if (p[key] !== undefined && typeof p[key] !== 'string') return { path: [key], message: `whose ${key} is not a string` };
  }
  // A name is shown and sent on (a file name in an API, a label in a terminal): a server's must stay one.
  if (typeof p.name === 'string' && p.name.length > MAX_NAME_LENGTH) {
    return { path: ['name'], message: `whose name is ${p.name.length} characters, above the cap of ${MAX_NAME_LENGTH}` };
  }
  if (p.mimeType === undefined && linked) return undefined;
  if (typeof p.mimeType !== 'string' || !MIME.test(p.mimeType)) {
    return { path: ['mimeType'], message: `with MIME type ${JSON.stringify(p.mimeType)}; give one such as image/png` };
  }
  const mime = essence(p.mimeType);
  if ((type === 'image' || type === 'audio') && !mime.startsWith(`${type}/`)) {
    return { path: ['mimeType'], message: `of type ${type} with MIME type ${mime}; an ${type} part's MIME type starts with ${type}/` };
  }
  if (p.text !== undefined) {
    if (type !== 'file') return { path: ['text'], message: `of type ${type} with text; only a file part carries text` };
    if (typeof p.text !== 'string') return { path: ['text'], message: 'whose text is not a string' };
    const bytes = Buffer.byteLength(p.text, 'utf8');
    return bytes > maxBytes ? { path: ['text'], message: `of ${bytes} bytes, above the cap of ${maxBytes} bytes` } : undefined;
  }
  if (p.data !== undefined) return dataProblem(p.data, mime, maxBytes);
  return undefined;
}

const NOT_BASE64: Problem = { path: ['data'], message: 'whose data is not standard padded base64 (A-Z, a-z, 0-9, +, /, = padding)' };

function dataProblem(data: unknown, mime: string, maxBytes: number): Problem | undefined {
  if (typeof data !== 'string') return { path: ['data'], message: 'whose data is not a base64 string' };
  if (data.length % 4 !== 0 || isBase64Url(data)) return NOT_BASE64;
  const expected = base64Bytes(data);
  if (expected > maxBytes) return { path: ['data'], message: `of ${expected} bytes, above the cap of ${maxBytes} bytes` };
  // Node's decoder skips characters outside the alphabet: fewer bytes than the length promises means there were some.
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length !== expected) return NOT_BASE64;
  if (!matchesMagic(mime, bytes.subarray(0, MAGIC_HEAD_BYTES))) {
    return { path: ['mimeType'], message: `labelled ${mime}, but its bytes are not ${mime}` };
  }
  return undefined;
}

// Standard base64's alphabet lacks - and _; Node's decoder would take them (base64url) silently.
function isBase64Url(data: string): boolean {
  return data.includes('-') || data.includes('_');
}
