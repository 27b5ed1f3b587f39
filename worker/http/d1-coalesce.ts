/**
 * One D1 round trip for the reads a request makes together (issue 23, ADR 0027).
 *
 * A page's loaders and services read in parallel (`Promise.all`, sibling loaders), each through Drizzle, each
 * `SELECT` its own call to D1: on Cloudflare a round trip to the nearest replica per statement, locally a call into
 * the simulated database. This wrapper of the request's D1 session holds every `SELECT` issued in the same turn of
 * the event loop and sends them together, as one multi-statement request, answering each caller with its own rows.
 * Nothing else changes for the code above it: the statements, their parameters and their results are the same.
 *
 * - Only plain `SELECT`s wait for company, alone or as a `batch()` of nothing but SELECTs (held side by side, so they
 *   still reach D1 in one call and read one snapshot). Everything else (`run`, a batch that writes, a write read back
 *   with RETURNING) goes out on its own, after the reads issued before them, so a request never reads its own write
 *   early nor writes before an earlier read.
 * - Rows keep their columns in order, with duplicate names (joins select `id` twice; Drizzle maps by position):
 *   the public `batch()` keys rows by column name and would lose one of them, so the held reads go through the
 *   session's own multi-statement call, which answers columns and rows. That call is part of the binding's
 *   implementation rather than its typed surface; it is looked for, and a binding without it (or an answer of
 *   another shape) makes every read go out on its own, as it would without this file.
 * - A failing statement fails its batch (D1 runs one as a transaction): the held statements are then sent one by one,
 *   so each caller gets its own answer or its own error.
 */

type Row = unknown[];
interface Columns {
  columns: string[];
  rows: Row[];
  meta: Record<string, unknown>;
}
interface Held {
  sql: string;
  params: unknown[];
  alone: D1PreparedStatement;
  resolve(value: Columns): void;
  reject(reason: unknown): void;
}
/** What the binding's multi-statement call answers for each statement (D1's ROWS_AND_COLUMNS format). */
interface Upstream {
  success?: boolean;
  meta?: Record<string, unknown>;
  results?: { columns?: unknown; rows?: unknown } | Record<string, unknown>[];
}
type SendOrThrow = (endpoint: string, query: string[], params: unknown[][], format: string, span: { setAttribute(): void }) => Promise<Upstream[] | Upstream>;

/** D1 allows many statements per call; a bound keeps one request's answer small. */
const MAX_HELD = 50;
const SELECT = /^\s*select\b/i;
const NO_SPAN = { setAttribute() {} };

export interface Coalescing {
  db: D1DatabaseSession;
  /** Calls made to D1 so far (held reads count once per batch). */
  roundTrips(): number;
}

