import type { CallError } from '@toolshed/core';

/**
 * A tool call read from a provider's response, ready for `runToolCalls`.
 * `callId` is the provider's own id, so the outcome can be matched to the call.
 */
export interface ParsedToolCall {
  callId: string;
  name: string;
  /** The arguments as an object; the raw text when they could not be read. */
  input: unknown;
  /** Set when the call could not be read; such a call never reaches the tool's handler. */
  error?: CallError;
}

/**
 * Read a JSON arguments string. Malformed JSON becomes an `invalid_input`
 * error a model can act on, never an exception.
 */
export function parseArguments(callId: string, name: string, text: unknown): ParsedToolCall {
  if (typeof text !== 'string') {
    return { callId, name, input: text ?? {} };
  }
  // Some models send "" for a tool without parameters.
  if (text.trim() === '') return { callId, name, input: {} };
  try {
    return { callId, name, input: JSON.parse(text) as unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      callId,
      name,
      input: text,
      error: {
        code: 'invalid_input',
        message:
          `Invalid input for ${name}: the arguments are not valid JSON (${reason}). ` +
          "Send the arguments as a single JSON object matching the tool's parameters.",
      },
    };
  }
}

export function stringField(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' ? field : undefined;
}
