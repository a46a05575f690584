import * as v from 'valibot';
import { describeTool } from './definition.js';
import { checkDefinition, checkTimeout, copyDefinition, sameDefinition, type ToolDefinition } from './tool-definition.js';
import type { Approval, ApproveHook } from './approval-policy.js';
import { checkApprovalSetting, needsApproval, noApproverMessage, type ApprovalSetting } from './approval-policy.js';
import { timeoutMessage } from './timeout-message.js';
import { EventHub, type ToolEventListener } from './events.js';
import { type CheckedExposure, checkExposure, type Exposure } from './exposure.js';
import { describeReceived, formatPath, summarizeIssues, toCallIssues, type CallIssue } from './issues.js';
import { findNonJsonValue } from './json-value.js';
import type { CallError, Outcome, SuccessOutcome, ToolCall } from './outcome.js';
import { type CheckedParts, checkParts } from './check-parts.js';
import { isWithParts } from './with-parts.js';
import { readProgress } from './progress.js';
import { describeThrown } from './thrown.js';
import { brand, hasBrand } from './brand.js';
import { isToolError } from './tool-error.js';
import type { AnyTool, Progress, ToolContext, ToolLogger } from './tool.js';
import { isRecord } from './record.js';
const { setMaxListeners } = process.getBuiltinModule('node:events');

export interface RegistryOptions {
  /**
   * Asked before every call (after its input is valid); a denial is a `denied`
   * outcome. `'allow-all'` runs every call without asking. Left out, a call to a
   * tool that needs approval (destructive or openWorld) is denied.
   */
  approve?: ApprovalSetting;
  /** Receives what handlers log through `ctx.log`, with tool name and call id. */
  logger?: ToolLogger;
  /** Timeout for tools that set none. */
  timeoutMs?: number;
  /**
   * Which definitions a model is sent up front: every tool (`{mode: 'always'}`, the default),
   * or a search tool and the tools it finds (`search`, or `auto` above a share of the
   * context window). Harnesses read it through `@toolshed/context`'s `createToolSearch`.
   */
  exposure?: Exposure;
}

export interface DispatchOptions {
  signal?: AbortSignal;
  /** Overrides the tool's own timeout for this call. */
  timeoutMs?: number;
  /** Overrides the registry's approval setting for this call. */
  approve?: ApprovalSetting;
  /**
   * This call's progress, as its `call.progress` events carry it. Two calls may share a call id
   * (a retry from another session while the first runs); this reaches only the call it was given to.
   */
  onProgress?: (progress: Progress) => void;
}

export interface RegisterOptions {
  /** Where the tool came from (e.g. `@toolshed/tool-echo@1.0.0`), named in errors and listings. */
  origin?: string;
}

/** A tool known by its definition whose code is loaded on first dispatch. */
export interface DeferredTool {
  definition: ToolDefinition;
  timeoutMs?: number;
  /** Loads the tool; its definition must match the one given here. */
  load(): Promise<AnyTool>;
}

/** A registered tool as a caller may see it: data only, never the handler. */
export interface RegisteredTool {
  definition: ToolDefinition;
  origin?: string;
  timeoutMs?: number;
  loaded: boolean;
}

interface Entry {
  definition: ToolDefinition;
  origin: string | undefined;
  timeoutMs: number | undefined;
  tool: AnyTool | undefined;
  load: (() => Promise<AnyTool>) | undefined;
  loading: Promise<AnyTool> | undefined;
}

// Every call that nobody can stop shares this one signal. Tools hand it on (fetch, streams,
// an MCP request), each adding an abort listener for the length of its call: with more than
// ten such calls at once Node would warn of a listener leak that is none. Lifted for it alone.
// Read once: Node's global `performance` is a getter on globalThis that runs on every read.
const clock = globalThis.performance;
const NEVER_ABORTED = new AbortController().signal;
setMaxListeners(0, NEVER_ABORTED);
const SILENT: ToolLogger = { debug() {}, info() {}, warn() {}, error() {} };
const IGNORE_PROGRESS = (_progress: Progress): void => {};

