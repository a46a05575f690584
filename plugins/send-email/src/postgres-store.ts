import type { Pool, PoolClient } from 'pg';
import type { CallRecord, Claim, ClaimedRecord, ClaimResult, LedgerStore, Owner } from './call-record.js';
import { sandboxProxy } from './sandbox-proxy.js';
import { TunnelStream } from './tunnel.js';

interface Row {
  call_id: string;
  attempt: number;
  state: CallRecord<unknown>['state'];
  fingerprint: string | null;
  message_id: string;
  owner: Owner | null;
  at: string;
  outcome: { output?: unknown; error?: { code: string; message: string }; reason?: string; detail?: string } | null;
}

/**
 * A store in PostgreSQL, for several Toolshed processes on several machines. One row
 * per call id, updated in place. The claim is one statement: INSERT … ON CONFLICT,
 * which takes a new call id, or the next attempt of a failed one with the same input,
 * and otherwise changes nothing; the database lets exactly one of any concurrent
 * claims win. The `pg` client is imported when the store is first used.
 */
export class PostgresLedgerStore<T> implements LedgerStore<T> {
  readonly label: string;
  readonly #url: string;
  readonly #table: string;
  /** The table as SQL names it: quoted, so a key word (user, order) is a name like any other. Set on connect. */
  #quoted = '';
  #pool: Promise<Pool> | undefined;

  constructor(url: string, table: string) {
    this.#url = url;
    this.#table = table;
    this.label = `PostgreSQL table ${table}`;
  }

  async claim(claim: Claim): Promise<ClaimResult<T>> {
    const pool = await this.#connect();
    const t = this.#quoted;
    const won = await pool.query<Row>(
      `INSERT INTO ${t} AS c (call_id, attempt, state, fingerprint, message_id, owner, at, outcome)
       VALUES ($1, 1, 'claimed', $2, $3, $4, $5, NULL)
       ON CONFLICT (call_id) DO UPDATE
         SET attempt = c.attempt + 1, state = 'claimed', owner = EXCLUDED.owner, at = EXCLUDED.at, outcome = NULL,
             fingerprint = EXCLUDED.fingerprint, message_id = EXCLUDED.message_id
         WHERE c.state = 'failed' AND (c.fingerprint IS NULL OR c.fingerprint = EXCLUDED.fingerprint)
       RETURNING *`,
      [claim.id, claim.fingerprint, claim.messageId, JSON.stringify(claim.owner), claim.at],
    );
    if (won.rows[0]) return { won: true, record: fromRow(won.rows[0]) as ClaimedRecord };
    const record = await this.read(claim.id);
    // Between the two statements the row can only have moved on, never gone away.
    if (!record) throw new Error(`the row of call id ${JSON.stringify(claim.id)} vanished from ${this.#table}`);
    return { won: false, record };
  }

  async read(id: string): Promise<CallRecord<T> | undefined> {
    const pool = await this.#connect();
    const { rows } = await pool.query<Row>(`SELECT * FROM ${this.#quoted} WHERE call_id = $1`, [id]);
    return rows[0] ? (fromRow(rows[0]) as CallRecord<T>) : undefined;
  }

  async settle(record: Exclude<CallRecord<T>, { state: 'claimed' }>): Promise<void> {
    const pool = await this.#connect();
    const outcome =
      record.state === 'sent'
        ? { output: record.output }
        : record.state === 'failed'
          ? { error: record.error }
          : { reason: record.reason, detail: record.detail };
    // Only the claim of this very attempt is replaced: an outcome never overwrites another.
    await pool.query(
      `UPDATE ${this.#quoted} SET state = $3, outcome = $4, at = $5 WHERE call_id = $1 AND attempt = $2 AND state = 'claimed'`,
      [record.id, record.attempt, record.state, JSON.stringify(outcome), record.at],
    );
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    if (pool) await (await pool.catch(() => undefined))?.end();
  }

  #connect(): Promise<Pool> {
    return (this.#pool ??= (async () => {
      const { default: pg } = await import('pg');
      this.#quoted = pg.escapeIdentifier(this.#table);
      // Run isolated, the sandbox lets the database connection out only through its proxy.
      const proxy = sandboxProxy();
      const pool = new pg.Pool({ connectionString: this.#url, max: 10, ...(proxy ? { stream: () => new TunnelStream(proxy) } : {}) });
      // An idle client that loses its connection must not crash the process.
      pool.on('error', () => {});
      let client: PoolClient | undefined;
      try {
        client = await pool.connect();
        // CREATE TABLE IF NOT EXISTS is not safe against itself: processes starting together
        // take a transaction-scoped advisory lock first, so one creates and the others see it.
        await client.query('BEGIN');
        await client.query(`SELECT pg_advisory_xact_lock(hashtext('toolshed send_email ' || $1))`, [this.#table]);
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${this.#quoted} (
             call_id text PRIMARY KEY,
             attempt integer NOT NULL,
             state text NOT NULL CHECK (state IN ('claimed', 'sent', 'failed', 'in_doubt')),
             fingerprint text,
             message_id text NOT NULL,
             owner jsonb,
             at bigint NOT NULL,
             outcome jsonb
           )`,
        );
        await client.query('COMMIT');
      } catch (error) {
        await client?.query('ROLLBACK').catch(() => {});
        client?.release();
        await pool.end().catch(() => {});
        throw error;
      }
      client?.release();
      return pool;
    })().catch((error: unknown) => {
      this.#pool = undefined;
      throw error;
    }));
  }
}

function fromRow(row: Row): CallRecord<unknown> {
  const base = {
    id: row.call_id,
    attempt: row.attempt,
    fingerprint: row.fingerprint ?? undefined,
    messageId: row.message_id,
    owner: row.owner ?? undefined,
    at: Number(row.at),
  };
  const outcome = row.outcome ?? {};
  switch (row.state) {
    case 'claimed':
      return { ...base, state: 'claimed' };
    case 'sent':
      return { ...base, state: 'sent', output: outcome.output };
    case 'failed':
      return { ...base, state: 'failed', error: outcome.error ?? { code: 'execution_failed', message: 'failed' } };
    case 'in_doubt':
      return {
        ...base,
        state: 'in_doubt',
        reason: (outcome.reason ?? 'unfinished_record') as never,
        detail: outcome.detail ?? 'no outcome was recorded',
      };
  }
}
