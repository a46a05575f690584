import { toolJsonSchema, type JsonSchema } from './json-schema.js';
import { assertToolName } from './name.js';
import type { AnyTool, ToolAnnotations } from './tool.js';

/** What a model sees of a tool: never the handler, never plugin options. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
}

const ANNOTATION_KEYS = ['title', 'readOnly', 'destructive', 'idempotent', 'openWorld'] as const;

function normalizeAnnotations(name: string, annotations: unknown): ToolAnnotations | undefined {
  if (annotations === undefined) return undefined;
  if (typeof annotations !== 'object' || annotations === null) {
    throw new TypeError(`Tool "${name}": "annotations" must be an object like { readOnly: true }.`);
  }
  const out: ToolAnnotations = {};
  for (const key of Object.keys(annotations)) {
    if (!(ANNOTATION_KEYS as readonly string[]).includes(key)) {
      throw new TypeError(`Tool "${name}": unknown annotation "${key}"; use ${ANNOTATION_KEYS.join(', ')}.`);
    }
    const value = (annotations as Record<string, unknown>)[key];
    if (key === 'title' ? typeof value !== 'string' : typeof value !== 'boolean') {
      throw new TypeError(`Tool "${name}": annotation "${key}" must be a ${key === 'title' ? 'string' : 'boolean'}.`);
    }
    (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

function isSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'schema';
}

/** `where` names what the user wrote the timeout on: `Tool "echo"`, `dispatch options`. */
export function checkTimeout(where: string, timeoutMs: unknown): number | undefined {
  if (timeoutMs === undefined) return undefined;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
    throw new TypeError(`${where}: "timeoutMs" must be a positive number of milliseconds, got ${String(timeoutMs)}.`);
  }
  return timeoutMs;
}

/**
 * Check a tool's shape and compute what a model sees of it. Everything that
 * can be wrong with a tool is found here, at registration, with the tool's name.
 */
export function describeTool(tool: AnyTool, origin?: string): ToolDefinition {
  if (typeof tool !== 'object' || tool === null) {
    throw new TypeError(`Cannot register ${String(tool)}${origin ? ` from ${origin}` : ''}: a tool is an object made by defineTool().`);
  }
  assertToolName(tool.name, origin);
  const { name } = tool;
  if (typeof tool.description !== 'string' || tool.description.trim() === '') {
    throw new TypeError(`Tool "${name}": "description" must be a non-empty string; it is what the model reads.`);
  }
  if (!isSchema(tool.input)) {
    throw new TypeError(`Tool "${name}": "input" must be a valibot schema such as v.object({...}).`);
  }
  if (tool.output !== undefined && !isSchema(tool.output)) {
    throw new TypeError(`Tool "${name}": "output" must be a valibot schema when given.`);
  }
  if (typeof tool.run !== 'function') {
    throw new TypeError(`Tool "${name}": "run" must be a function (input, ctx) => output.`);
  }
  checkTimeout(`Tool "${name}"`, tool.timeoutMs);
  const definition: ToolDefinition = {
    name,
    description: tool.description,
    inputSchema: toolJsonSchema(tool.input, 'input', name),
  };
  if (tool.output !== undefined) definition.outputSchema = toolJsonSchema(tool.output, 'output', name);
  const annotations = normalizeAnnotations(name, tool.annotations);
  if (annotations) definition.annotations = annotations;
  return definition;
}

/** A deep copy, so that no caller ever holds the registry's own objects. */
export function copyDefinition(definition: ToolDefinition): ToolDefinition {
  return JSON.parse(JSON.stringify(definition)) as ToolDefinition;
}

/** Check a definition that arrives as data (a plugin manifest) rather than code. */
export function checkDefinition(definition: ToolDefinition, origin?: string): ToolDefinition {
  if (typeof definition !== 'object' || definition === null) {
    throw new TypeError(`Cannot register a deferred tool${origin ? ` from ${origin}` : ''}: its definition is ${String(definition)}.`);
  }
  assertToolName(definition.name, origin);
  const { name } = definition;
  if (typeof definition.description !== 'string' || definition.description.trim() === '') {
    throw new TypeError(`Tool "${name}": "description" must be a non-empty string.`);
  }
  if (typeof definition.inputSchema !== 'object' || definition.inputSchema === null || definition.inputSchema.type !== 'object') {
    throw new TypeError(`Tool "${name}": "inputSchema" must be a JSON Schema of type "object".`);
  }
  const copy = copyDefinition(definition);
  const annotations = normalizeAnnotations(name, definition.annotations);
  if (annotations) copy.annotations = annotations;
  return copy;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) out[key] = canonical(item);
  }
  return out;
}

/** Whether two definitions state the same contract, whatever their key order. */
export function sameDefinition(a: ToolDefinition, b: ToolDefinition): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