// Made and caught only in this module (never crosses copies of core), so instanceof is exact,
// and no handler can forge one: the class is not exported.
class StopSignal {
  constructor(readonly error: CallError) {}
}

// One call in flight, ended once. A class rather than closures over #dispatch's locals:
// one object per call instead of a closure context and a closure for each way to end.
class CallState {
  #ended = false;
  constructor(
    readonly callId: string,
    readonly name: string,
    readonly input: unknown,
    readonly started: number,
    readonly events: EventHub | undefined,
    readonly onProgress: ((progress: Progress) => void) | undefined,
  ) {}

  /** Whether anyone hears this call's progress. */
  get heard(): boolean {
    return this.events !== undefined || this.onProgress !== undefined;
  }

  succeed(output: unknown, checked?: CheckedParts): Outcome {
    const { callId, name, input } = this;
    const outcome: SuccessOutcome = { ok: true, callId, name, input, output, durationMs: clock.now() - this.started };
    if (checked !== undefined && checked.parts.length > 0) outcome.parts = checked.parts;
    if (checked !== undefined && checked.issues.length > 0) outcome.partIssues = checked.issues;
    return this.#end(outcome);
  }

  fail(error: CallError): Outcome {
    const { callId, name, input } = this;
    return this.#end({ ok: false, callId, name, input, durationMs: clock.now() - this.started, error });
  }

  /** Progress reported after the call ended is dropped; so is a report of another shape, with a warning (see readProgress). */
  progress(progress: Progress, log: ToolLogger): void {
    if (this.#ended || !this.heard) return;
    const read = readProgress(progress);
    if ('problem' in read) {
      log.warn(`a progress report was dropped: ${read.problem}.`);
      return;
    }
    this.events?.emit({ type: 'call.progress', callId: this.callId, name: this.name, progress: read.progress, at: Date.now() });
    try {
      this.onProgress?.(read.progress);
    } catch (error) {
      // The caller's listener failing is not the tool's fault: the call goes on.
      log.warn(`the caller's progress listener threw: ${error instanceof Error ? error.message : String(error)}.`);
    }
  }

  #end(outcome: Outcome): Outcome {
    this.#ended = true;
    this.events?.emit({ type: 'call.end', callId: this.callId, name: this.name, outcome, at: Date.now() });
    return outcome;
  }
}

