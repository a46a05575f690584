import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { CallRecord, Claim, ClaimedRecord, ClaimResult, LedgerStore } from './call-record.js';
import { decodeLine, encodeLine } from './ledger-line.js';
import { displayPath, isSafeFileError, mkdirInRoot, openInRoot } from './safe-file.js';

/** How long a claim file may stay empty before its maker is taken to have died making it. */
const EMPTY_CLAIM_MS = 2000;

interface Opened {
  reader: FileHandle;
  writer: FileHandle;
}

/**
 * The default store: one append-only file of checksummed records (see ledger-line.ts),
 * and beside it a `claims/` folder. A claim is a file made with O_EXCL per call id and
 * attempt, so of two processes claiming the same call at once exactly one wins, with
 * no lock to go stale. Outcomes are appended to the file, which every process reads
 * from where it last stopped before it decides anything.
 *
 * Everything is opened through safe-file.ts: inside the project root, no link followed.
 */
export class FileLedgerStore<T> implements LedgerStore<T> {
  readonly label: string;
  readonly #root: string;
  readonly #file: string;
  readonly #claims: string;
  #opened: Promise<Opened> | undefined;
  /** The newest valid record per call id. */
  readonly #latest = new Map<string, CallRecord<T>>();
  /** Call ids named in damaged lines, and in an unfinished last line. */
  readonly #damaged = new Set<string>();
  #tailIds: string[] = [];
  #offset = 0;
  #reading: Promise<void> = Promise.resolve();
  #nextRead: Promise<void> | undefined;
  #writing: Promise<void> = Promise.resolve();
  #next: { lines: string[]; done: Promise<void> } | undefined;

  /** `file` is absolute or relative to `root`, and must lie inside it. */
  constructor(root: string, file: string) {
    this.#root = root;
    this.#file = path.resolve(root, file);
    this.#claims = path.join(path.dirname(this.#file), 'claims');
    this.label = `ledger file ${displayPath(root, this.#file)}`;
  }

  async claim(claim: Claim): Promise<ClaimResult<T>> {
    await this.#refresh();
    for (;;) {
      const latest = this.#get(claim.id);
      if (latest && !(latest.state === 'failed' && (latest.fingerprint === undefined || latest.fingerprint === claim.fingerprint))) {
        return { won: false, record: latest };
      }
      const record: ClaimedRecord = { ...claim, attempt: latest ? latest.attempt + 1 : 1, state: 'claimed' };
      const theirs = await this.#writeClaim(record);
      if (theirs === undefined) {
        this.#latest.set(record.id, record);
        return { won: true, record };
      }
      // Another process owns this attempt; it may also have finished it meanwhile.
      await this.#refresh();
      const now = this.#get(claim.id);
      if (now && now.attempt >= record.attempt && now.state !== 'failed') return { won: false, record: now };
      if (!(now && now.attempt >= record.attempt)) return { won: false, record: theirs };
      // That attempt failed before this call looked: claim the next one.
    }
  }

  async read(id: string): Promise<CallRecord<T> | undefined> {
    await this.#refresh();
    return this.#get(id);
  }

  async settle(record: Exclude<CallRecord<T>, { state: 'claimed' }>): Promise<void> {
    this.#apply(record);
    await this.#append(encodeLine(record));
  }

  async close(): Promise<void> {
    const opened = this.#opened;
    this.#opened = undefined;
    await this.#writing.catch(() => {});
    await this.#reading.catch(() => {});
    if (opened) {
      const { reader, writer } = await opened.catch(() => ({ reader: undefined, writer: undefined }));
      await Promise.all([reader?.close(), writer?.close()]);
    }
  }

