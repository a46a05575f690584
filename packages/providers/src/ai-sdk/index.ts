import { DEFAULT_MAX_PART_BYTES, needsApproval, type ErrorCode, type ToolRegistry } from '@toolshed/core';
import { hasParts } from '../parts/has-parts.js';
import { markedContent, modelOutput } from './content.js';
import { jsonSchema, tool, type ToolSet } from 'ai';
import { capText, checkMaxChars, checkMaxPartBytes, emptyResultText, type ResultOptions, structuredOutput } from '../result-text.js';

/**
 * The registry's tools as an AI SDK tool set for `generateText` / `streamText`.
 *
 * A tool that needs approval (destructive or openWorld) is marked
 * `needsApproval: true`: the SDK stops with a `tool-approval-request` and runs
 * the tool only after the harness answers with an approving
 * `tool-approval-response`. That answer is the approval, so such a call is
 * dispatched with `approve: 'allow-all'`; every other call goes through the
 * registry's own setting.
 *
 * Each call goes through `registry.dispatch` with the SDK's tool call id and
 * abort signal. An output whose text is longer than `maxChars` (default 30000)
 * is sent as that text cut to the cap with a note, as the result builders do.
 * A call's content parts (images, audio, files) reach the model through
 * `toModelOutput` as the SDK's `content` output: text, then each part as file
 * data with its media type. A failed outcome is thrown, which the SDK hands to the model as a tool error
 * (with the outcome's message) and the run goes on.
 */
export function toAiSdkTools(registry: ToolRegistry, options?: ResultOptions): ToolSet {
  const maxChars = checkMaxChars(options);
  const maxPartBytes = checkMaxPartBytes(options, DEFAULT_MAX_PART_BYTES);
  const tools: ToolSet = {};
  for (const definition of registry.list()) {
    const { name } = definition;
    const approvedBySdk = needsApproval(definition);
    tools[name] = tool({
      description: definition.description,
      ...(definition.annotations?.title !== undefined ? { title: definition.annotations.title } : {}),
      inputSchema: jsonSchema(definition.inputSchema as Parameters<typeof jsonSchema>[0]),
      needsApproval: approvedBySdk,
      toModelOutput: ({ output }) => modelOutput(output),
      execute: async (input, { toolCallId, abortSignal }) => {
        const outcome = await registry.dispatch(
          { name, input, callId: toolCallId },
          { signal: abortSignal, approve: approvedBySdk ? 'allow-all' : undefined },
        );
        // Nothing at all would reach some APIs as an empty result, which they refuse.
        if (!outcome.ok) throw new ToolCallFailed(outcome.error.code, capText(outcome.error.message, maxChars));
        if (hasParts(outcome)) return markedContent(outcome, maxChars, maxPartBytes);
        if (outcome.output === undefined) return emptyResultText(name);
        const written = structuredOutput(name, outcome.output, maxChars);
        if (!written.ok) throw new ToolCallFailed('invalid_output', written.message);
        return written.output;
      },
    });
  }
  return tools;
}

/** What the SDK receives for a failed call; `code` is the outcome's error code (one of core's `ErrorCode`s). */
export class ToolCallFailed extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ToolCallFailed';
  }

  /** The outcome's message alone: AI SDK 7 sends a thrown error's `toString()` to the model (6 sent its `message`), so both send the same words. */
  override toString(): string {
    return this.message;
  }
}
