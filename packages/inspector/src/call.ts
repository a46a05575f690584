import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { approvalPolicy, isRecord, type Outcome } from '@toolshed/core';
import { adapters, TOOL_FORMATS, type ToolFormat } from '@toolshed/providers';
import type { CallLine } from './api.js';
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
  if (!isRecord(body)) return { ok: false, message: 'The body must be a JSON object {name, input}.' };
  const { name, input, confirmed, format } = body;
  if (typeof name !== 'string' || name === '') return { ok: false, message: '"name" must be the name of a tool.' };
  const chosen = format ?? 'openai';
  if (typeof chosen !== 'string' || !(TOOL_FORMATS as readonly string[]).includes(chosen)) {
    return { ok: false, message: `"format" must be one of ${TOOL_FORMATS.join(', ')}.` };
  }
  return { ok: true, call: { name, input: input ?? {}, confirmed: confirmed === true, format: chosen as ToolFormat } };
}

/** The callId of a running call named by `POST /api/cancel`, or what was wrong with the body. */
export function parseCancelRequest(body: unknown): { ok: true; callId: string } | { ok: false; message: string } {
  const callId = isRecord(body) ? body.callId : undefined;
  if (typeof callId !== 'string' || callId === '') return { ok: false, message: '"callId" must be the id of a running call.' };
  return { ok: true, callId };
}

const UNCONFIRMED = 'the person using toolshed inspect did not confirm this call in the page';

/** The calls the page started that have not ended, by call id, so Cancel can abort one. */
export class RunningCalls {
  readonly #calls = new Map<string, AbortController>();

  start(callId: string): AbortSignal {
    const controller = new AbortController();
    this.#calls.set(callId, controller);
    return controller.signal;
  }

  /** Whether a running call had that id (a call that already ended cannot be cancelled). */
  cancel(callId: string, reason: string): boolean {
    const controller = this.#calls.get(callId);
    controller?.abort(new Error(reason));
    return controller !== undefined;
  }

  end(callId: string): void {
    this.#calls.delete(callId);
  }
}

/**
 * Dispatch through the registry, as a harness does: core validates the input, asks approval
 * (granted only by the page's confirmation) and reports progress. The answer is a stream of
 * JSON lines: the call id first (what Cancel names), then progress, and the outcome last, an
 * `aborted` one when the page cancelled. Closing the request cancels the call too.
 */
export async function streamCall(inspected: Inspected, running: RunningCalls, call: CallRequest, response: ServerResponse) {
  const callId = `inspect_${randomUUID()}`;
  const signal = running.start(callId);
  const closed = () => running.cancel(callId, 'the page closed the call');
  response.on('close', closed);
  response.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' });
  const line = (value: CallLine) => response.write(`${JSON.stringify(value)}\n`);
  line({ type: 'start', callId });
  let outcome: Outcome;
  try {
    outcome = await inspected.registry.dispatch(
      { name: call.name, input: call.input, callId },
      {
        signal,
        approve: approvalPolicy(() => (call.confirmed ? true : { approved: false, reason: UNCONFIRMED })),
        onProgress: (progress) => line({ type: 'progress', progress }),
      },
    );
  } finally {
    running.end(callId);
    response.off('close', closed);
  }
  // The page went away: nobody is left to read the outcome.
  if (response.destroyed) return;
  line({ type: 'outcome', outcome, model: adapters[call.format].results([outcome]) });
  response.end();
}