  /** A call id seen in a damaged record is in doubt, unless a valid record settles it. */
  #get(id: string): CallRecord<T> | undefined {
    const latest = this.#latest.get(id);
    if ((this.#damaged.has(id) || this.#tailIds.includes(id)) && (latest === undefined || latest.state === 'claimed' || latest.state === 'failed')) {
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
    const known = this.#latest.get(record.id);
    // Records may be read in any order between processes: keep the furthest state of the newest attempt.
    if (known && (known.attempt > record.attempt || (known.attempt === record.attempt && known.state !== 'claimed'))) return;
    this.#latest.delete(record.id);
    this.#latest.set(record.id, record);
  }

  #open(): Promise<Opened> {
    return (this.#opened ??= (async () => {
      await mkdirInRoot(this.#root, this.#claims);
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

  /** Read what other processes appended since the last read. Concurrent callers share one read that starts after they asked. */
  #refresh(): Promise<void> {
    if (this.#nextRead) return this.#nextRead;
    const next = this.#reading
      .catch(() => {})
      .then(async () => {
        this.#nextRead = undefined;
        await this.#readNew();
      });
    this.#nextRead = next;
    this.#reading = next;
    return next;
  }

  async #readNew(): Promise<void> {
    const { reader } = await this.#open();
    const { size } = await reader.stat();
    if (size <= this.#offset) return;
    const buffer = Buffer.alloc(size - this.#offset);
    const { bytesRead } = await reader.read(buffer, 0, buffer.length, this.#offset);
    const bytes = buffer.subarray(0, bytesRead);
    const end = bytes.lastIndexOf(0x0a);
    const complete = end === -1 ? Buffer.alloc(0) : bytes.subarray(0, end);
    const tail = bytes.subarray(end + 1);
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
    const decoded = decodeLine<T>(line);
    if (decoded.kind === 'record') this.#apply(decoded.record);
    else for (const id of decoded.ids) this.#damaged.add(id);
  }

  /**
   * Append lines. Lines that arrive while a write is in flight go out together in the
   * next one, so one system call serves many concurrent calls. A file whose last line
   * was cut short (a crash mid-write) gets a line break first, so no record is glued to it.
   */
  #append(text: string): Promise<void> {
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
        const { reader, writer } = await this.#open();
        const { size } = await reader.stat();
        let lead = '';
        if (size > 0) {
          const last = Buffer.alloc(1);
          await reader.read(last, 0, 1, size - 1);
          if (last[0] !== 0x0a) lead = '\n';
        }
        await writer.write(lead + next.lines.join(''));
      });
    this.#writing = next.done;
    return next.done;
  }

  /** Make the claim file of an attempt; undefined when this call made it, else the claim found there. */
  async #writeClaim(record: ClaimedRecord): Promise<ClaimedRecord | undefined> {
    await this.#open();
    const file = this.#claimFile(record.id, record.attempt);
    let handle: FileHandle;
    try {
      handle = await openInRoot(this.#root, file, 'create');
    } catch (error) {
      if (isSafeFileError(error) && error.problem.kind === 'exists') return this.#readClaim(file, record);
      throw error;
    }
    try {
      await handle.write(JSON.stringify(record));
    } finally {
      await handle.close();
    }
    return undefined;
  }

  /** The claim in an existing claim file. Its maker writes it just after making the file, so an empty one is waited for a while. */
  async #readClaim(file: string, ours: ClaimedRecord): Promise<ClaimedRecord> {
    const started = Date.now();
    for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
      const handle = await openInRoot(this.#root, file, 'read');
      let text: string;
      try {
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
      try {
        const parsed = JSON.parse(text) as ClaimedRecord;
        if (parsed && parsed.state === 'claimed' && parsed.id === ours.id) return parsed;
      } catch {
        // not written yet, or never will be
      }
      if (Date.now() - started > EMPTY_CLAIM_MS) {
        // Its maker stopped before it wrote the claim, so before it could send.
        return { ...ours, fingerprint: undefined, owner: undefined };
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  #claimFile(id: string, attempt: number): string {
    return path.join(this.#claims, `${createHash('sha256').update(id).digest('hex').slice(0, 40)}.${attempt}`);
  }
}