function scopedLogger(logger: ToolLogger, tool: string, callId: string): ToolLogger {
  const at = (level: keyof ToolLogger) => (message: string, data?: unknown) => logger[level](`[${tool} ${callId}] ${message}`, data);
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

// Unique across processes by the random prefix, within one by the counter;
// a UUID per call would cost more than validating a small input. The prefix
// is no secret, only a tag: Math.random (seeded per process from the OS) gives
// its 32 bits without loading Web Crypto at start.
const CALL_ID_PREFIX = `call_${Math.floor(Math.random() * 2 ** 32)
  .toString(16)
  .padStart(8, '0')}`;
let callCounter = 0;
function newCallId(): string {
  return `${CALL_ID_PREFIX}_${(++callCounter).toString(36)}`;
}

/**
 * Holds tools, tells models about them, and runs calls to structured outcomes.
 * `dispatch` never throws or rejects for anything a call can contain.
 */
export class ToolRegistry {
  #entries = new Map<string, Entry>();
  #sealed = false;
  #options: RegistryOptions;
  #events: EventHub;
  #exposure: CheckedExposure;

  constructor(options: RegistryOptions = {}) {
    if (options.timeoutMs !== undefined) checkTimeout('ToolRegistry options', options.timeoutMs);
    checkApprovalSetting('ToolRegistry options', options.approve);
    this.#exposure = options.exposure === undefined ? { mode: 'always' } : checkExposure('ToolRegistry options', options.exposure);
    this.#options = options;
    this.#events = new EventHub((error) => (options.logger ?? SILENT).warn(`an event subscriber threw: ${describeThrown(error)}`));
  }

  /** Add a tool. Throws at once on a bad or duplicate name, a bad shape, or an unconvertible schema. */
  register(tool: AnyTool, options: RegisterOptions = {}): this {
    this.#assertOpen(tool?.name);
    const definition = describeTool(tool, options.origin);
    this.#add(definition, options.origin, {
      timeoutMs: tool.timeoutMs,
      tool,
      load: undefined,
    });
    return this;
  }

  /** Add a tool known by its definition (e.g. a plugin manifest); its code loads on first dispatch. */
  registerDeferred(deferred: DeferredTool, options: RegisterOptions = {}): this {
    this.#assertOpen(deferred?.definition?.name);
    const definition = checkDefinition(deferred.definition, options.origin);
    if (typeof deferred.load !== 'function') {
      throw new TypeError(`Tool "${definition.name}": a deferred tool needs a load() function.`);
    }
    this.#add(definition, options.origin, {
      timeoutMs: checkTimeout(`Tool "${definition.name}"`, deferred.timeoutMs),
      tool: undefined,
      load: deferred.load,
    });
    return this;
  }

  /** After seal(), register() throws: the set of tools a model was shown cannot change under it. */
  seal(): this {
    this.#sealed = true;
    return this;
  }

  get sealed(): boolean {
    return this.#sealed;
  }

  /** The exposure setting (a copy): which definitions a model is sent up front. */
  get exposure(): CheckedExposure {
    return JSON.parse(JSON.stringify(this.#exposure)) as CheckedExposure;
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  get(name: string): RegisteredTool | undefined {
    const entry = this.#entries.get(name);
    if (!entry) return undefined;
    const snapshot: RegisteredTool = { definition: copyDefinition(entry.definition), loaded: entry.tool !== undefined };
    if (entry.origin !== undefined) snapshot.origin = entry.origin;
    if (entry.timeoutMs !== undefined) snapshot.timeoutMs = entry.timeoutMs;
    return snapshot;
  }

  /** What a model sees: fresh copies, in registration order. */
  list(): ToolDefinition[] {
    return [...this.#entries.values()].map((entry) => copyDefinition(entry.definition));
  }

  /** Receive `call.start`, `call.progress` and `call.end` events. Returns an unsubscribe function. */
  subscribe(listener: ToolEventListener): () => void {
    return this.#events.subscribe(listener);
  }

  /** Run one call. Resolves to an outcome; never rejects for anything in the call. */
  dispatch(call: ToolCall, options?: DispatchOptions): Promise<Outcome> {
    if (options !== undefined) {
      if (options.timeoutMs !== undefined) checkTimeout('dispatch options', options.timeoutMs);
      checkApprovalSetting('dispatch options', options.approve);
      if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
        throw new TypeError(`dispatch options: onProgress must be a function, got ${typeof options.onProgress}.`);
      }
    }
    try {
      const outcome = this.#dispatch(call, options);
      return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
    } catch (error) {
      // Only a throwing schema action or subscriber-error logger gets here: rejected, as from an async dispatch.
      return Promise.reject(error);
    }
  }

  /**
   * Report a call that cannot be dispatched as it stands, such as one whose
   * arguments were not JSON: it gets an outcome with the given error, and
   * subscribers see it like any other call. No handler runs.
   */
  reject(call: ToolCall, error: CallError): Outcome {
    const callId = typeof call.callId === 'string' && call.callId !== '' ? call.callId : newCallId();
    const outcome: Outcome = { ok: false, callId, name: call.name, input: call.input, durationMs: 0, error: { ...error } };
    if (this.#events.active) {
      this.#events.emit({ type: 'call.start', callId, name: call.name, input: call.input, at: Date.now() });
      this.#events.emit({ type: 'call.end', callId, name: call.name, outcome, at: Date.now() });
    }
    return outcome;
  }

  #assertOpen(name: unknown): void {
    if (this.#sealed) {
      throw new Error(`Cannot register tool ${JSON.stringify(name)}: the registry is sealed. Register every tool before seal().`);
    }
  }

  #add(definition: ToolDefinition, origin: string | undefined, rest: Pick<Entry, 'timeoutMs' | 'tool' | 'load'>): void {
    const existing = this.#entries.get(definition.name);
    if (existing) {
      throw new Error(
        `Duplicate tool name "${definition.name}": registered from ${existing.origin ?? 'code'} ` +
          `and again from ${origin ?? 'code'}. Rename one of them.`,
      );
    }
    this.#entries.set(definition.name, { definition, origin, loading: undefined, ...rest });
  }

  async #load(entry: Entry): Promise<AnyTool> {
    if (entry.tool) return entry.tool;
    entry.loading ??= (async () => {
      const tool = await entry.load!();
      const definition = describeTool(tool, entry.origin);
      if (!sameDefinition(definition, entry.definition)) {
        throw new Error(
          `the code of tool "${entry.definition.name}"${entry.origin ? ` (${entry.origin})` : ''} does not match its manifest; rebuild the plugin so its manifest is regenerated`,
        );
      }
      entry.tool = tool;
      return tool;
    })();
    return entry.loading;
  }

  // A call whose every step is synchronous (a loaded tool, a sync schema and handler, no
  // approval hook, timeout or signal) ends inside this method: no async frame and no tick
  // per step, which were most of what dispatch cost over validating the input. The steps
  // that may wait go on in #prepareAsync and settle.
  #dispatch(call: ToolCall, options: DispatchOptions | undefined): Outcome | Promise<Outcome> {
    const started = clock.now();
    // Read the call once: a model's payload is data, but a harness may pass anything.
    let name: string;
    let input: unknown;
    let callId: string;
    try {
      name = typeof call?.name === 'string' ? call.name : String(call?.name);
      input = call?.input;
      callId = typeof call?.callId === 'string' && call.callId !== '' ? call.callId : newCallId();
    } catch {
      name = '(unreadable)';
      input = undefined;
      callId = newCallId();
    }
    // An input JSON cannot carry (a cycle, a BigInt, nesting deeper than the stack) is refused
    // below, and left out of what the call reports: in the outcome and the events it would make
    // every log, transcript and reply that writes them as JSON throw.
    const nonJson = findNonJsonValue(input);
    const reported = nonJson ? undefined : input;
    const events = this.#events.active ? this.#events : undefined;
    events?.emit({ type: 'call.start', callId, name, input: reported, at: Date.now() });
    const state = new CallState(callId, name, reported, started, events, options?.onProgress);

    const entry = this.#entries.get(name);
    if (!entry) return state.fail({ code: 'unknown_tool', message: this.#unknownToolMessage(name) });

    const signal = options?.signal;
    if (signal?.aborted) return state.fail(abortedError(name, signal));

    // Safe by default: with nobody to ask, a risky call is denied before its input is read or
    // its code loaded (the definition is known from the manifest), so a deferred plugin that can
    // never run here is never imported. Its input is not checked first: a model that fixed it
    // would only be denied on the retry.
    const approve = options?.approve ?? this.#options.approve;
    if (approve === undefined && needsApproval(entry.definition)) {
      return state.fail({ code: 'denied', message: noApproverMessage(entry.definition) });
    }

    // Every input schema is a JSON object (checked at registration), and
    // valibot's object schemas would take an array for one.
    if (!isRecord(input)) {
      return invalidInput(state, [{ path: [], at: name, message: `expected object, received ${describeReceived(input)}` }]);
    }
    if (nonJson) {
      const { path, expected, received } = nonJson;
      return invalidInput(state, [{ path, at: formatPath(path, name), message: `expected ${expected}, received ${received}` }]);
    }

    const tool = entry.tool;
    if (tool === undefined || tool.input.async || typeof approve === 'function') {
      return this.#prepareAsync(state, entry, approve, options);
    }
    const parsed = v.safeParse(tool.input, input);
    if (!parsed.success) return invalidInput(state, toCallIssues(state.name, parsed.issues));
    if (state.heard || signal !== undefined || (options?.timeoutMs ?? entry.timeoutMs ?? this.#options.timeoutMs) !== undefined) {
      return this.#run(state, entry, tool, parsed.output, options);
    }

    // The common call, written out here rather than in #run: nothing can stop it (no timeout,
    // no signal) or watch it (no subscribers, so no progress and no end event), and when the
    // handler returns a value the call ends in this frame without three more calls. Anything
    // else goes through #run, as calls that wait do.
    const logger = this.#options.logger;
    let output: unknown;
    try {
      output = tool.run(parsed.output, {
        callId,
        toolName: name,
        signal: NEVER_ABORTED,
        log: logger ? scopedLogger(logger, name, callId) : SILENT,
        report: IGNORE_PROGRESS,
      });
      if (isThenable(output)) return settle(state, tool, output);
    } catch (error) {
      return state.fail(handlerError(name, error));
    }
    if (tool.output !== undefined || isWithParts(output)) return checkOutput(state, tool, output);
    return { ok: true, callId, name, input, output, durationMs: clock.now() - started };
  }

  /** The steps before the handler that may wait: loading the tool, an async schema, the approval hook. */
  async #prepareAsync(
    state: CallState,
    entry: Entry,
    approve: ApprovalSetting | undefined,
    options: DispatchOptions | undefined,
  ): Promise<Outcome> {
    const { name } = state;
    // A loaded tool is read at once: awaiting #load would cost a promise and ticks on every call.
    let tool = entry.tool;
    if (tool === undefined) {
      try {
        tool = await this.#load(entry);
      } catch (error) {
        return state.fail({ code: 'execution_failed', message: `Tool "${name}" could not be loaded: ${describeThrown(error)}` });
      }
    }

    const parsed = tool.input.async ? await v.safeParseAsync(tool.input, state.input) : v.safeParse(tool.input, state.input);
    if (!parsed.success) return invalidInput(state, toCallIssues(state.name, parsed.issues));

    if (typeof approve === 'function') {
      const denial = await askApproval(approve, { callId: state.callId, name, input: parsed.output }, entry.definition);
      if (denial !== undefined) return state.fail({ code: 'denied', message: denial });
      const signal = options?.signal;
      if (signal?.aborted) return state.fail(abortedError(name, signal));
    }
    return this.#run(state, entry, tool, parsed.output, options);
  }

  /** Run the handler: to the end at once when it returns a value, else waiting for it (and any timeout or abort). */
  #run(state: CallState, entry: Entry, tool: AnyTool, input: unknown, options: DispatchOptions | undefined): Outcome | Promise<Outcome> {
    const { callId, name } = state;
    const signal = options?.signal;
    const timeoutMs = options?.timeoutMs ?? entry.timeoutMs ?? this.#options.timeoutMs;
    const stopper = timeoutMs !== undefined || signal ? new AbortController() : undefined;
    const logger = this.#options.logger;
    const log = logger ? scopedLogger(logger, name, callId) : SILENT;
    // Progress nobody subscribed to is dropped: no closure is made for it.
    const report = state.heard ? (progress: Progress) => state.progress(progress, log) : IGNORE_PROGRESS;
    const ctx: ToolContext = { callId, toolName: name, signal: stopper?.signal ?? NEVER_ABORTED, log, report };

    let running: unknown;
    try {
      running = tool.run(input, ctx);
      if (stopper) return settle(state, tool, settleOrStop(running, stopper, entry, callId, timeoutMs, signal));
      if (isThenable(running)) return settle(state, tool, running);
    } catch (error) {
      return state.fail(handlerError(name, error));
    }
    return checkOutput(state, tool, running);
  }

  #unknownToolMessage(name: string): string {
    const names = [...this.#entries.keys()];
    const available =
      names.length === 0
        ? 'no tools are registered'
        : `available tools: ${names.slice(0, 50).join(', ')}${names.length > 50 ? ', ...' : ''}`;
    return `Unknown tool ${JSON.stringify(name)}; ${available}.`;
  }
}

