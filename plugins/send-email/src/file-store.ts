import { fstatSync, readSync, writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { CallRecord, Claim, ClaimedRecord, ClaimResult, LedgerStore } from './call-record.js';
import { decodeLine, encodeLine } from './ledger-line.js';
import { displayPath, openInRoot } from './safe-file.js';

interface Opened {
  reader: FileHandle;
  writer: FileHandle;
}

/**
 * The default store: one append-only file of checksummed records (see ledger-line.ts)
 * that every process sharing it reads from where it last stopped before it decides
 * anything.
 *
 * The claim is an append, and the file's order decides it. Every record goes out in one
 * write(2) on an O_APPEND descriptor, which POSIX makes atomic: it lands whole at the end,
 * after every write that returned before it began. So once a claim's write has returned
 * and the file is read up to it, every competing claim for the same call id and attempt
 * that could precede it is visible, and the first in the file wins; a later one loses
 * and waits for the winner's outcome. No lock, so none to go stale, and no file per call.
 * (This holds on a local file system; on a network one, use the PostgreSQL store.)
 *
 * Everything is opened through safe-file.ts: inside the project root, no link followed.
 */
export class FileLedgerStore<T> implements LedgerStore<T> {
  readonly label: string;
  readonly #root: string;
  readonly #file: string;
  #opened: Promise<Opened> | undefined;
  /** The newest valid record per call id. */
  readonly #latest = new Map<string, CallRecord<T>>();
  /** The first valid claim in the file per call id and attempt: the one that won. */
  readonly #winners = new Map<string, ClaimedRecord>();
  /** Lines this store wrote and has not read back yet, with their records. */
  readonly #written = new Map<string, CallRecord<T>>();
  /** Call ids named in damaged lines, and in an unfinished last line. */
  readonly #damaged = new Set<string>();
  #tailIds: string[] = [];
  #offset = 0;
  /** Lines waiting to go out together at the end of the current microtask checkpoint. */
  #next: { lines: string[]; done: Promise<void> } | undefined;

  /** `file` is absolute or relative to `root`, and must lie inside it. */
  constructor(root: string, file: string) {
    this.#root = root;
    this.#file = path.resolve(root, file);
    this.label = `ledger file ${displayPath(root, this.#file)}`;
  }

  // Reading the file uses synchronous system calls on descriptors opened once: each takes
  // microseconds, far less than a round trip through libuv's thread pool.
  async claim(claim: Claim): Promise<ClaimResult<T>> {
    const opened = await this.#open();
    this.#refresh(opened);
    if (this.#tailIds.includes(claim.id)) {
      // An unfinished last line names this call: a write still in progress reads whole in a
      // moment; one a crash cut short stays as it is, and the call id is in doubt.
      await new Promise((resolve) => setTimeout(resolve, 50));
      this.#refresh(opened);
    }
    const latest = this.#get(claim.id);
    if (latest && !(latest.state === 'failed' && (latest.fingerprint === undefined || latest.fingerprint === claim.fingerprint))) {
      return { won: false, record: latest };
    }
    const record: ClaimedRecord = { ...claim, attempt: latest ? latest.attempt + 1 : 1, state: 'claimed' };
    await this.#append(opened, this.#encode(record));
    // The first claim in the file wins, and a winner once read is final: only without one
    // (the append was not taken as read, see #append) is the file read up to our claim.
    const key = winnerKey(record.id, record.attempt);
    if (!this.#winners.has(key)) this.#refresh(opened);
    const winner = this.#winners.get(key);
    // Not even our own claim reads back (a short write, a full disk): nothing may be sent.
    if (winner === undefined) throw new Error(`the claim of call id ${JSON.stringify(record.id)} did not read back whole`);
    if (winner.owner?.run === record.owner?.run) return { won: true, record };
    return { won: false, record: this.#get(record.id) ?? winner };
  }

  async read(id: string): Promise<CallRecord<T> | undefined> {
    this.#refresh(await this.#open());
    return this.#get(id);
  }

  async settle(record: Exclude<CallRecord<T>, { state: 'claimed' }>): Promise<void> {
    const opened = await this.#open();
    this.#apply(record);
    await this.#append(opened, this.#encode(record));
  }

  /** Encode a record this store writes, remembering it so that reading it back skips decoding it. */
  #encode(record: CallRecord<T>): string {
    const line = encodeLine(record);
    this.#written.set(line.slice(0, -1), record);
    return line;
  }

  /**
   * Append lines with one write(2) on an O_APPEND descriptor, so records of processes
   * writing at once never interleave. Lines that come in the same turn of the event loop
   * (concurrent calls) go out together in one write at its end. The write is synchronous:
   * a small append to the page cache takes microseconds, less than a round trip through
   * libuv's thread pool (profiled: FileHandle.write cost more main-thread time than the
   * rest of the ledger). The returned promise settles once the write returned, so a claim
   * is in the file before anything is sent. A file whose last line was cut short (a crash
   * mid-write) gets a line break first, so no record is glued to it.
   */
  #append(opened: Opened, line: string): Promise<void> {
    if (this.#next) {
      this.#next.lines.push(line);
      return this.#next.done;
    }
    const next: { lines: string[]; done: Promise<void> } = { lines: [line], done: Promise.resolve() };
    this.#next = next;
    next.done = Promise.resolve().then(() => {
      this.#next = undefined;
      const { reader, writer } = opened;
      const { size } = fstatSync(reader.fd);
      // Read up to here, the file ends at a line break (the offset only moves past one).
      const caughtUp = size === this.#offset;
      let lead = '';
      if (size > 0 && !caughtUp) {
        const last = Buffer.alloc(1);
        readSync(reader.fd, last, 0, 1, size - 1);
        if (last[0] !== 0x0a) lead = '\n';
      }
      const bytes = Buffer.from(lead + next.lines.join(''));
      const written = writeSync(writer.fd, bytes);
      // Nothing else was appended between the two sizes, so these bytes are exactly ours, at
      // the end where O_APPEND put them: take them as read instead of reading them back.
      if (caughtUp && written === bytes.length && fstatSync(reader.fd).size === size + written) {
        for (const line of next.lines) this.#readLine(line.slice(0, -1));
        this.#offset = size + written;
      }
    });
    return next.done;
  }

  async close(): Promise<void> {
    const opened = this.#opened;
    this.#opened = undefined;
    await this.#next?.done.catch(() => {});
    const handles = await opened?.catch(() => undefined);
    if (handles) await Promise.all([handles.reader.close(), handles.writer.close()]);
  }

  /** A call id seen in a damaged record is in doubt, unless a valid record settles it. */
  #get(id: string): CallRecord<T> | undefined {
    const latest = this.#latest.get(id);
    if (
      (this.#damaged.has(id) || this.#tailIds.includes(id)) &&
      (latest === undefined || latest.state === 'claimed' || latest.state === 'failed')
    ) {
      return {
        id,
        attempt: Math.max(latest?.attempt ?? 0, 1),
        fingerprint: undefined,
        messageId: latest?.messageId ?? '',
        owner: undefined,
        at: latest?.at ?? 0,
        state: 'in_doubt',
        reason: 'damaged_record',
        detail: `a record of it in the ${this.label} is damaged`,
      };
    }
    return latest;
  }

  #apply(record: CallRecord<T>): void {
    if (record.state === 'claimed') {
      const key = winnerKey(record.id, record.attempt);
      if (this.#winners.has(key)) return; // a later claim of the same attempt lost
      this.#winners.set(key, record);
    }
    const known = this.#latest.get(record.id);
    // Keep the furthest state of the newest attempt.
    if (known && (known.attempt > record.attempt || (known.attempt === record.attempt && known.state !== 'claimed'))) return;
    this.#latest.delete(record.id);
    this.#latest.set(record.id, record);
  }

  #open(): Promise<Opened> {
    return (this.#opened ??= (async () => {
      const writer = await openInRoot(this.#root, this.#file, 'append');
      try {
        return { writer, reader: await openInRoot(this.#root, this.#file, 'read') };
      } catch (error) {
        await writer.close();
        throw error;
      }
    })().catch((error: unknown) => {
      this.#opened = undefined;
      throw error;
    }));
  }

  /** Read what other processes appended since the last read. */
  #refresh({ reader }: Opened): void {
    const { size } = fstatSync(reader.fd);
    if (size <= this.#offset) return;
    const bytes = Buffer.alloc(size - this.#offset);
    const bytesRead = readSync(reader.fd, bytes, 0, bytes.length, this.#offset);
    const read = bytes.subarray(0, bytesRead);
    const end = read.lastIndexOf(0x0a);
    const complete = end === -1 ? Buffer.alloc(0) : read.subarray(0, end);
    const tail = read.subarray(end + 1);
    for (const line of complete.toString('utf8').split('\n')) this.#readLine(line);
    this.#offset += end + 1;
    // An unfinished last line is a write in progress or one a crash cut short: its ids are
    // in doubt until it reads whole. It is read again, from the same offset, next time.
    this.#tailIds = [];
    if (tail.length > 0) {
      const decoded = decodeLine<T>(tail.toString('utf8'));
      if (decoded.kind === 'record') this.#apply(decoded.record);
      else this.#tailIds = decoded.ids;
    }
  }

  #readLine(line: string): void {
    if (line === '') return;
    const ours = this.#written.get(line);
    if (ours) {
      this.#written.delete(line);
      this.#apply(ours);
      return;
    }
    const decoded = decodeLine<T>(line);
    if (decoded.kind === 'record') this.#apply(decoded.record);
    else for (const id of decoded.ids) this.#damaged.add(id);
  }
}

function winnerKey(id: string, attempt: number): string {
  return `${attempt}\u0000${id}`;
}