export function coalescing(session: D1DatabaseSession): Coalescing {
  const sendOrThrow = (session as unknown as { _sendOrThrow?: SendOrThrow })._sendOrThrow;
  const send = typeof sendOrThrow === "function" ? sendOrThrow.bind(session) : null;
  let held: Held[] = [];
  let flushing: Promise<void> = Promise.resolve();
  let trips = 0;

  async function oneByOne(batch: Held[]) {
    await Promise.all(
      batch.map(async (h) => {
        trips += 1;
        try {
          const [columns = [], ...rows] = await h.alone.raw({ columnNames: true });
          h.resolve({ columns: columns as string[], rows, meta: {} });
        } catch (e) {
          h.reject(e);
        }
      }),
    );
  }

  async function sendTogether(batch: Held[]) {
    if (batch.length === 1 || !send) return oneByOne(batch);
    trips += 1;
    let answers: Upstream[];
    try {
      const answer = await send("/query", batch.map((h) => h.sql), batch.map((h) => h.params), "ROWS_AND_COLUMNS", NO_SPAN);
      answers = Array.isArray(answer) ? answer : [answer];
    } catch {
      // One statement failed (or the call itself): let each find out alone.
      return oneByOne(batch);
    }
    const shaped = answers.length === batch.length && answers.every(isColumns);
    if (!shaped) return oneByOne(batch);
    batch.forEach((h, i) => {
      const a = answers[i] as Upstream & { results: { columns: string[]; rows: Row[] } };
      h.resolve({ columns: a.results.columns, rows: a.results.rows, meta: a.meta ?? {} });
    });
  }

  function flush() {
    // A timer set for reads that were already sent early (a write or a batch flushed them) finds nothing to send.
    if (held.length === 0) return;
    const batch = held;
    held = [];
    const chunks: Held[][] = [];
    for (let i = 0; i < batch.length; i += MAX_HELD) chunks.push(batch.slice(i, i + MAX_HELD));
    // Writes wait for every read sent before them, not only the latest group.
    flushing = Promise.all([flushing, ...chunks.map(sendTogether)]).then(() => undefined);
  }

  function hold(alone: D1PreparedStatement, sql: string, params: unknown[]): Promise<Columns> {
    return new Promise<Columns>((resolve, reject) => {
      if (held.length === 0) setTimeout(flush, 0);
      held.push({ sql, params, alone, resolve, reject });
    });
  }

  /**
   * Anything but a plain SELECT (a write, with or without RETURNING, or a batch) goes out on its own, after the reads
   * already issued have been answered, so they never see it.
   */
  async function byItself<R>(call: () => Promise<R>): Promise<R> {
    if (held.length > 0) flush();
    await flushing;
    trips += 1;
    return call();
  }

  const originals = new WeakMap<D1PreparedStatement, D1PreparedStatement>();
  /** Our statements that are plain SELECTs. */
  const reads = new WeakSet<D1PreparedStatement>();
  const statement = (alone: D1PreparedStatement): D1PreparedStatement => {
    const { statement: sql, params } = alone as unknown as { statement?: unknown; params?: unknown };
    const read = typeof sql === "string" && Array.isArray(params) && SELECT.test(sql) ? () => hold(alone, sql, params) : null;
    const wrapped = {
      bind: (...values: unknown[]) => statement(alone.bind(...values)),
      async all<T>() {
        if (!read) return byItself(() => alone.all<T>());
        const { columns, rows, meta } = await read();
        return { success: true, meta, results: rows.map((row) => objectOf(columns, row) as T) } as unknown as D1Result<T>;
      },
      async raw<T>(options?: { columnNames?: boolean }) {
        if (!read) return byItself<T[]>(() => (options?.columnNames ? alone.raw<T>({ columnNames: true }) : alone.raw<T>()) as Promise<T[]>);
        const { columns, rows } = await read();
        return (options?.columnNames ? [columns, ...rows] : rows) as T[];
      },
      async first<T>(column?: string) {
        if (!read) return byItself(() => (column === undefined ? alone.first<T>() : alone.first<T>(column)));
        const { columns, rows } = await read();
        if (rows.length === 0) return null;
        const row = objectOf(columns, rows[0]!);
        if (column === undefined) return row as T;
        if (!(column in row)) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${column})`);
        return row[column] as T;
      },
      run: <T>() => byItself(() => alone.run<T>()),
    } as D1PreparedStatement;
    originals.set(wrapped, alone);
    if (read) reads.add(wrapped);
    return wrapped;
  };

  const db = {
    prepare: (sql: string) => statement(session.prepare(sql)),
    batch<T>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
      if (statements.length > 0 && statements.length <= MAX_HELD && statements.every((s) => reads.has(s))) {
        // Reads only: held with the others of this turn, in one chunk (one call, one snapshot), answered as batch() does.
        if (held.length + statements.length > MAX_HELD) flush();
        return Promise.all(statements.map((s) => s.all<T>()));
      }
      // Our statements in, D1's own underneath.
      return byItself(() => session.batch<T>(statements.map((s) => originals.get(s) ?? s)));
    },
    getBookmark: () => session.getBookmark(),
  };
  return { db: db as unknown as D1DatabaseSession, roundTrips: () => trips };
}

function isColumns(a: Upstream): boolean {
  const r = a?.results as { columns?: unknown; rows?: unknown } | undefined;
  return a?.success !== false && !!r && !Array.isArray(r) && Array.isArray(r.columns) && Array.isArray(r.rows);
}

/** A row as D1's `all()` and `first()` answer it: keyed by column name (a later duplicate wins, as in D1). */
function objectOf(columns: string[], row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  columns.forEach((c, i) => {
    out[c] = row[i];
  });
  return out;
}
