import { type ContentPart, isInlinePart, isTextFilePart, PART_NAME_META } from '@toolshed/core/contract';

export type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string; _meta?: NameMeta }
  | {
      type: 'resource';
      resource: { uri: string; mimeType: string; blob: string } | { uri: string; mimeType: string; text: string };
      _meta?: NameMeta;
    }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string };

/**
 * A part as the MCP content block it came from or would be: an image or audio with bytes as
 * such, a part with a URI and bytes or text as an embedded resource, a reference as a
 * resource link. An inline file with no URI gets one naming its place in the result, as
 * MCP's resource needs one.
 */
export function mcpContent(part: ContentPart, index: number): McpContent {
  const named = part.name === undefined ? {} : { _meta: { [PART_NAME_META]: part.name } };
  if (isTextFilePart(part)) {
    return { type: 'resource', resource: { uri: part.uri ?? partUri(index), mimeType: part.mimeType, text: part.text }, ...named };
  }
  if (isInlinePart(part)) {
    if (part.uri === undefined && part.type !== 'file') return { type: part.type, data: part.data, mimeType: part.mimeType, ...named };
    return { type: 'resource', resource: { uri: part.uri ?? partUri(index), mimeType: part.mimeType, blob: part.data }, ...named };
  }
  const link: McpContent & { type: 'resource_link' } = { type: 'resource_link', uri: part.uri, name: part.name ?? part.uri };
  if (part.mimeType !== undefined) link.mimeType = part.mimeType;
  if (part.description !== undefined) link.description = part.description;
  return link;
}

type NameMeta = { [PART_NAME_META]: string };

function partUri(index: number): string {
  return `toolshed://result/part/${index}`;
}
