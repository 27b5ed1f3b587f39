import { Server, type Connection, type ConnectionContext, type WSMessage } from "partyserver";
import { CLOSE, FRAME_RATE, MAX_FRAME_BYTES, MAX_SOCKETS_PER_PERSON, TICKET_TTL_SECONDS, type Party } from "../../app/lib/realtime-limits";
import type { ClientFrame, DevClientFrame, ServerFrame } from "../../app/lib/realtime-protocol";
import type { Bindings } from "../env";
import { humanIssue } from "../http/human-issue";

/**
 * The frame schemas (zod) and the settings: imported by the first frame a room receives, not when the Worker starts
 * (every isolate exports the room classes; docs/decisions/0025-lean-cold-start.md).
 */
let parsing: Promise<[typeof import("../../app/lib/realtime-protocol"), typeof import("../env")]> | null = null;
const loadParsing = () => (parsing ??= Promise.all([import("../../app/lib/realtime-protocol"), import("../env")]));

/** Who a connection belongs to; set from the verified ticket, kept across hibernation. */
export interface ConnectionState {
  userId: string;
  role: "admin" | "instructor" | "user";
  /** The session the ticket was minted under; frames are refused once it is revoked. */
  sessionId: string;
  /** When the socket was admitted (ms): the oldest of a person's sockets gives way to a new one past the cap. */
  since: number;
}

/** What a connection's next frame gets: handled, refused with an error, or the connection closed (a flood). */
type Rate = "ok" | "refuse" | "close";

/**
 * The clientId of a `chat.send` frame that cannot be handled (too large, too fast, malformed), so the error names
 * the message its sender is showing as "sending" and it can be offered again or discarded. Read from the parsed frame,
 * or from the head of one too large to parse (the app's client writes `type` and `clientId` before the text).
 */
