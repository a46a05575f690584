import { type ContentPart, type LinkedPart, PART_NAME_META, sniffMime, ToolError } from '@toolshed/core/contract';

interface Content {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export interface CallResult {
  content?: Content[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A server's answer split the way the contract carries it: JSON output, and content parts beside it. */
export interface SplitResult {
  output: unknown;
  parts: ContentPart[];
}

function textOf(content: readonly Content[]): string {
  return content
    .filter((item) => item.type === 'text' && typeof item.text === 'string')
    .map((item) => item.text)
    .join('\n');
}

/**
 * A `tools/call` result as a Toolshed output and parts: `structuredContent` when the server
 * sends it (checked against the tool's outputSchema by the registry), else the text blocks as
 * one string; image, audio, resource and resource_link blocks become content parts (checked by
 * the registry like any tool's parts). A block of a type MCP added later is named in the text,
 * never dropped unsaid. `isError: true` is a failure in the tool's own words, naming the server.
 */
export function toOutput(result: CallResult, tool: string, server: string): SplitResult {
  const content = Array.isArray(result.content) ? result.content : [];
  if (result.isError === true) {
    const text = textOf(content).trim();
    // Not cut here: like any tool's outcome, it is capped where it is written for a model.
    throw new ToolError(
      'execution_failed',
      `${tool} failed (MCP server "${server}"): ${text === '' ? 'the server gave no message' : text}`,
    );
  }
  const parts: ContentPart[] = [];
  const unknown: string[] = [];
  for (const item of content) {
    if (item.type === 'text') continue;
    const part = partOf(item);
    if (part === undefined) unknown.push(String(item.type));
    else parts.push(part);
  }
  const note = unknown.length === 0 ? '' : `[${server} also sent content Toolshed cannot pass on: ${unknown.join(', ')}.]`;
  if (result.structuredContent !== undefined) return { output: writable(result.structuredContent, tool, server), parts };
  return { output: [textOf(content), note].filter((text) => text !== '').join('\n'), parts };
}

/**
 * The part an MCP content block is, as the server sent it (the registry checks it). A resource
 * without a MIME type is named by its bytes when they say, else as MCP's defaults read it.
 */
function partOf(item: Content): ContentPart | undefined {
  const part = blockPart(item);
  // A name a Toolshed server put in the block's _meta (MCP's blocks have none of their own).
  const name = (item._meta as Content | undefined)?.[PART_NAME_META];
  if (part && item.type !== 'resource_link' && typeof name === 'string' && name !== '') part.name = name;
  return part;
}

function blockPart(item: Content): ContentPart | undefined {
  if ((item.type === 'image' || item.type === 'audio') && typeof item.data === 'string') {
    return { type: item.type, mimeType: stringOr(item.mimeType, ''), data: item.data };
  }
  if (item.type === 'resource_link' && typeof item.uri === 'string') {
    const link: LinkedPart = { type: kindOf(item.mimeType), uri: item.uri };
    if (typeof item.mimeType === 'string') link.mimeType = item.mimeType;
    if (typeof item.name === 'string') link.name = item.name;
    if (typeof item.description === 'string') link.description = item.description;
    return link;
  }
  const resource = item.resource as Content | undefined;
  if (item.type !== 'resource' || typeof resource !== 'object' || resource === null || typeof resource.uri !== 'string') return undefined;
  if (typeof resource.text === 'string') {
    return { type: 'file', mimeType: stringOr(resource.mimeType, 'text/plain'), text: resource.text, uri: resource.uri };
  }
  if (typeof resource.blob !== 'string') return undefined;
  const mimeType = stringOr(resource.mimeType, sniffMime(Buffer.from(resource.blob.slice(0, 16), 'base64')) ?? 'application/octet-stream');
  return { type: kindOf(mimeType), mimeType, data: resource.blob, uri: resource.uri };
}

/** A resource is sent back as a resource whatever its kind; as a part it is an image or audio when its MIME type says so. */
function kindOf(mimeType: unknown): ContentPart['type'] {
  if (typeof mimeType === 'string' && mimeType.startsWith('image/')) return 'image';
  if (typeof mimeType === 'string' && mimeType.startsWith('audio/')) return 'audio';
  return 'file';
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}

/**
 * An answer JSON.parse took can still be more than JSON.stringify gives back: nesting deeper
 * than the stack. Passed on, it would make every log, transcript and reply of the outcome throw.
 */
function writable(output: unknown, tool: string, server: string): unknown {
  try {
    JSON.stringify(output);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new ToolError(
      'execution_failed',
      `${tool} failed (MCP server "${server}"): its answer cannot be written back as JSON (${reason}).`,
    );
  }
  return output;
}
