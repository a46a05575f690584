import type { ServerResponse } from 'node:http';
import { approvalPolicy, type Outcome } from '@toolshed/core';
import { adapters, TOOL_FORMATS, type ToolFormat } from '@toolshed/providers';
import type { Inspected } from './inspected.js';

export interface CallRequest {
  name: string;
  input: unknown;
  /** The person ticked the page's confirmation for a tool that needs approval. */
  confirmed: boolean;
  /** The format whose result message the page shows as the model would read it. */
  format: ToolFormat;
}

/** Errors as a field: a body the page did not send is answered in words, never thrown. */
export function parseCallRequest(body: unknown): { ok: true; call: CallRequest } | { ok: false; message: string } {
  if (typeof body !== 'object' || body === null) return { ok: false, message: 'The body must be a JSON object {name, input}.' };
  const { name, input, confirmed, format } = body as Record<string, unknown>;
  if (typeof name !== 'string' || name === '') return { ok: false, message: '"name" must be the name of a tool.' };
  const chosen = format ?? 'openai';
  if (typeof chosen !== 'string' || !(TOOL_FORMATS as readonly string[]).includes(chosen)) {
    return { ok: false, message: `"format" must be one of ${TOOL_FORMATS.join(', ')}.` };
  }
  return { ok: true, call: { name, input: input ?? {}, confirmed: confirmed === true, format: chosen as ToolFormat } };
}

const UNCONFIRMED = 'the person using toolshed inspect did not confirm this call in the page';

/**
 * Dispatch through the registry, as a harness does: core validates the input, asks approval
 * (granted only by the page's confirmation) and reports progress. The answer is a stream of
 * JSON lines, progress first and the outcome last; closing the request cancels the call.
 */
export async function streamCall(inspected: Inspected, call: CallRequest, response: ServerResponse) {
  const controller = new AbortController();
  const cancel = () => controller.abort(new Error('the page cancelled the call'));
  response.on('close', cancel);
  response.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' });
  const line = (value: object) => response.write(`${JSON.stringify(value)}\n`);
  const outcome: Outcome = await inspected.registry.dispatch(
    { name: call.name, input: call.input },
    {
      signal: controller.signal,
      approve: approvalPolicy(() => (call.confirmed ? true : { approved: false, reason: UNCONFIRMED })),
      onProgress: (progress) => line({ type: 'progress', progress }),
    },
  );
  response.off('close', cancel);
  // The page went away (cancel): nobody is left to read the outcome.
  if (response.destroyed) return;
  line({ type: 'outcome', outcome, model: adapters[call.format].results([outcome]) });
  response.end();
}