const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;
function sendClientId(data: unknown): string | undefined {
  if (typeof data === "string") {
    const head = /^\{"type":"chat\.send","clientId":"([A-Za-z0-9_-]{8,64})"/.exec(data.slice(0, 120));
    return head?.[1];
  }
  if (typeof data !== "object" || data === null) return undefined;
  const { type, clientId } = data as { type?: unknown; clientId?: unknown };
  return type === "chat.send" && typeof clientId === "string" && CLIENT_ID.test(clientId) ? clientId : undefined;
}

/** Headers the Worker sets after verifying a ticket; any client-sent copies are overwritten. */
export const ADMIT_HEADERS = { user: "x-cohort-user", role: "x-cohort-role", session: "x-cohort-session", jti: "x-cohort-ticket", connection: "x-cohort-connection" } as const;

/**
 * The base of every realtime room: hibernating, single-use ticket admission, validated frames with a
 * size and rate limit, and `publish` for the Worker to push server-built frames (called over DO RPC).
 */
export abstract class Room extends Server<Bindings & Cloudflare.Env> {
  static options = { hibernate: true };
  abstract readonly party: Party;
  /** Per-connection frame counters; reset by hibernation, which only makes the limit more lenient. */
  private rates = new Map<string, { count: number; resetAt: number }>();

  /** Refuses a ticket that was already used (replay), before the socket is accepted. */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() === "websocket") {
      const jti = request.headers.get(ADMIT_HEADERS.jti);
      if (!jti) return new Response("Missing ticket", { status: 401 });
      this.ensureTables();
      const now = Date.now();
      this.sql`DELETE FROM used_tickets WHERE expires_at < ${now}`;
      const seen = this.sql<{ jti: string }>`SELECT jti FROM used_tickets WHERE jti = ${jti}`;
      if (seen.length > 0) return new Response("Ticket already used", { status: 403 });
      this.sql`INSERT INTO used_tickets (jti, expires_at) VALUES (${jti}, ${now + TICKET_TTL_SECONDS * 1000 * 2})`;
    }
    return super.fetch(request);
  }

  private ensureTables() {
    this.sql`CREATE TABLE IF NOT EXISTS used_tickets (jti TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)`;
  }

  onConnect(connection: Connection<ConnectionState>, ctx: ConnectionContext) {
    const userId = ctx.request.headers.get(ADMIT_HEADERS.user);
    const role = ctx.request.headers.get(ADMIT_HEADERS.role) as ConnectionState["role"] | null;
    const sessionId = ctx.request.headers.get(ADMIT_HEADERS.session);
    // Admitted by the router, under the id it gave (router.ts): anything else never reaches a frame.
    if (!userId || !role || !sessionId || connection.id !== ctx.request.headers.get(ADMIT_HEADERS.connection)) {
      connection.close(4401, "Not admitted");
      return;
    }
    connection.setState({ userId, role, sessionId, since: Date.now() });
    this.keepNewestOf(userId);
    this.send(connection, { type: "welcome", party: this.party, room: this.name, connectionId: connection.id });
  }

  /**
   * One person's sockets in this room stay within MAX_SOCKETS_PER_PERSON: past it the oldest close (a tab long
   * left open, a device put away) with a code that does not reconnect. Tickets are single-use but anyone may ask
   * for many; without this, one member could hold thousands of sockets in their group's room.
   */
  private keepNewestOf(userId: string) {
    const mine = [...this.getConnections<ConnectionState>(`user:${userId}`)];
    if (mine.length <= MAX_SOCKETS_PER_PERSON) return;
    mine.sort((a, b) => (a.state?.since ?? 0) - (b.state?.since ?? 0));
    for (const c of mine.slice(0, mine.length - MAX_SOCKETS_PER_PERSON)) c.close(CLOSE.replaced, "Opened in too many places.");
  }

  /** `user:<id>`, `role:<role>` and `session:<id>`, so frames can go to one person or to every admin, and a revoked session's sockets can be found. */
  getConnectionTags(connection: Connection, ctx: ConnectionContext): string[] {
    // Not the id the router gave: no audience at all (onConnect closes it).
    if (connection.id !== ctx.request.headers.get(ADMIT_HEADERS.connection)) return [];
    const userId = ctx.request.headers.get(ADMIT_HEADERS.user);
    const role = ctx.request.headers.get(ADMIT_HEADERS.role);
    const sessionId = ctx.request.headers.get(ADMIT_HEADERS.session);
    return [userId ? `user:${userId}` : null, role ? `role:${role}` : null, sessionId ? `session:${sessionId}` : null].filter((t): t is string => t !== null);
  }

  async onMessage(connection: Connection<ConnectionState>, message: WSMessage) {
    const rate = this.rate(connection.id);
    if (rate === "close") return connection.close(CLOSE.tooFast, "Too many frames.");
    const size = typeof message === "string" ? new TextEncoder().encode(message).byteLength : message.byteLength;
    if (size > MAX_FRAME_BYTES) {
      const clientId = typeof message === "string" ? sendClientId(message) : undefined;
      return this.send(connection, { type: "error", code: "frame_too_large", message: `Frames are limited to ${MAX_FRAME_BYTES} bytes.`, clientId });
    }
    let data: unknown;
    try {
      data = JSON.parse(typeof message === "string" ? message : new TextDecoder().decode(message));
    } catch {
      return this.send(connection, { type: "error", code: "invalid_frame", message: "Frames must be JSON." });
    }
    if (rate === "refuse") {
      return this.send(connection, { type: "error", code: "rate_limited", message: "Slow down: too many messages.", clientId: sendClientId(data) });
    }
    const [{ clientFrame, devClientFrame }, { getSettings }] = await loadParsing();
    const frame = clientFrame.safeParse(data);
    if (frame.success) {
      if (frame.data.type === "ping") return this.send(connection, { type: "pong", t: frame.data.t });
      return this.onFrame(connection, frame.data);
    }
    if (getSettings(this.env).environment === "development") {
      const dev = devClientFrame.safeParse(data);
      if (dev.success) return this.onDevFrame(connection, dev.data);
    }
    // A message that is not one (empty once invisible characters are gone, too long) is refused by name, like the
    // API's 400: its sender can change it or let it go.
    const clientId = sendClientId(data);
    const issue = frame.error.issues[0];
    if (clientId) return this.send(connection, { type: "error", code: "invalid_input", message: issue ? humanIssue(issue) : "Unknown or malformed frame.", clientId });
    // A frame of a known type with a field that breaks its rule (a `chat.send` whose clientId is too short) is told
    // which, as the API's 400 would; an unknown type or a shape that is no frame at all, just that.
    const named = issue && issue.code !== "invalid_union" && issue.path.length > 0 && issue.path[0] !== "type";
    return this.send(connection, { type: "error", code: "invalid_frame", message: named ? humanIssue(issue) : "Unknown or malformed frame." });
  }

  /** A valid frame other than ping. Rooms that take none (user-hub, staff-inbox) refuse it. */
  protected onFrame(connection: Connection<ConnectionState>, _frame: Exclude<ClientFrame, { type: "ping" }>): void | Promise<void> {
    this.send(connection, { type: "error", code: "invalid_frame", message: "This room does not take that frame." });
  }

  /** A development-only frame (bench/soak.mjs); only rooms that implement it answer. */
  protected onDevFrame(connection: Connection<ConnectionState>, _frame: DevClientFrame): void | Promise<void> {
    this.send(connection, { type: "error", code: "invalid_frame", message: "This room does not take that frame." });
  }

  onClose(connection: Connection) {
    this.rates.delete(connection.id);
  }

  /** Pushes a server-built frame to every connection, or only to one user's connections. */
  publish(frame: ServerFrame, toUserId?: string): number {
    const text = JSON.stringify(frame);
    let sent = 0;
    for (const c of this.getConnections(toUserId ? `user:${toUserId}` : undefined)) {
      try {
        c.send(text);
        sent++;
      } catch {
        // A socket closing at this instant; its client resyncs on reconnect.
      }
    }
    return sent;
  }

  /** Pushes a server-built frame to the connections carrying any of `tags` (each connection once). */
  publishToTags(frame: ServerFrame, tags: string[]): number {
    const text = JSON.stringify(frame);
    const seen = new Set<string>();
    for (const tag of tags) {
      for (const c of this.getConnections(tag)) {
        if (seen.has(c.id)) continue;
        seen.add(c.id);
        try {
          c.send(text);
        } catch {
          // A socket closing at this instant; its client resyncs on reconnect.
        }
      }
    }
    return seen.size;
  }

  /** Closes every connection opened under one of `sessionIds` (those sessions were revoked). */
  disconnectSessions(sessionIds: string[], reason = "Your session has ended."): number {
    let closed = 0;
    for (const sessionId of sessionIds) {
      for (const c of this.getConnections(`session:${sessionId}`)) {
        c.close(CLOSE.sessionEnded, reason);
        closed++;
      }
    }
    return closed;
  }

  /**
   * Closes every connection of one user: their right to this room ended (`forbidden`, the default), their session
   * did (`sessionEnded`), or their rights changed and the client should ask again (`accessChanged`).
   */
  disconnectUser(userId: string, reason = "Access ended", code: (typeof CLOSE)["forbidden" | "sessionEnded" | "accessChanged"] = CLOSE.forbidden): number {
    let closed = 0;
    for (const c of this.getConnections(`user:${userId}`)) {
      c.close(code, reason);
      closed++;
    }
    return closed;
  }

  protected send(connection: Connection, frame: ServerFrame) {
    connection.send(JSON.stringify(frame));
  }

  private rate(connectionId: string): Rate {
    const now = Date.now();
    const r = this.rates.get(connectionId);
    if (!r || r.resetAt <= now) {
      this.rates.set(connectionId, { count: 1, resetAt: now + FRAME_RATE.windowMs });
      return "ok";
    }
    r.count++;
    return r.count <= FRAME_RATE.max ? "ok" : r.count <= FRAME_RATE.closeAfter ? "refuse" : "close";
  }
}
