import type { JsonSchema, Outcome } from '@toolshed/core';
import type { Adapter } from '../adapter.js';
import { callIdOf, isLocalCallId } from '../call-id.js';
import { stringField } from '../parsed-call.js';
import { capText, checkMaxChars, checkMaxPartBytes, structuredOutput } from '../result-text.js';
import { definitionsOf } from '../source.js';
import { toGeminiSchema } from './schema.js';
import { hasParts } from '../parts/has-parts.js';
import { GEMINI_MAX_PART_BYTES, geminiParts, type GeminiFunctionResponseInlinePart } from './parts.js';

/** A Gemini `FunctionDeclaration`. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: JsonSchema;
}

/** The request's `tools` field. */
export type GeminiTools = [{ functionDeclarations: GeminiFunctionDeclaration[] }];

/** A Gemini `functionResponse` part. */
export interface GeminiFunctionResponsePart {
  functionResponse: {
    id?: string;
    name: string;
    response: { output: unknown; notes?: string[] } | { error: { code: string; message: string } };
    /** The call's images and files (Gemini 3 multimodal function responses). */
    parts?: GeminiFunctionResponseInlinePart[];
  };
}

/** The content that answers a model turn's function calls. */
export interface GeminiFunctionResponseContent {
  role: 'user';
  parts: GeminiFunctionResponsePart[];
}

function declarationOf(definition: { name: string; description: string; inputSchema: JsonSchema }): GeminiFunctionDeclaration {
  const declaration: GeminiFunctionDeclaration = { name: definition.name, description: definition.description };
  const parameters = toGeminiSchema(definition.inputSchema);
  // Gemini rejects an object parameter schema without properties: a tool without input has none.
  const { properties } = parameters;
  if (typeof properties === 'object' && properties !== null && Object.keys(properties).length > 0) {
    declaration.parameters = parameters;
  }
  return declaration;
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

/** One outcome as Gemini's functionResponse.response: the output, or the error with its code. */
function responseOf(outcome: Outcome, maxChars: number): GeminiFunctionResponsePart['functionResponse']['response'] {
  if (!outcome.ok) return { error: { code: outcome.error.code, message: capText(outcome.error.message, maxChars) } };
  const written = structuredOutput(outcome.name, outcome.output, maxChars);
  return written.ok ? { output: written.output ?? null } : { error: { code: 'invalid_output', message: written.message } };
}

/**
 * Gemini. Tools: `[{functionDeclarations}]`, parameters converted to the
 * schema subset Gemini accepts (`toGeminiSchema`). Calls: the `functionCall`
 * parts of a reply (pass the response, whose first candidate is read, a
 * candidate, its content or the parts); a call without an `id` gets a local
 * one, and its response goes back without an id, as the model sent none.
 * Results: `{role: "user", parts}`, one `functionResponse` part per outcome:
 * `{output}` on success, `{error: {code, message}}` on failure, as Gemini
 * documents; an output over the cap is sent as cut text. A call's images, PDFs
 * and text files go in the functionResponse's `parts`; any other part is named
 * in `response.notes`.
 */
export const gemini: Adapter<GeminiTools, GeminiFunctionResponseContent, 'gemini'> = {
  format: 'gemini',
  tools: (source) => [{ functionDeclarations: definitionsOf(source).map(declarationOf) }],
  parseCalls: (reply) =>
    partsOf(reply)
      .map((part) => (part as { functionCall?: unknown } | null)?.functionCall)
      .filter((call) => typeof call === 'object' && call !== null)
      .map((call) => ({
        callId: callIdOf(stringField(call, 'id')),
        name: stringField(call, 'name') ?? '(unnamed)',
        input: (call as { args?: unknown }).args ?? {},
      })),
  results(outcomes, options) {
    const maxChars = checkMaxChars(options);
    const maxPartBytes = checkMaxPartBytes(options, GEMINI_MAX_PART_BYTES);
    const parts = outcomes.map((outcome) => {
      const response: GeminiFunctionResponsePart['functionResponse'] = { name: outcome.name, response: responseOf(outcome, maxChars) };
      if (outcome.ok && hasParts(outcome)) {
        const { parts, notes } = geminiParts(outcome, maxChars, maxPartBytes);
        if (parts.length > 0) response.parts = parts;
        if (notes.length > 0 && 'output' in response.response) response.response = { ...response.response, notes };
      }
      if (!isLocalCallId(outcome.callId)) response.id = outcome.callId;
      return { functionResponse: response };
    });
    return { role: 'user', parts };
  },
};
