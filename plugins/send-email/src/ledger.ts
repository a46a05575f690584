import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '@toolshed/core';

type Record<T> = { state: 'pending'; input: string } | { state: 'done'; input: string; output: T };

/**
 * Remembers call ids so that a retried call returns the first result instead of
 * sending again: in memory for concurrent retries, and on disk (one small file per
 * call id) so the guarantee survives a restart of the process.
 *
 * A call id is claimed on disk before sending (exclusive create). If the process
 * dies while sending, the claim stays: a retry is refused rather than risking a
 * second copy. A call that fails releases its claim, so it may be retried.
 */
export class CallLedger<T> {
  readonly #dir: string;
  readonly #running = new Map<string, { input: string; result: Promise<T> }>();
  #dirReady: Promise<unknown> | undefined;

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** Run `send` once per call id; a repeat with the same id and input gets the first result. */
  run(callId: string, input: unknown, send: () => Promise<T>): Promise<T> {
    const fingerprint = hash(JSON.stringify(input));
    const running = this.#running.get(callId);
    if (running) {
      checkSameInput(callId, running.input, fingerprint);
      return running.result;
    }
    const result = this.#runOnce(callId, fingerprint, send).finally(() => this.#running.delete(callId));
    this.#running.set(callId, { input: fingerprint, result });
    return result;
  }

  async #runOnce(callId: string, fingerprint: string, send: () => Promise<T>): Promise<T> {
    const file = join(this.#dir, `${hash(callId)}.json`);
    this.#dirReady ??= mkdir(this.#dir, { recursive: true });
    await this.#dirReady;
    const pending: Record<T> = { state: 'pending', input: fingerprint };
    try {
      await writeFile(file, JSON.stringify(pending), { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return this.#earlier(callId, file, fingerprint);
    }
    let output: T;
    try {
      output = await send();
    } catch (error) {
      await unlink(file).catch(() => {});
      throw error;
    }
    const done: Record<T> = { state: 'done', input: fingerprint, output };
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify(done));
    await rename(temp, file);
    return output;
  }

  async #earlier(callId: string, file: string, fingerprint: string): Promise<T> {
    let record: Record<T> | undefined;
    try {
      record = JSON.parse(await readFile(file, 'utf8')) as Record<T>;
    } catch {
      // Claimed but empty or unreadable: the claiming process stopped mid-write.
    }
    if (record) checkSameInput(callId, record.input, fingerprint);
    if (record?.state === 'done') return record.output;
    throw new ToolError(
      'execution_failed',
      `send_email: an earlier attempt with call id ${JSON.stringify(callId)} was started but never finished ` +
        `(the process stopped, or another process is sending it now), so whether that message went out is unknown. ` +
        `Nothing was sent this time. Ask the user to check before sending it again with a new call id.`,
    );
  }
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

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
