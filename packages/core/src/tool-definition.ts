import { ContractError } from './contract-error.js';
import type { JsonSchema } from './json-schema-input.js';
import { assertToolName } from './name.js';
import { isRecord } from './record.js';
import type { ToolAnnotations } from './tool.js';

// The rules for a definition that arrives as data (a manifest): no valibot here, so the
// host checks manifests through the light entry without loading the rest of core.

/** What a model sees of a tool: never the handler, never plugin options. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
}

const ANNOTATION_KEYS = ['title', 'readOnly', 'destructive', 'idempotent', 'openWorld'] as const;

export function normalizeAnnotations(name: string, annotations: unknown): ToolAnnotations | undefined {
  if (annotations === undefined) return undefined;
  if (typeof annotations !== 'object' || annotations === null) {
    throw new ContractError({ tool: name, field: 'annotations', reason: '"annotations" must be an object like { readOnly: true }.' });
  }
  const out: ToolAnnotations = {};
  for (const key of Object.keys(annotations)) {
    if (!(ANNOTATION_KEYS as readonly string[]).includes(key)) {
      throw new ContractError({
        tool: name,
        field: 'annotations',
        reason: `unknown annotation "${key}"; use ${ANNOTATION_KEYS.join(', ')}.`,
      });
    }
    const value = (annotations as Record<string, unknown>)[key];
    if (key === 'title' ? typeof value !== 'string' : typeof value !== 'boolean') {
      throw new ContractError({
        tool: name,
        field: 'annotations',
        reason: `annotation "${key}" must be a ${key === 'title' ? 'string' : 'boolean'}.`,
      });
    }
    (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/** `where` names what the user wrote the timeout on: `Tool "echo"`, `dispatch options`. */
export function checkTimeout(where: string, timeoutMs: unknown): number | undefined {
  if (timeoutMs === undefined) return undefined;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
    const reason = `"timeoutMs" must be a positive number of milliseconds, got ${String(timeoutMs)}.`;
    throw new ContractError({ field: 'timeoutMs', reason }, `${where}: ${reason}`);
  }
  return timeoutMs;
}

/** A deep copy, so that no caller ever holds the registry's own objects. */
export function copyDefinition(definition: ToolDefinition): ToolDefinition {
  return JSON.parse(JSON.stringify(definition)) as ToolDefinition;
}

/** Check a definition that arrives as data (a plugin manifest) rather than code. */
export function checkDefinition(definition: ToolDefinition, origin?: string): ToolDefinition {
  if (typeof definition !== 'object' || definition === null) {
    throw new ContractError({
      reason: `Cannot register a deferred tool${origin ? ` from ${origin}` : ''}: its definition is ${String(definition)}.`,
    });
  }
  assertToolName(definition.name, origin);
  const { name } = definition;
  if (typeof definition.description !== 'string' || definition.description.trim() === '') {
    throw new ContractError({ tool: name, field: 'description', reason: '"description" must be a non-empty string.' });
  }
  if (!isRecord(definition.inputSchema) || definition.inputSchema.type !== 'object') {
    throw new ContractError({ tool: name, field: 'inputSchema', reason: '"inputSchema" must be a JSON Schema of type "object".' });
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
