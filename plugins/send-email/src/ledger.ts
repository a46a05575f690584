import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isToolError, ToolError } from '@toolshed/core';
import type { CallRecord, Claim, ClaimedRecord, ClaimResult, LedgerStore } from './call-record.js';
import { isDeliveryInDoubt } from './in-doubt.js';
import { ownerStopped, THIS_PROCESS } from './owner.js';
import { isSafeFileError } from './safe-file.js';

/** A send run under a claim: gets the Message-ID derived from the call id. */
export type Send<T> = (messageId: string) => Promise<T>;

/**
 * At most one delivery per call id, across retries, restarts, processes and (with a
 * shared store) machines. Each call id is claimed in the store before anything is
 * sent; the attempt then ends as sent, failed (nothing reached the server's DATA
 * step, or the server refused the message) or in doubt (the content went out and
 * no final reply came). A retry of a sent call gets the first result; a failed one
 * may be sent again; an in-doubt one never is.
 */
export class CallLedger<T> {
  readonly #store: LedgerStore<T>;
  readonly #messageIdFor: (callId: string) => string;
  readonly #running = new Map<string, { fingerprint: string; result: Promise<T> }>();
  /** Outcomes still being written. */
  readonly #noting = new Set<Promise<void>>();
  /** This ledger as a claimant: two ledgers on one store, even in one process, are told apart. */
  readonly #owner = { ...THIS_PROCESS, run: randomUUID() };
  /** Per call id, the claims this ledger made that the store never answered (see #runOnce). */
  readonly #unanswered = new Map<string, Set<string>>();

  constructor(store: LedgerStore<T>, messageIdFor: (callId: string) => string) {
    this.#store = store;
    this.#messageIdFor = messageIdFor;
  }

