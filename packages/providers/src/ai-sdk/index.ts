import type { ToolRegistry } from '@toolshed/core';
import { jsonSchema, tool, type ToolSet } from 'ai';

/**
 * The registry's tools as an AI SDK tool set for `generateText` / `streamText`.
 * Each call goes through `registry.dispatch` with the SDK's tool call id and
 * abort signal; a failed outcome is thrown, which the SDK hands to the model
 * as a tool error (with the outcome's message) and the run goes on.
 */
export function toAiSdkTools(registry: ToolRegistry): ToolSet {
  const tools: ToolSet = {};
  for (const definition of registry.list()) {
    const { name } = definition;
    tools[name] = tool<unknown, unknown>({
      description: definition.description,
      ...(definition.annotations?.title !== undefined ? { title: definition.annotations.title } : {}),
      inputSchema: jsonSchema(definition.inputSchema as Parameters<typeof jsonSchema>[0]),
      execute: async (input, { toolCallId, abortSignal }) => {
        const outcome = await registry.dispatch(
          { name, input, callId: toolCallId },
          abortSignal ? { signal: abortSignal } : {},
        );
        if (outcome.ok) return outcome.output;
        throw new ToolCallFailed(outcome.error.code, outcome.error.message);
      },
    });
  }
  return tools;
}

/** What the SDK receives for a failed call; `code` is the outcome's error code. */
export class ToolCallFailed extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ToolCallFailed';
  }
}
