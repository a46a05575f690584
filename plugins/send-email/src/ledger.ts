import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ToolError } from '@toolshed/core';

type Entry<T> = { id: string; state: 'pending'; input: string } | { id: string; state: 'done'; input: string; output: T } | { id: string; state: 'failed' };
type Known<T> = Exclude<Entry<T>, { state: 'failed' }>;

/** Calls remembered; the file is compacted to this many when read back with twice as many lines. */
const KEEP = 10_000;

/**
 * Remembers call ids so that a retried call returns the first result instead of
 * sending again. Concurrent retries share one attempt in memory; an append-only
 * JSON Lines file makes the guarantee survive a restart of the process.
 *
 * A call is written down as pending before it is sent. If the process dies while
 * sending, that line stays: a retry after the restart is refused rather than
 * risking a second copy. A call that fails is written down as failed, so it may
 * be retried with the same id.
 */
export class CallLedger<T> {
  readonly #file: string;
  readonly #running = new Map<string, { input: string; result: Promise<T> }>();
  #opened: Promise<{ known: Map<string, Known<T>>; handle: FileHandle }> | undefined;
  /** The write in flight, and the lines waiting to go out together after it. */
  #writing: Promise<void> = Promise.resolve();
  #next: { lines: string[]; done: Promise<void> } | undefined;

  constructor(file: string) {
    this.#file = file;
  }

  /** Run `send` once per call id; a repeat with the same id and input gets the first result. */
  run(callId: string, input: unknown, send: () => Promise<T>): Promise<T> {
    const fingerprint = createHash('sha256').update(JSON.stringify(input)).digest('base64url');
    const running = this.#running.get(callId);
    if (running) {
      checkSameInput(callId, running.input, fingerprint);
      return running.result;
    }
    const result = this.#runOnce(callId, fingerprint, send).finally(() => this.#running.delete(callId));
    this.#running.set(callId, { input: fingerprint, result });
    return result;
  }

  async close(): Promise<void> {
    const opened = this.#opened;
    this.#opened = undefined;
    await this.#writing.catch(() => {});
    if (opened) await (await opened).handle.close();
  }

  /**
   * Append a line. Lines that arrive while a write is in flight go out
   * together in the next one: with many messages in flight, one system call
   * serves many calls, and each line is still written before its caller goes on.
   */
  #append(handle: FileHandle, text: string): Promise<void> {
    if (this.#next) {
      this.#next.lines.push(text);
      return this.#next.done;
    }
    const next: { lines: string[]; done: Promise<void> } = { lines: [text], done: Promise.resolve() };
    this.#next = next;
    next.done = this.#writing
      .catch(() => {})
      .then(async () => {
        this.#next = undefined;
        await handle.write(next.lines.join(''));
      });
    this.#writing = next.done;
    return next.done;
  }

  async #runOnce(callId: string, input: string, send: () => Promise<T>): Promise<T> {
    let opened: { known: Map<string, Known<T>>; handle: FileHandle };
    try {
      opened = await (this.#opened ??= this.#open());
    } catch (error) {
      this.#opened = undefined;
      throw this.#unwritable(error);
    }
    const { known, handle } = opened;
    const earlier = known.get(callId);
    if (earlier) {
      checkSameInput(callId, earlier.input, input);
      if (earlier.state === 'done') return earlier.output;
      throw new ToolError(
        'execution_failed',
        `send_email: an earlier attempt with call id ${JSON.stringify(callId)} was cut off while sending ` +
          `(the process stopped), so whether that message went out is unknown. Nothing was sent this time. ` +
          `Ask the user to check before sending it again with a new call id.`,
      );
    }
    const pending: Known<T> = { id: callId, state: 'pending', input };
    try {
      await this.#append(handle, line(pending));
    } catch (error) {
      throw this.#unwritable(error);
    }
    known.set(callId, pending);
    let output: T;
    try {
      output = await send();
    } catch (error) {
      known.delete(callId);
      await this.#append(handle, line({ id: callId, state: 'failed' })).catch(() => {});
      throw error;
    }
    const done: Known<T> = { id: callId, state: 'done', input, output };
    known.delete(callId);
    known.set(callId, done);
    // Forget the oldest calls in memory as the file forgets them when compacted.
    if (known.size > KEEP * 2) for (const id of [...known.keys()].slice(0, KEEP)) known.delete(id);
    // The message is out: a failure to note it must not turn into a failure (and a resend).
    await this.#append(handle, line(done)).catch(() => {});
    return output;
  }

  #unwritable(error: unknown): ToolError {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return new ToolError(
      'execution_failed',
      `send_email could not record the call in its ledger file ${this.#file} (${reason}). Nothing was sent; ` +
        `check that the folder is writable, or set the ledger option to another file.`,
    );
  }

  async #open(): Promise<{ known: Map<string, Known<T>>; handle: FileHandle }> {
    await mkdir(dirname(this.#file), { recursive: true });
    const known = new Map<string, Known<T>>();
    let lines = 0;
    try {
      const text = await readFile(this.#file, 'utf8');
      for (const text_ of text.split('\n')) {
        if (!text_) continue;
        lines++;
        let entry: Entry<T>;
        try {
          entry = JSON.parse(text_) as Entry<T>;
        } catch {
          continue; // a line torn by a crash mid-write
        }
        known.delete(entry.id); // re-insert so the map stays in the order calls last changed
        if (entry.state !== 'failed') known.set(entry.id, entry);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (lines > KEEP * 2) await this.#compact(known);
    return { known, handle: await open(this.#file, 'a') };
  }

  /** Rewrite the file with the newest entries only, atomically, so it does not grow without end. */
  async #compact(known: Map<string, Known<T>>): Promise<void> {
    const ids = [...known.keys()];
    for (const id of ids.slice(0, Math.max(0, ids.length - KEEP))) known.delete(id);
    const temp = `${this.#file}.${process.pid}.tmp`;
    await writeFile(temp, [...known.values()].map(line).join(''));
    await rename(temp, this.#file);
  }
}

function line(entry: Entry<unknown>): string {
  return `${JSON.stringify(entry)}\n`;
}

function checkSameInput(callId: string, earlier: string, now: string): void {
  if (earlier !== now) {
    throw new ToolError(
      'invalid_input',
      `send_email: call id ${JSON.stringify(callId)} was already used for a different message. ` +
        `Nothing was sent. Use a new call id for a new message.`,
    );
  }
}