  /** Run `send` at most once per call id; a repeat with the same id and input gets the first result. */
  run(callId: string, input: unknown, send: Send<T>, signal: AbortSignal): Promise<T> {
    const fingerprint = fingerprintOf(input);
    const running = this.#running.get(callId);
    if (running) {
      // Answered as a rejection like every other outcome, never thrown from run() itself.
      return running.fingerprint === fingerprint ? running.result : Promise.reject(differentInput(callId));
    }
    const attempt = this.#runOnce(callId, fingerprint, send, signal);
    const entry = { fingerprint, result: attempt.then(({ output }) => output) };
    this.#running.set(callId, entry);
    // The call stays answered from here until its outcome is in the store: a retry the moment
    // it returns gets its result, not a store that has not caught up yet.
    void attempt
      .then(
        ({ noted }) => noted,
        () => {},
      )
      .finally(() => {
        if (this.#running.get(callId) === entry) this.#running.delete(callId);
      });
    return entry.result;
  }

  async close(): Promise<void> {
    await Promise.all(this.#noting);
    await this.#store.close();
  }

  async #runOnce(id: string, fingerprint: string, send: Send<T>, signal: AbortSignal): Promise<{ output: T; noted: Promise<void> }> {
    const owner = { ...this.#owner, claim: randomUUID() };
    const claim: Claim = { id, fingerprint, messageId: this.#messageIdFor(id), owner, at: Date.now() };
    let claimed: ClaimResult<T>;
    try {
      claimed = await this.#store.claim(claim);
    } catch (error) {
      // The claim may be in the store with only its reply lost (a dropped connection, a
      // failover): nothing is sent under it, so a retry here may take that row over.
      this.#unanswered.set(id, (this.#unanswered.get(id) ?? new Set()).add(owner.claim));
      throw this.#unwritable(error);
    }
    const unanswered = this.#unanswered.get(id);
    if (claimed.won) this.#unanswered.delete(id);
    else if (
      claimed.record.state === 'claimed' &&
      claimed.record.fingerprint === fingerprint &&
      unanswered?.has(claimed.record.owner?.claim ?? '')
    ) {
      await this.#release(claimed.record);
      unanswered.delete(claimed.record.owner!.claim!);
      if (unanswered.size === 0) this.#unanswered.delete(id);
      return this.#runOnce(id, fingerprint, send, signal);
    }
    if (!claimed.won) return { output: await this.#answer(claimed.record, fingerprint, signal), noted: Promise.resolve() };
    const base = { id, attempt: claimed.record.attempt, fingerprint, messageId: claim.messageId, owner };
    let output: T;
    try {
      output = await send(claim.messageId);
    } catch (error) {
      if (isDeliveryInDoubt(error)) {
        const record = { ...base, at: Date.now(), state: 'in_doubt' as const, reason: error.reason, detail: error.message };
        // Unrecorded, the claim itself stays: a retry finds it unfinished and treats it as in doubt too.
        await this.#store.settle(record).catch(() => {});
        throw inDoubtError(record);
      }
      // A ToolError's message is ours; any other error's text may carry anything (a server's
      // words, a secret), so only its class goes into the store.
      const recorded = isToolError(error)
        ? { code: error.code, message: error.message }
        : { code: 'unknown', message: `send_email failed with ${classify(error)}.` };
      await this.#store.settle({ ...base, at: Date.now(), state: 'failed', error: recorded }).catch(() => {});
      throw error;
    }
    // The message is out: a failure to note it must not turn into a failure (and a resend).
    // Not awaited here: run() answers this call id from memory until it is written, another
    // process waits on the claim until it reads it, and close() waits for it to be written.
    const noted = this.#store.settle({ ...base, at: Date.now(), state: 'sent', output }).catch(() => {});
    this.#noting.add(noted);
    void noted.finally(() => this.#noting.delete(noted));
    return { output, noted };
  }

  /** Answer a call id that is already claimed: from its outcome, or by waiting for one. */
  async #answer(record: CallRecord<T>, fingerprint: string, signal: AbortSignal): Promise<T> {
    for (let wait = 10; ; wait = Math.min(wait * 2, 250)) {
      if (record.fingerprint !== undefined && record.fingerprint !== fingerprint) throw differentInput(record.id);
      switch (record.state) {
        case 'sent':
          return record.output;
        case 'in_doubt':
          throw inDoubtError(record.messageId ? record : { ...record, messageId: this.#messageIdFor(record.id) });
        case 'failed':
          throw new ToolError(
            'execution_failed',
            `send_email: the attempt with call id ${JSON.stringify(record.id)} that ran at the same time failed, and nothing was delivered: ` +
              `${record.error.message.replace(/^send_email: /, '')} The same call id may be sent again.`,
          );
        case 'claimed':
          break;
      }
      // A claim of this ledger's own is not being sent: run() lets one attempt per call id at a
      // time, and that is the one asking. Its outcome went unrecorded.
      const own = record.owner?.run === this.#owner.run;
      if (own || ownerStopped(record.owner)) {
        const inDoubt = {
          ...record,
          messageId: record.messageId || this.#messageIdFor(record.id),
          at: Date.now(),
          state: 'in_doubt' as const,
          reason: 'process_stopped' as const,
          detail: own
            ? 'this process claimed it and could not record its outcome'
            : 'the process that was sending it stopped before it recorded an outcome',
        };
        await this.#store.settle(inDoubt).catch(() => {});
        throw inDoubtError(inDoubt);
      }
      await sleep(wait, undefined, { signal }).catch(() => {});
      if (signal.aborted) throw stillSending(record);
      const now = await this.#store.read(record.id).catch((error: unknown) => {
        throw this.#unreachable(record, error);
      });
      // An older attempt or the same claim again: keep waiting for this one.
      if (now && (now.attempt > record.attempt || (now.attempt === record.attempt && now.state !== 'claimed'))) record = now;
    }
  }

  /** Mark a claim of this ledger whose reply was lost as failed (nothing was sent under it), so the next attempt may be claimed. */
  async #release(record: ClaimedRecord): Promise<void> {
    const message = 'send_email claimed the call, but the reply from its ledger was lost, so nothing was sent.';
    await this.#store
      .settle({ ...record, at: Date.now(), state: 'failed', error: { code: 'execution_failed', message } })
      .catch((error: unknown) => {
        throw this.#unwritable(error);
      });
  }

  /** The store went away while a call waited for another attempt's outcome: say what is known, never the driver's words. */
  #unreachable(record: CallRecord<T>, error: unknown): ToolError {
    const where = record.owner ? ` (process ${record.owner.pid} on ${record.owner.host})` : '';
    return new ToolError(
      'execution_failed',
      `send_email could not reach its ${this.#store.label} (${classify(error)}) while waiting for the outcome of call id ${JSON.stringify(record.id)}, ` +
        `which another attempt${where} is sending. This call sent nothing; that attempt may or may not deliver the message` +
        `${record.messageId ? ` (Message-ID ${record.messageId})` : ''}. Retry later with the same call id to get its outcome; do not send it again under a new call id.`,
    );
  }

  #unwritable(error: unknown): ToolError {
    if (isToolError(error)) return error;
    const reason = isSafeFileError(error) ? error.message : classify(error);
    return new ToolError(
      'execution_failed',
      `send_email could not record the call in its ${this.#store.label} (${reason}). Nothing was sent; ` +
        `check that it is reachable and writable, or set the ledger option to another one, then retry with the same call id.`,
    );
  }
}

/**
 * The Message-ID of a call: a hash of the call id in the sender's domain, so every
 * attempt of one call carries the same id and a receiver can drop a duplicate.
 */
export function messageIdFor(from: string, callId: string): string {
  const hash = createHash('sha256').update(`toolshed send_email\n${callId}`).digest('hex').slice(0, 32);
  return `<${hash}.send_email@${from.slice(from.lastIndexOf('@') + 1)}>`;
}

export function fingerprintOf(input: unknown): string {
  return createHash('sha256').update(JSON.stringify(input)).digest('base64url');
}

function inDoubtError(record: { id: string; messageId: string; detail: string }): ToolError {
  const named = record.messageId ? ` (Message-ID ${record.messageId})` : '';
  return new ToolError(
    'execution_failed',
    `send_email: the message with call id ${JSON.stringify(record.id)}${named} may have been delivered: ${record.detail}. ` +
      `It will not be sent again under this call id. A person must check whether it arrived before it is sent again with a new call id.`,
  );
}

function stillSending(record: CallRecord<unknown>): ToolError {
  const where = record.owner ? ` (process ${record.owner.pid} on ${record.owner.host})` : '';
  return new ToolError(
    'execution_failed',
    `send_email: call id ${JSON.stringify(record.id)} is being sent by another attempt${where} that has no outcome yet. ` +
      `Nothing was sent by this call. Retry later with the same call id to get its outcome.`,
  );
}

function differentInput(callId: string): ToolError {
  return new ToolError(
    'invalid_input',
    `send_email: call id ${JSON.stringify(callId)} was already used for a different message. ` +
      `Nothing was sent. Use a new call id for a new message.`,
  );
}

/**
 * An error that is not ours, named by its class only: its name and code when they look like
 * a name and a code (`TypeError`, `ECONNRESET`, `ERR_STREAM_DESTROYED`), never its message.
 */
export function classify(error: unknown): string {
  const { name, code } = (typeof error === 'object' && error !== null ? error : {}) as { name?: unknown; code?: unknown };
  const parts = [
    typeof name === 'string' && /^(?:[A-Z][A-Za-z]{0,40})?Error$/.test(name) ? name : undefined,
    typeof code === 'string' && /^(?:E[A-Z0-9]{1,20}|ERR_[A-Z0-9_]{1,60})$/.test(code) ? code : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? `an unexpected error (${parts.join(' ')})` : 'an unexpected error';
}
