import { isRecord, isToolName } from '@toolshed/core/contract';
import type { ToolAnnotations, ToolDefinition } from '@toolshed/core';
import type { McpServerConfig } from './api.js';
import type { CompileSchema } from './validate.js';

/** A tool as an MCP server lists it (`tools/list`), as far as Toolshed reads it. */
export interface ServerTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /** Set by the mount, not the server: why the tool cannot be used (its schema does not compile). Kept in the cache, so a cached start names it too. */
  'toolshed/unusable'?: string;
}

/** One mounted tool: its Toolshed definition and the name the server knows it by. */
export interface MountedTool {
  definition: ToolDefinition;
  serverName: string;
  /** The tool as the server listed it: its schemas keep their `$schema` dialect for validation. */
  listed: ServerTool;
}

export interface Mounted {
  tools: Map<string, MountedTool>;
  /** What was left out and why, in words naming the server (unknown include names, unusable names or schemas). */
  notices: string[];
  /** The schema compiler the calls of these tools share, made on the first call: freed with this listing. */
  compile?: CompileSchema;
}

/** Whether a listed entry is a tool as far as Toolshed reads one (in a listing, and in the cache): an object with a string "name". */
export function isServerTool(value: unknown): value is ServerTool {
  return isRecord(value) && typeof value.name === 'string';
}

function isObjectSchema(value: unknown): value is { type: 'object' } {
  return isRecord(value) && value.type === 'object';
}

/** A config map's own entry for a tool: one named "constructor" or "__proto__" would otherwise get Object's. */
function ownEntry<T>(map: Record<string, T> | undefined, name: string): T | undefined {
  return map !== undefined && Object.hasOwn(map, name) ? map[name] : undefined;
}

/**
 * What the host decides of a server's tool. The server's hints are its claim and decide nothing
 * (MCP: a client must treat a server's annotations as untrusted): every tool is destructive and
 * open-world, as the spec reads a tool that says nothing, unless the user's entry names it in
 * `readOnlyTools`. The user's marks win over both. Only the title is taken from the server.
 */
export function toolAnnotations(tool: ServerTool, config: McpServerConfig): ToolAnnotations {
  const trusted = config.readOnlyTools?.includes(tool.name) === true;
  const annotations: ToolAnnotations = { readOnly: trusted, destructive: !trusted, idempotent: false, openWorld: !trusted };
  const hints = isRecord(tool.annotations) ? tool.annotations : {};
  const title = typeof hints.title === 'string' ? hints.title : typeof tool.title === 'string' ? tool.title : undefined;
  if (title !== undefined) annotations.title = title;
  const marked = { ...config.annotations?.['*'], ...ownEntry(config.annotations, tool.name) };
  Object.assign(annotations, marked);
  // A tool marked read-only changes nothing, so it cannot be destructive unless marked so in so many words.
  if (marked.readOnly === true && marked.destructive === undefined) annotations.destructive = false;
  return annotations;
}

/** The server's word that a tool is read-only, which the host does not take (see toolAnnotations). */
function claimsReadOnly(tool: ServerTool): boolean {
  return isRecord(tool.annotations) && tool.annotations.readOnlyHint === true;
}

function withoutDraft(schema: { [key: string]: unknown }): { [key: string]: unknown } {
  const { $schema: _draft, ...rest } = schema;
  return rest;
}

/** The server's tools as Toolshed tools: include, exclude and rename applied, unusable ones reported. */
export function mountTools(serverTools: readonly ServerTool[], config: McpServerConfig): Mounted {
  const tools = new Map<string, MountedTool>();
  const notices: string[] = [];
  const server = `MCP server "${config.name}"`;
  const offered = new Set(serverTools.map((tool) => tool.name));
  for (const field of ['include', 'readOnlyTools'] as const) {
    for (const wanted of config[field] ?? []) {
      if (!offered.has(wanted))
        notices.push(`${server} has no tool "${wanted}" (named in "${field}"); it offers ${[...offered].join(', ') || 'no tools'}.`);
    }
  }
  const untrustedClaims: string[] = [];
  for (const tool of serverTools) {
    if (config.include && !config.include.includes(tool.name)) continue;
    if (config.exclude?.includes(tool.name)) continue;
    const unusable = tool['toolshed/unusable'];
    if (typeof unusable === 'string') {
      notices.push(`${server}: tool "${tool.name}" is left out: ${unusable}.`);
      continue;
    }
    const name = ownEntry(config.rename, tool.name) ?? tool.name;
    if (!isToolName(name)) {
      notices.push(`${server}: tool "${tool.name}" is left out: "${name}" is not a name model APIs accept; give it one with "rename".`);
      continue;
    }
    if (!isObjectSchema(tool.inputSchema)) {
      notices.push(`${server}: tool "${tool.name}" is left out: its inputSchema is not a JSON Schema of type "object" (out of spec).`);
      continue;
    }
    if (tools.has(name)) {
      notices.push(
        `${server}: tool "${tool.name}" is left out: the name "${name}" is taken by tool "${tools.get(name)!.serverName}" of the same server; rename one.`,
      );
      continue;
    }
    const description =
      typeof tool.description === 'string' && tool.description.trim() !== ''
        ? tool.description
        : `${typeof tool.title === 'string' && tool.title.trim() !== '' ? tool.title : tool.name} (a tool of ${server}, which gives no description).`;
    const definition: ToolDefinition = { name, description, inputSchema: withoutDraft(tool.inputSchema) };
    if (isObjectSchema(tool.outputSchema)) definition.outputSchema = withoutDraft(tool.outputSchema);
    definition.annotations = toolAnnotations(tool, config);
    if (claimsReadOnly(tool) && definition.annotations.readOnly !== true) untrustedClaims.push(tool.name);
    tools.set(name, { definition, serverName: tool.name, listed: tool });
  }
  if (untrustedClaims.length > 0) {
    const names = untrustedClaims.map((name) => JSON.stringify(name)).join(', ');
    notices.push(
      `${server} says ${names} ${untrustedClaims.length === 1 ? 'is' : 'are'} read-only (readOnlyHint); a server's hints are not trusted, ` +
        `so ${untrustedClaims.length === 1 ? 'it needs' : 'they need'} approval. If you trust that, name ${untrustedClaims.length === 1 ? 'it' : 'them'} in its entry's "readOnlyTools": [${names}].`,
    );
  }
  return { tools, notices };
}
