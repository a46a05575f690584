import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { CallRecord, Claim, ClaimedRecord, ClaimResult, LedgerStore } from './call-record.js';
import { decodeLine, encodeLine } from './ledger-line.js';
import { displayPath, openDirInRoot, openInRoot, type RootDir } from './safe-file.js';

/** How long a claim file may stay empty before its maker is taken to have died making it. */
const EMPTY_CLAIM_MS = 2000;

interface Opened {
  reader: FileHandle;
  writer: FileHandle;
  /** The claims folder, held open: claim files are made in this very folder even if its path is swapped. */
  claims: RootDir;
}

const CLAIM_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

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
  /** The append in flight, and the lines waiting to go out together after it. */
  #writing: Promise<void> = Promise.resolve();
  #next: { lines: string[]; done: Promise<void> } | undefined;

  /** `file` is absolute or relative to `root`, and must lie inside it. */
  constructor(root: string, file: string) {
    this.#root = root;
    this.#file = path.resolve(root, file);
    this.#claims = path.join(path.dirname(this.#file), 'claims');
    this.label = `ledger file ${displayPath(root, this.#file)}`;
  }

  // Reading the file uses synchronous system calls on descriptors opened once: each takes
  // microseconds, far less than a round trip through libuv's thread pool.
  async claim(claim: Claim): Promise<ClaimResult<T>> {
    const opened = await this.#open();
    this.#refresh(opened);
    for (;;) {
      const latest = this.#get(claim.id);
      if (latest && !(latest.state === 'failed' && (latest.fingerprint === undefined || latest.fingerprint === claim.fingerprint))) {
        return { won: false, record: latest };
      }
      const record: ClaimedRecord = { ...claim, attempt: latest ? latest.attempt + 1 : 1, state: 'claimed' };
      const theirs = (await this.#writeClaim(opened, record)) ?? (await this.#readClaim(opened, record));
      if (theirs === 'ours') {
        this.#latest.set(record.id, record);
        return { won: true, record };
      }
      // Another process owns this attempt; it may also have finished it meanwhile.
      this.#refresh(opened);
      const now = this.#get(claim.id);
      if (now && now.attempt >= record.attempt && now.state !== 'failed') return { won: false, record: now };
      if (!(now && now.attempt >= record.attempt)) return { won: false, record: theirs };
      // That attempt failed before this call looked: claim the next one.
    }
  }

  async read(id: string): Promise<CallRecord<T> | undefined> {
    this.#refresh(await this.#open());
    return this.#get(id);
  }

  async settle(record: Exclude<CallRecord<T>, { state: 'claimed' }>): Promise<void> {
    const opened = await this.#open();
    this.#apply(record);
    await this.#append(opened, encodeLine(record));
  }

  /**
   * Append lines with one write(2) on an O_APPEND descriptor, so records of processes
   * writing at once never interleave. Lines that come while a write is in flight go out
   * together in the next one, so one system call serves many concurrent calls. A file
   * whose last line was cut short (a crash mid-write) gets a line break first, so no
   * record is glued to it.
   */
  #append({ reader, writer }: Opened, line: string): Promise<void> {
    if (this.#next) {
      this.#next.lines.push(line);
      return this.#next.done;
    }
    const next: { lines: string[]; done: Promise<void> } = { lines: [line], done: Promise.resolve() };
    this.#next = next;
    next.done = this.#writing
      .catch(() => {})
      .then(async () => {
        this.#next = undefined;
        const { size } = fstatSync(reader.fd);
        let lead = '';
        if (size > 0) {
          const last = Buffer.alloc(1);
          readSync(reader.fd, last, 0, 1, size - 1);
          if (last[0] !== 0x0a) lead = '\n';
        }
        await writer.write(lead + next.lines.join(''));
      });
    this.#writing = next.done;
    return next.done;
  }

  async close(): Promise<void> {
    const opened = this.#opened;
    this.#opened = undefined;
    await this.#writing.catch(() => {});
    if (opened) {
      const handles = await opened.catch(() => undefined);
      if (handles) await Promise.all([handles.reader.close(), handles.writer.close(), handles.claims.close()]);
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
      const claims = await openDirInRoot(this.#root, this.#claims, true);
      const handles: FileHandle[] = [];
      try {
        handles.push(await openInRoot(this.#root, this.#file, 'append'));
        handles.push(await openInRoot(this.#root, this.#file, 'read'));
        return { writer: handles[0]!, reader: handles[1]!, claims };
      } catch (error) {
        await Promise.all([claims.close(), ...handles.map((h) => h.close())]);
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
    const decoded = decodeLine<T>(line);
    if (decoded.kind === 'record') this.#apply(decoded.record);
    else for (const id of decoded.ids) this.#damaged.add(id);
  }

  /**
   * Make the claim file of an attempt with O_EXCL (O_NOFOLLOW: never through a link):
   * 'ours' when this call made it, undefined when it exists already.
   */
  async #writeClaim({ claims }: Opened, record: ClaimedRecord): Promise<'ours' | undefined> {
    // Asynchronous: making a file can wait on the disk, and other sends go on meanwhile.
    try {
      await writeFile(claims.at(this.#claimName(record.id, record.attempt)), JSON.stringify(record), { flag: CLAIM_FLAGS, mode: 0o644 });
      return 'ours';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
      throw error;
    }
  }

  /** The claim in an existing claim file. Its maker writes it just after making the file, so an empty one is waited for a while. */
  async #readClaim({ claims }: Opened, ours: ClaimedRecord): Promise<ClaimedRecord> {
    const file = claims.at(this.#claimName(ours.id, ours.attempt));
    const started = Date.now();
    for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
      try {
        const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
        let parsed: ClaimedRecord | undefined;
        try {
          parsed = JSON.parse(readFileSync(fd, 'utf8')) as ClaimedRecord;
        } finally {
          closeSync(fd);
        }
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

  #claimName(id: string, attempt: number): string {
    return `${createHash('sha256').update(id).digest('hex').slice(0, 40)}.${attempt}`;
  }
}
