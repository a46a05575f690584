import type { JsonSchema, Outcome } from '@toolshed/core';
import { toGeminiSchema } from './gemini-schema.js';
import { stringField, type ParsedToolCall } from './parsed-call.js';
import { callIdOf, isLocalCallId } from './call-id.js';
import { capOutput, capText, checkMaxChars, type ResultOptions } from './result-text.js';
import { definitionsOf, type ToolSource } from './source.js';

/** A Gemini `FunctionDeclaration`. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: JsonSchema;
}

/** A Gemini `functionResponse` part. */
export interface GeminiFunctionResponsePart {
  functionResponse: {
    id?: string;
    name: string;
    response: { output: unknown } | { error: { code: string; message: string } };
  };
}

/** Function declarations, parameters converted to the schema subset Gemini accepts. */
export function toGeminiFunctionDeclarations(source: ToolSource): GeminiFunctionDeclaration[] {
  return definitionsOf(source).map((definition) => {
    const declaration: GeminiFunctionDeclaration = { name: definition.name, description: definition.description };
    const parameters = toGeminiSchema(definition.inputSchema);
    // Gemini rejects an object parameter schema without properties: a tool without input has none.
    const { properties } = parameters;
    if (typeof properties === 'object' && properties !== null && Object.keys(properties).length > 0) {
      declaration.parameters = parameters;
    }
    return declaration;
  });
}

/** The request's `tools` field: `[{functionDeclarations: [...]}]`. */
export function toGeminiTools(source: ToolSource): { functionDeclarations: GeminiFunctionDeclaration[] }[] {
  return [{ functionDeclarations: toGeminiFunctionDeclarations(source) }];
}

function partsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'object' || value === null) return [];
  const record = value as { parts?: unknown; content?: { parts?: unknown }; candidates?: { content?: { parts?: unknown } }[] };
  if (Array.isArray(record.parts)) return record.parts;
  if (Array.isArray(record.content?.parts)) return record.content.parts;
  const first = Array.isArray(record.candidates) ? record.candidates[0] : undefined;
  return Array.isArray(first?.content?.parts) ? first.content.parts : [];
}

/**
 * Read the `functionCall` parts of a Gemini reply (pass the parts, the
 * content, a candidate, or the whole response: its first candidate is read).
 * A call without an `id` gets a local one (`toolshed-local-…`), and its
 * function response is sent back without an id, as the model sent none.
 */
export function parseGeminiFunctionCalls(reply: unknown): ParsedToolCall[] {
  return partsOf(reply)
    .map((part) => (part as { functionCall?: unknown } | null)?.functionCall)
    .filter((call) => typeof call === 'object' && call !== null)
    .map((call) => ({
      callId: callIdOf(stringField(call, 'id')),
      name: stringField(call, 'name') ?? '(unnamed)',
      input: (call as { args?: unknown }).args ?? {},
    }));
}

/**
 * One `functionResponse` part per outcome: `{output}` on success, `{error: {code, message}}`
 * on failure, as Gemini documents. An output longer than the cap is sent as cut text.
 */
export function toGeminiFunctionResponses(outcomes: readonly Outcome[], options?: ResultOptions): GeminiFunctionResponsePart[] {
  const maxChars = checkMaxChars(options);
  return outcomes.map((outcome) => {
    let response: GeminiFunctionResponsePart['functionResponse']['response'];
    if (outcome.ok) {
      response = { output: capOutput(outcome.output, maxChars) ?? null };
    } else {
      response = { error: { code: outcome.error.code, message: capText(outcome.error.message, maxChars) } };
    }
    const part: GeminiFunctionResponsePart = { functionResponse: { name: outcome.name, response } };
    if (!isLocalCallId(outcome.callId)) part.functionResponse.id = outcome.callId;
    return part;
  });
}

/** The content that answers a model turn's function calls: `{role: "user", parts}`. */
export function toGeminiFunctionResponseContent(
  outcomes: readonly Outcome[],
  options?: ResultOptions,
): { role: 'user'; parts: GeminiFunctionResponsePart[] } {
  return { role: 'user', parts: toGeminiFunctionResponses(outcomes, options) };
}
