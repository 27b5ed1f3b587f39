/**
 * A group room's own chat storage (its Durable Object SQLite; docs/decisions/0026-chat-persist-first.md):
 * - `chat_ids`: blocks of message ids reserved in D1 and not used yet; the next id is the lowest one left;
 * - `chat_outbox`: every message stored here and not yet confirmed in D1 (a deletion of one of them too),
 *   with a `version` so a write-through that raced with a deletion does not drop it;
 * - `chat_keys`: (author, clientId) -> id of every message of the group, kept for good, so a retried clientId is
 *   answered without asking D1; the keys D1 had before the room kept its own are imported once (`chat_meta`).
 * Every method is synchronous, and each write is one transaction: a failure leaves nothing half written.
 */
import type { Role } from "../../db/schema";
import type { StoredMessage } from "../services/chat-store";

interface OutboxRow extends Record<string, SqlStorageValue> {
  id: number;
  group_id: string;
  author_id: string;
  author_name: string;
  author_role: string;
  client_id: string;
  text: string;
  reply_to: number | null;
  created_at: number;
  deleted_at: number | null;
  version: number;
}

export type PendingMessage = StoredMessage & { version: number };

const fromRow = (r: OutboxRow): PendingMessage => ({
  id: r.id,
  groupId: r.group_id,
  authorId: r.author_id,
  authorName: r.author_name,
  authorRole: r.author_role as Role,
  clientId: r.client_id,
  text: r.text,
  replyTo: r.reply_to,
  createdAt: r.created_at,
  deletedAt: r.deleted_at,
  version: r.version,
});

export class ChatLog {
  constructor(private readonly storage: DurableObjectStorage) {
    const sql = storage.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS chat_ids (start INTEGER PRIMARY KEY, "end" INTEGER NOT NULL)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS chat_outbox (
      id INTEGER PRIMARY KEY, group_id TEXT NOT NULL, author_id TEXT NOT NULL, author_name TEXT NOT NULL, author_role TEXT NOT NULL,
      client_id TEXT NOT NULL, text TEXT NOT NULL, reply_to INTEGER, created_at INTEGER NOT NULL, deleted_at INTEGER,
      version INTEGER NOT NULL DEFAULT 0)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS chat_keys (author_id TEXT NOT NULL, client_id TEXT NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (author_id, client_id))`);
    sql.exec(`CREATE INDEX IF NOT EXISTS chat_keys_id ON chat_keys (id)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS chat_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
  }

  private get sql() {
    return this.storage.sql;
  }

  keysImported(): boolean {
    return this.sql.exec(`SELECT 1 FROM chat_meta WHERE key = 'keys_imported'`).toArray().length > 0;
  }

  /** Takes the (author, clientId) keys D1 had for this group, once. */
  importKeys(keys: { id: number; authorId: string | null; clientId: string | null }[]): void {
    this.storage.transactionSync(() => {
      for (const k of keys) {
        if (k.authorId && k.clientId) this.sql.exec(`INSERT OR IGNORE INTO chat_keys (author_id, client_id, id) VALUES (?, ?, ?)`, k.authorId, k.clientId, k.id);
      }
      this.sql.exec(`INSERT OR REPLACE INTO chat_meta (key, value) VALUES ('keys_imported', ?)`, String(Date.now()));
    });
  }

  /** How many reserved ids are left. */
  idsLeft(): number {
    const [row] = this.sql.exec<{ n: number | null }>(`SELECT sum("end" - start + 1) AS n FROM chat_ids`).toArray();
    return row?.n ?? 0;
  }

  addBlock(start: number, end: number): void {
    this.sql.exec(`INSERT INTO chat_ids (start, "end") VALUES (?, ?)`, start, end);
  }

  /** The id stored for this author's clientId, if any. */
  idOf(authorId: string, clientId: string): number | null {
    const [row] = this.sql.exec<{ id: number }>(`SELECT id FROM chat_keys WHERE author_id = ? AND client_id = ?`, authorId, clientId).toArray();
    return row?.id ?? null;
  }