function abortedError(name: string, signal: AbortSignal): CallError {
  const reason = signal.reason instanceof Error ? signal.reason.message : typeof signal.reason === 'string' ? signal.reason : '';
  const why = reason && !/aborted/i.test(reason) ? ` (${reason})` : '';
  return { code: 'aborted', message: `The call to ${name} was cancelled by the caller${why}.` };
}

function handlerError(name: string, error: unknown): CallError {
  if (isToolError(error)) {
    const out: CallError = { code: error.code, message: error.message };
    if (error.issues) out.issues = error.issues;
    return out;
  }
  return { code: 'execution_failed', message: `${name} failed: ${describeThrown(error)}` };
}

function invalidInput(state: CallState, issues: CallIssue[]): Outcome {
  return state.fail({ code: 'invalid_input', message: summarizeIssues('Invalid input for', issues), issues });
}

// What await would take for a promise: an object or function with a callable then.
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    ((typeof value === 'object' && value !== null) || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

async function settle(state: CallState, tool: AnyTool, running: unknown): Promise<Outcome> {
  let output: unknown;
  try {
    output = await running;
  } catch (error) {
    if (error instanceof StopSignal) return state.fail(error.error);
    return state.fail(handlerError(state.name, error));
  }
  return checkOutput(state, tool, output);
}

function checkOutput(state: CallState, tool: AnyTool, returned: unknown): Outcome | Promise<Outcome> {
  // Parts are checked apart from the output: a bad part is left out with an issue, the rest is kept.
  const rich = isWithParts(returned);
  const output = rich ? returned.output : returned;
  const parts = rich ? checkParts(state.name, tool.parts, returned.parts) : undefined;
  const schema = tool.output;
  if (!schema) return state.succeed(output, parts);
  if (schema.async) return v.safeParseAsync(schema, output).then((checked) => checkedOutput(state, checked, parts));
  return checkedOutput(state, v.safeParse(schema, output), parts);
}

function checkedOutput(
  state: CallState,
  checked: { success: true; output: unknown } | { success: false; issues: readonly v.BaseIssue<unknown>[] },
  parts: CheckedParts | undefined,
): Outcome {
  if (checked.success) return state.succeed(checked.output, parts);
  const issues = toCallIssues(state.name, checked.issues);
  return state.fail({
    code: 'invalid_output',
    message: summarizeIssues(
      `${state.name} returned output that breaks its own output schema (a fault in the tool, not in your call) at`,
      issues,
    ),
    issues,
  });
}

/** Undefined when approved, else the denial message. */
async function askApproval(
  approve: ApproveHook,
  call: { callId: string; name: string; input: unknown },
  definition: ToolDefinition,
): Promise<string | undefined> {
  let answer: Approval;
  try {
    answer = await approve(call, copyDefinition(definition));
  } catch (error) {
    return `The call to ${call.name} was denied: the approval check failed (${describeThrown(error)}).`;
  }
  const approved = typeof answer === 'object' && answer !== null ? answer.approved === true : answer === true;
  if (approved) return undefined;
  const reason = typeof answer === 'object' && answer !== null && answer.reason ? `: ${answer.reason}` : '';
  return `The call to ${call.name} was denied${reason}. Do not retry it unchanged; ask the user or take another approach.`;
}

/**
 * Wait for the handler, but give up at once on timeout or caller abort:
 * a handler that ignores its signal must not hold the caller.
 */
function settleOrStop(
  running: unknown,
  stopper: AbortController,
  entry: Entry,
  callId: string,
  timeoutMs: number | undefined,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = (reason: StopSignal, abortReason: unknown) => {
      cleanup();
      stopper.abort(abortReason);
      reject(reason);
    };
    const onAbort = () => stop(new StopSignal(abortedError(entry.definition.name, signal!)), signal!.reason);
    const cleanup = () => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        const message = timeoutMessage(entry.definition, entry.origin, timeoutMs, callId);
        stop(new StopSignal({ code: 'timeout', message }), new DOMException(message, 'TimeoutError'));
      }, timeoutMs);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(running).then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
}

const TOOL_REGISTRY = Symbol.for('toolshed.ToolRegistry');
brand(ToolRegistry.prototype, TOOL_REGISTRY);

/** True for a `ToolRegistry` from any copy of `@toolshed/core` loaded in this process. */
export function isToolRegistry(value: unknown): value is ToolRegistry {
  return hasBrand(value, TOOL_REGISTRY);
}
