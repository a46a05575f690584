import type { DoubtReason } from './in-doubt.js';

/** Who claimed a call: enough to tell, on the same machine, whether that process still runs. */
export interface Owner {
  host: string;
  pid: number;
  /** Random per process, so a reused pid is not taken for the claimant. */
  run: string;
  /**
   * Random per claim, so that a claim whose reply was lost (the row committed, the
   * connection dropped) is known as this very claim when its maker retries.
   */
  claim?: string;
}

interface Base {
  id: string;
  /** 1 for the first claim of a call id; a failed attempt may be followed by the next. */
  attempt: number;
  /** Hash of the input, so a call id reused for another message is refused. Unknown for a damaged record. */
  fingerprint: string | undefined;
  messageId: string;
  owner: Owner | undefined;
  /** Milliseconds since the epoch when this state was recorded. */
  at: number;
}

/**
 * What the ledger knows of one call id, newest attempt only:
 * - claimed: an attempt owns the call id and has no outcome yet;
 * - sent: the server accepted the message; a retry returns `output`;
 * - failed: nothing reached the server's DATA step (or the server refused it); may be retried;
 * - in_doubt: the content went out and no final reply came (or the record is lost); never sent again.
 */
export type CallRecord<T> =
  | (Base & { state: 'claimed' })
  | (Base & { state: 'sent'; output: T })
  | (Base & { state: 'failed'; error: { code: string; message: string } })
  | (Base & { state: 'in_doubt'; reason: DoubtReason; detail: string });

export type ClaimedRecord = Extract<CallRecord<unknown>, { state: 'claimed' }>;

/** A request to own the next attempt of a call id. */
export type Claim = Omit<ClaimedRecord, 'attempt' | 'state'> & { fingerprint: string };

export type ClaimResult<T> = { won: true; record: ClaimedRecord } | { won: false; record: CallRecord<T> };

/**
 * Where call records live. `claim` is the one step that must be atomic across every
 * process sharing the store: of all claims for the same call id and attempt, one wins.
 */
export interface LedgerStore<T> {
  /** How to name the store in a message: `ledger file .toolshed/…` or `PostgreSQL table …`. */
  readonly label: string;
  /**
   * Own the next attempt when the call id is new or its newest attempt failed with the
   * same input; otherwise hand back the newest record.
   */
  claim(claim: Claim): Promise<ClaimResult<T>>;
  /** The newest record of a call id, as the store has it now. */
  read(id: string): Promise<CallRecord<T> | undefined>;
  /** Record the outcome of an attempt (never a step back: an outcome replaces only its claim). */
  settle(record: Exclude<CallRecord<T>, { state: 'claimed' }>): Promise<void>;
  close(): Promise<void>;
}