  /** Whether message `id` is one of this group's that this room knows (stored here, or imported with its key). */
  has(id: number): boolean {
    return this.sql.exec(`SELECT 1 FROM chat_keys WHERE id = ? UNION ALL SELECT 1 FROM chat_outbox WHERE id = ?`, id, id).toArray().length > 0;
  }

  /** A message not yet confirmed in D1. */
  pending(id: number): PendingMessage | null {
    const [row] = this.sql.exec<OutboxRow>(`SELECT * FROM chat_outbox WHERE id = ?`, id).toArray();
    return row ? fromRow(row) : null;
  }

  /**
   * Numbers a message with the next reserved id and stores it (outbox and key), in one transaction. Null when no
   * id is left (the caller reserves a block and tries again); throws, storing nothing, if the key exists.
   */
  append(draft: Omit<StoredMessage, "id" | "deletedAt">): StoredMessage | null {
    return this.storage.transactionSync(() => {
      const [block] = this.sql.exec<{ start: number; end: number }>(`SELECT start, "end" FROM chat_ids ORDER BY start LIMIT 1`).toArray();
      if (!block) return null;
      const id = block.start;
      if (block.start >= block.end) this.sql.exec(`DELETE FROM chat_ids WHERE start = ?`, block.start);
      else this.sql.exec(`UPDATE chat_ids SET start = start + 1 WHERE start = ?`, block.start);
      this.sql.exec(`INSERT INTO chat_keys (author_id, client_id, id) VALUES (?, ?, ?)`, draft.authorId, draft.clientId, id);
      this.sql.exec(
        `INSERT INTO chat_outbox (id, group_id, author_id, author_name, author_role, client_id, text, reply_to, created_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
        id,
        draft.groupId,
        draft.authorId,
        draft.authorName,
        draft.authorRole,
        draft.clientId,
        draft.text,
        draft.replyTo,
        draft.createdAt,
      );
      return { ...draft, id, deletedAt: null };
    });
  }

  /** Marks a message still in the outbox deleted (text erased). "absent": it is not here (D1 has it, or it never existed). */
  markDeleted(id: number, at: number): "deleted" | "already" | "absent" {
    const row = this.pending(id);
    if (!row) return "absent";
    if (row.deletedAt) return "already";
    this.sql.exec(`UPDATE chat_outbox SET deleted_at = ?, text = '', version = version + 1 WHERE id = ?`, at, id);
    return "deleted";
  }

  /** Outbox messages with id > after, oldest first, at most `limit`. */
  pendingAfter(after: number, limit: number): PendingMessage[] {
    return this.sql.exec<OutboxRow>(`SELECT * FROM chat_outbox WHERE id > ? ORDER BY id LIMIT ?`, after, limit).toArray().map(fromRow);
  }

  /** Ids of deleted outbox messages with from <= id <= to. */
  pendingDeleted(from: number, to: number): number[] {
    return this.sql
      .exec<{ id: number }>(`SELECT id FROM chat_outbox WHERE id >= ? AND id <= ? AND deleted_at IS NOT NULL ORDER BY id`, from, to)
      .toArray()
      .map((r) => r.id);
  }

  /** The oldest outbox messages, to write through. */
  toFlush(limit: number): PendingMessage[] {
    return this.pendingAfter(0, limit);
  }

  pendingCount(): number {
    const [row] = this.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM chat_outbox`).toArray();
    return row?.n ?? 0;
  }

  /** D1 has these: they leave the outbox, unless they changed (were deleted) meanwhile, which goes through again. */
  confirm(rows: { id: number; version: number }[]): void {
    this.storage.transactionSync(() => {
      for (const r of rows) this.sql.exec(`DELETE FROM chat_outbox WHERE id = ? AND version = ?`, r.id, r.version);
    });
  }
}
