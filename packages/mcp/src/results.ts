import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An `isError` result: the model reads the message and can correct its call. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Turn a successful call's output into a `tools/call` result: the output as text
 * for every client, and as `structuredContent` when it is an object (MCP allows
 * nothing else there). A tool that lists an output schema has an object output,
 * checked by the registry, so its result always carries the structured form.
 */
export function successResult(name: string, output: unknown): CallToolResult {
  let json: string | undefined;
  try {
    json = JSON.stringify(output);
  } catch (error) {
    // V8 explains a cycle over several lines; the first says enough.
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return errorResult(`${name} returned output that cannot be sent as JSON (${reason}). This is a fault in the tool, not in your call.`);
  }
  if (json === undefined) return { content: [] };
  const result: CallToolResult = { content: [{ type: 'text', text: typeof output === 'string' ? output : json }] };
  if (isPlainObject(output)) result.structuredContent = output;
  return result;
}
