/** The kinds of content a tool may return besides its JSON output, as every model API names them. */
export const PART_TYPES = ['image', 'audio', 'file'] as const;

/**
 * The `_meta` key an MCP content block carries a part's `name` in: MCP's image, audio and
 * embedded resource blocks have no name of their own, and a part served out and mounted back
 * (an isolated plugin, a Toolshed server mounted by another) keeps its name.
 */
export const PART_NAME_META = 'toolshed/name';

export type PartType = (typeof PART_TYPES)[number];

interface PartBase {
  type: PartType;
  /** A file name or title for the model and the user (MCP's resource name). */
  name?: string;
}

/** Bytes carried inline, as standard padded base64 (what MCP and every model API take). */
export interface InlinePart extends PartBase {
  mimeType: string;
  data: string;
  /** Where the bytes came from (an MCP resource's URI), kept so they can be sent back as the same resource. */
  uri?: string;
}

/** Text content of a file (an MCP text resource): kept as text, never re-encoded. */
export interface TextFilePart extends PartBase {
  type: 'file';
  mimeType: string;
  text: string;
  uri?: string;
}

/** Content by reference: the receiver fetches it (an MCP resource link, an https URL). */
export interface LinkedPart extends PartBase {
  /** Left out when the source did not say (an MCP resource link may not). */
  mimeType?: string;
  uri: string;
  description?: string;
}

/**
 * One piece of a tool's result that is not JSON: an image, audio, or a file. Which of the three
 * shapes a part has is told by its source field: `data`, `text` or (alone) `uri`.
 */
export type ContentPart = InlinePart | TextFilePart | LinkedPart;

export function isInlinePart(part: ContentPart): part is InlinePart {
  return 'data' in part;
}

export function isTextFilePart(part: ContentPart): part is TextFilePart {
  return 'text' in part;
}

export function isLinkedPart(part: ContentPart): part is LinkedPart {
  return !('data' in part) && !('text' in part);
}

/** The decoded size of an inline part, computed from the base64 length without decoding it. */
export function partBytes(part: ContentPart): number {
  if (isInlinePart(part)) return base64Bytes(part.data);
  if (isTextFilePart(part)) return Buffer.byteLength(part.text, 'utf8');
  return 0;
}

/** The decoded size of standard padded base64, from its length and padding. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}
