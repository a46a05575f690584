import type { ApprovalSetting, DispatchOptions, Outcome, ToolCall, ToolRegistry } from '@toolshed/core';
import type { Adapter } from './adapter.js';
import { callIdOf } from './call-id.js';
import type { ParsedToolCall } from './parsed-call.js';
import { checkMaxChars, checkMaxPartBytes, type ResultOptions } from './result-text.js';

export interface RunToolCallsOptions {
  /** How many calls run at once (default 4). */
  concurrency?: number;
  /** Cancels every call still running or waiting; their outcomes say `aborted`. */
  signal?: AbortSignal;
  /** Overrides each tool's own timeout. */
  timeoutMs?: number;
  /**
   * Overrides the registry's approval setting for these calls: a hook, or
   * `'allow-all'`. Left out, the registry's applies, and by default a call to a
   * tool that needs approval (destructive or openWorld) is denied.
   */
  approve?: ApprovalSetting;
}

export const DEFAULT_CONCURRENCY = 4;

function runOne(registry: ToolRegistry, call: ParsedToolCall | ToolCall, options: DispatchOptions): Promise<Outcome> {
  const error = (call as ParsedToolCall).error;
  // An unreadable call never reaches the handler. An unknown tool still goes
  // through dispatch, whose message lists the tools that exist.
  if (error && registry.has(call.name)) return Promise.resolve(registry.reject(call, error));
  // A call without an id gets a local one, answered with "" like a parsed call's.
  return registry.dispatch({ name: call.name, input: call.input, callId: callIdOf(call.callId) }, options);
}

/**
 * Dispatch a batch of calls (as an adapter's `parseCalls` returns them), at
 * most `concurrency` at a time. Resolves to one outcome per call, in call
 * order; never rejects for anything in the calls.
 */
export async function dispatchCalls(
  registry: ToolRegistry,
  calls: readonly (ParsedToolCall | ToolCall)[],
  options: RunToolCallsOptions = {},
): Promise<Outcome[]> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a whole number of at least 1, got ${String(concurrency)}.`);
  }
  if (!Array.isArray(calls)) {
    throw new TypeError("dispatchCalls expects an array of calls, as an adapter's parseCalls returns them.");
  }
  const dispatchOptions: DispatchOptions = { signal: options.signal, timeoutMs: options.timeoutMs, approve: options.approve };

  const outcomes = new Array<Outcome>(calls.length);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const index = next++;
      outcomes[index] = await runOne(registry, calls[index]!, dispatchOptions);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, calls.length) }, worker));
  return outcomes;
}

/** What one turn's tool calls came to. */
export interface ToolCallsRun<Results> {
  /** One per call in the reply, in call order; empty when the reply asked for no tool. */
  outcomes: Outcome[];
  /** The outcomes as the adapter's API takes them back (see the adapter). */
  results: Results;
}

/**
 * One turn of a tool loop: read the tool calls in a model's reply with the
 * adapter, dispatch them (as `dispatchCalls` does), and give the outcomes and
 * the results to send back. Never rejects for anything the model sent; an
 * empty `outcomes` means the reply asked for no tool.
 */
export async function runToolCalls<Results>(
  registry: ToolRegistry,
  adapter: Adapter<unknown, Results>,
  reply: unknown,
  options: RunToolCallsOptions & ResultOptions = {},
): Promise<ToolCallsRun<Results>> {
  const { maxChars, maxPartBytes, ...dispatchOptions } = options;
  const resultOptions: ResultOptions = {
    ...(maxChars === undefined ? {} : { maxChars }),
    ...(maxPartBytes === undefined ? {} : { maxPartBytes }),
  };
  // Refused before anything runs: a bad cap must not surface after the tools have acted.
  checkMaxChars(resultOptions);
  checkMaxPartBytes(resultOptions, Number.POSITIVE_INFINITY);
  const outcomes = await dispatchCalls(registry, adapter.parseCalls(reply, { tools: registry }), dispatchOptions);
  return { outcomes, results: adapter.results(outcomes, resultOptions) };
}
