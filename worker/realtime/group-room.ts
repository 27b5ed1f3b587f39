import type { Connection } from "partyserver";
import type { Actor } from "../../app/lib/permissions";
import type { ClientFrame, DevClientFrame, ErrorFrameCode, ServerFrame } from "../../app/lib/realtime-protocol";
import { CHAT_HISTORY_MAX, CLOSE } from "../../app/lib/realtime-limits";
import type { ServiceContext } from "../context";
import { AppError, notFound } from "../http/errors";
import type { MessageDraft, MessageDto, StoredMessage } from "../services/chat-store";
import type { AllowedChat, CommitResult } from "../services/messages";
import { storedToDto } from "../services/chat-dto";
import { ChatLog } from "./chat-log";
import { RateLeases, type RateWindow } from "./chat-rate";
import { acquireChatRateFrom } from "./publish";
import { Lane } from "./lane";
import { Room, type ConnectionState } from "./room";

/** A group-room connection; `synced` once a `chat.sync` was answered with `more: false` (kept across hibernation). */
interface ChatState extends ConnectionState {
  synced?: boolean;
}

type ChatConnection = Connection<ChatState>;
type SendFrame = Extract<ClientFrame, { type: "chat.send" }>;

/**
 * The chat's services (D1 through Drizzle, the permission and rate rules), imported by the first room that needs
 * them rather than when the Worker starts: every isolate exports this class (docs/decisions/0025-lean-cold-start.md).
 * Every entry point (a frame, an RPC that reaches D1, the alarm) awaits `loadChat()` before it uses `chat()`.
 */
interface ChatModules {
  context: typeof import("../context");
  store: typeof import("../services/chat-store");
  messages: typeof import("../services/messages");
}
let chatModules: ChatModules | null = null;
let chatLoading: Promise<ChatModules> | null = null;
function loadChat(): Promise<ChatModules> {
  chatLoading ??= Promise.all([import("../context"), import("../services/chat-store"), import("../services/messages")]).then(([context, store, messages]) => (chatModules = { context, store, messages }));
  return chatLoading;
}
function chat(): ChatModules {
  if (!chatModules) throw new Error("group-room: the chat's services were used before loadChat()");
  return chatModules;
}

const CODES: Partial<Record<number, ErrorFrameCode>> = { 400: "invalid_input", 401: "unauthorized", 403: "forbidden", 404: "not_found", 409: "conflict", 429: "rate_limited" };

/**
 * A connection's chat rights as D1 last said (its sync, or a send): used for its sends for at most FACTS_TTL_MS
 * (and never past its session's expiry), read again in the background after FACTS_REFRESH_MS. Every product path
 * that ends a right closes the person's sockets in this room (disconnectUser, disconnectSessions), which drops
 * their entries; the bound covers a right ended any other way.
 */
export const FACTS_TTL_MS = 30_000;
const FACTS_REFRESH_MS = 10_000;
/** Message ids reserved in D1 at a time; the next block is reserved when half of what is left is used. */
const ID_BLOCK = 64;
/** How long a socket send's write-through waits for others to join its batch. */
const FLUSH_DELAY_MS = 20;
/** Messages per write-through batch (two statements each). */
const FLUSH_BATCH = 40;
/** A failed write-through is retried by the alarm after 1 s, 2 s, 4 s... at most a minute apart. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 60_000;
/** Set with each stored message: if the room is gone before its write-through finished, the alarm wakes it to finish. */
const ALARM_SAFETY_MS = 10_000;

interface CachedFacts {
  actor: Actor;
  name: string;
  /** The group's facts and status as last read (an archived group's chat takes no message: requireChatOpen). */
  group: AllowedChat["group"];
  groupStatus: string;
  checkedAt: number;
  /** When the acting session expires. */
  until: number;
  refreshing: boolean;
}

/**
 * One per course group (room name = group id): its chat now, live attendance later.
 *
 * Persist first, locally (docs/decisions/0026-chat-persist-first.md): a message is numbered from ids the room
 * reserved in D1, stored in the room's own SQLite storage (ChatLog), broadcast and acknowledged; then it is written
 * through to D1, where every query reads it, retried by the alarm until D1 has it. A `chat.sync` merges what D1
 * has with what the room has not written through yet.
 *
 * Every store and broadcast of this group's chat runs in one lane (lane.ts), whether the message came over this
 * socket or over HTTP (`commitMessage` over RPC), so broadcasts leave in id order. A connection receives chat
 * frames only after its first complete `chat.sync`; from then on it gets each message once, in order, without
 * gaps. An evicted or restarted room loses nothing: its storage keeps what D1 does not have yet, and clients
 * reconnect and sync.
 */
export class GroupRoom extends Room {
  readonly party = "group-room" as const;
  private readonly lane = new Lane();
  /** Each connection's sends, one after another, so one person's messages keep the order they were typed in. */
  private readonly sending = new Map<string, Promise<void>>();
  private readonly facts = new Map<string, CachedFacts>();
  private svc: ServiceContext | null = null;
  private chatLog: ChatLog | null = null;
  private rateLeases: RateLeases | null = null;
  /** Lease requests in flight, per user (one at a time). */
  private readonly acquiring = new Map<string, Promise<void>>();
  private keysImported = false;
  private readying: Promise<void> | null = null;
  private reserving: Promise<void> | null = null;
  /** A write-through run that has not started yet (callers share it), and the chain of runs. */
  private flushQueued: Promise<boolean> | null = null;
  private flushTail: Promise<unknown> = Promise.resolve();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  private alarmArmed = false;

  private services(): ServiceContext {
    this.svc ??= chat().context.createServiceContext(this.env, this.ctx);
    return this.svc;
  }

  private log(): ChatLog {
    this.chatLog ??= new ChatLog(this.ctx.storage);
    return this.chatLog;
  }

  private sendRates(): RateLeases {
    this.rateLeases ??= new RateLeases(this.ctx.storage.sql);
    return this.rateLeases;
  }

  /**
   * RPC (POST /api/messages, checks done by the caller): counts the send against the author's limit, stores the
   * draft (idempotent per author and clientId), broadcasts it if new, then tries D1.
   */
  async commitMessage(draft: MessageDraft): Promise<CommitResult> {
    await loadChat();
    try {
      if (!(await this.isResend(draft.authorId, draft.clientId))) await this.admitRate(draft.authorId);
    } catch (e) {
      if (e instanceof AppError && e.status === 429) return { refused: "rate_limited", retryAfter: e.retryAfterSeconds ?? 1 };
      throw e;
    }
    const result = await this.commit(draft);
    // Over HTTP the answer waits for the write-through, so the sender's next GET sees the message; if D1 refused,
    // the message is kept here all the same and the alarm retries.
    if (result.created) await this.requestFlush();
    return result;
  }

  /** RPC from a UserHub: gives back the user's chat rate counter of lease `epoch` (chat-rate.ts). */
  releaseChatRate(userId: string, epoch: number): RateWindow | null {
    return this.sendRates().release(userId, epoch);
  }

  /** RPC: whether message `id` is one of this group's that the room knows. */
  hasMessage(id: number): boolean {
    return this.log().has(id);
  }

  /** RPC: a message stored here and not written through yet, or null. */
  pendingMessage(id: number): MessageDto | null {
    const m = this.log().pending(id);
    return m ? storedToDto(m) : null;
  }

  /**
   * RPC (DELETE /api/messages/{id}, permission checked by the caller): erases the text and broadcasts `chat.deleted`
   * in lane order. A message not written through yet is changed here and goes through again; one in D1 is changed
   * there. Returns the deletion time, or null if it was deleted already (nothing is broadcast then).
   */
  async deleteChatMessage(id: number): Promise<string | null> {
    await loadChat();
    const at = Date.now();
    const local = this.log().markDeleted(id, at);
    if (local === "already") return null;
    let deletedAt: string | null = new Date(at).toISOString();
    if (local === "deleted") this.armAlarm();
    else deletedAt = (await chat().store.markDeleted(this.services(), id))?.toISOString() ?? null;
    if (!deletedAt) return null;
    await this.lane.write(() => void this.fanOut({ type: "chat.deleted", id, groupId: this.name }));
    if (local === "deleted") await this.requestFlush();
    return deletedAt;
  }

  protected async onFrame(connection: ChatConnection, frame: Exclude<ClientFrame, { type: "ping" }>): Promise<void> {
    await loadChat();
    switch (frame.type) {
      case "chat.send":
        return this.queueSend(connection, frame);
      case "chat.sync":
        return this.sync(connection, frame.after, frame.from);
    }
  }

  protected onDevFrame(_connection: ChatConnection, frame: DevClientFrame): Promise<void> {
    return this.lane.write(() => void this.fanOut({ type: "dev.broadcast", t: frame.t, ...(frame.body ? { body: frame.body } : {}) }));
  }

  /** The alarm: writes through what is left (after a failure, or a room that went away mid-write). */
  async onAlarm(): Promise<void> {
    await loadChat();
    this.alarmArmed = false;
    const done = await this.requestFlush();
    if (done && this.log().pendingCount() > 0) this.armAlarm();
  }

  onClose(connection: Connection) {
    super.onClose(connection);
    this.facts.delete(connection.id);
  }

  disconnectUser(...args: Parameters<Room["disconnectUser"]>): number {
    for (const c of this.getConnections(`user:${args[0]}`)) this.facts.delete(c.id);
    return super.disconnectUser(...args);
  }

  disconnectSessions(...args: Parameters<Room["disconnectSessions"]>): number {
    for (const sessionId of args[0]) for (const c of this.getConnections(`session:${sessionId}`)) this.facts.delete(c.id);
    return super.disconnectSessions(...args);
  }

  private queueSend(connection: ChatConnection, frame: SendFrame): Promise<void> {
    const next = (this.sending.get(connection.id) ?? Promise.resolve()).then(() => this.send1(connection, frame));
    this.sending.set(connection.id, next);
    void next.finally(() => {
      if (this.sending.get(connection.id) === next) this.sending.delete(connection.id);
    });
    return next;
  }

  /** The socket's `chat.send`: the steps of sendMessage (services/messages.ts), with the rights this connection was last found to have. */
  private async send1(connection: ChatConnection, frame: SendFrame): Promise<void> {
    try {
      const facts = await this.factsFor(connection);
      chat().messages.requireChatOpen(facts);
      const replyTo = frame.replyTo ?? null;
      if (replyTo && !this.log().has(replyTo) && !(await chat().store.messageInGroup(this.services(), this.name, replyTo))) throw chat().messages.replyNotInGroup();
      if (!(await this.isResend(facts.actor.userId, frame.clientId))) await this.admitRate(facts.actor.userId);
      const draft = { groupId: this.name, authorId: facts.actor.userId, authorName: facts.name, authorRole: facts.actor.role, text: frame.text, clientId: frame.clientId, replyTo };
      const { message } = await this.commit(draft);
      this.trySend(connection, { type: "chat.ack", clientId: frame.clientId, id: message.id });
    } catch (e) {
      this.refuse(connection, e, frame.clientId);
    }
  }

  /**
   * Whether this author's clientId names a message the room has stored: a resend after a lost ack, answered with
   * that message and not counted against the limit again (the limit counts messages, not attempts).
   */
  private async isResend(authorId: string, clientId: string): Promise<boolean> {
    await this.ready();
    return this.log().idOf(authorId, clientId) !== null;
  }

  /** Counts one send against the person's limit (429 past it), with the counter this room holds or takes over. */
  private async admitRate(userId: string): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const hit = this.sendRates().hit(userId, chat().messages.CHAT_SEND_LIMIT, Date.now());
      if (hit) {
        if (hit.retryAfter !== null) throw chat().messages.sendingTooFast(hit.retryAfter);
        return;
      }
      // Another room took the counter (or nobody gave it here yet): ask the person's UserHub for it.
      await this.acquireRate(userId);
    }
    throw new Error("The chat rate counter could not be taken over");
  }

  private acquireRate(userId: string): Promise<void> {
    let pending = this.acquiring.get(userId);
    if (!pending) {
      pending = acquireChatRateFrom(this.env, userId, this.name)
        .then((lease) => this.sendRates().take(userId, lease))
        .finally(() => this.acquiring.delete(userId));
      this.acquiring.set(userId, pending);
    }
    return pending;
  }

  /**
   * Stores a draft unless its author's clientId is known (then answers that message), numbering it with the next
   * reserved id, and broadcasts it; one lane write, which waits on D1 only when no reserved id is left.
   */
  private async commit(draft: MessageDraft): Promise<{ message: MessageDto; created: boolean }> {
    await this.ready();
    const result = await this.lane.write(async () => {
      const log = this.log();
      const existing = log.idOf(draft.authorId, draft.clientId);
      if (existing !== null) return { created: false as const, id: existing };
      const stamped = { ...draft, createdAt: Date.now() };
      let stored = log.append(stamped);
      if (!stored) {
        await this.reserve();
        stored = log.append(stamped);
        if (!stored) throw new Error("No message id could be reserved");
      }
      this.armAlarm();
      const message = storedToDto(stored);
      this.fanOut({ type: "chat.message", message });
      return { created: true as const, message };
    });
    if (!result.created) return { message: await this.messageOf(result.id), created: false };
    this.topUp();
    this.flushSoon();
    return { message: result.message, created: true };
  }

  private async messageOf(id: number): Promise<MessageDto> {
    const pending = this.log().pending(id);
    if (pending) return storedToDto(pending);
    const stored = await chat().store.messageById(this.services(), id);
    if (!stored) throw new Error(`Message ${id} is known to the room but not found in D1`);
    return stored;
  }

  /** Before the first send: the keys D1 had before this room kept its own are imported, and ids are reserved. */
  private ready(): Promise<void> {
    const log = this.log();
    if (!this.keysImported) this.keysImported = log.keysImported();
    if (this.keysImported && log.idsLeft() > 0) {
      this.topUp();
      return Promise.resolve();
    }
    this.readying ??= (async () => {
      if (!this.keysImported) {
        log.importKeys(await chat().store.groupMessageKeys(this.services(), this.name));
        this.keysImported = true;
      }
      if (log.idsLeft() === 0) await this.reserve();
    })().finally(() => {
      this.readying = null;
    });
    return this.readying;
  }

  /** Reserves the next block of ids in D1 (one reservation at a time). */
  private reserve(): Promise<void> {
    this.reserving ??= (async () => {
      const block = await chat().store.reserveIdBlock(this.services(), this.name, ID_BLOCK);
      this.log().addBlock(block.start, block.end);
    })().finally(() => {
      this.reserving = null;
    });
    return this.reserving;
  }

  /** Reserves more ids in the background once half a block is left, so sends do not wait for D1. */
  private topUp() {
    if (this.reserving || this.log().idsLeft() >= ID_BLOCK / 2) return;
    this.reserve().catch((e) => console.warn(`group-room ${this.name}: reserving message ids failed; the next send tries again`, e));
  }

  /**
   * Writes the outbox through shortly: the messages of a busy moment go to D1 in one batch, and the D1 write does
   * not compete with the broadcast it follows.
   */
  private flushSoon() {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      void this.requestFlush();
    }, FLUSH_DELAY_MS);
  }

  /** Writes the outbox through to D1 in a run that starts after this call; true when the outbox is empty after it. */
  private requestFlush(): Promise<boolean> {
    if (this.flushQueued) return this.flushQueued;
    const run = this.flushTail.then(() => {
      this.flushQueued = null;
      return this.flushOnce();
    });
    this.flushQueued = run;
    this.flushTail = run.catch(() => undefined);
    return run;
  }

  private async flushOnce(): Promise<boolean> {
    const log = this.log();
    for (;;) {
      const rows = log.toFlush(FLUSH_BATCH);
      if (rows.length === 0) {
        this.failures = 0;
        return true;
      }
      try {
        await chat().store.writeThrough(this.services(), rows);
      } catch (e) {
        this.failures++;
        const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(this.failures - 1, 10));
        // Not an error: the messages are stored here and the alarm tries again.
        console.warn(`group-room ${this.name}: writing ${rows.length} message(s) through to D1 failed (attempt ${this.failures}); retrying in ${delay} ms`, e);
        this.alarmArmed = true;
        await this.ctx.storage.setAlarm(Date.now() + delay);
        return false;
      }
      log.confirm(rows);
    }
  }

  private armAlarm() {
    if (this.alarmArmed) return;
    this.alarmArmed = true;
    void this.ctx.storage.setAlarm(Date.now() + ALARM_SAFETY_MS);
  }

  private sync(connection: ChatConnection, after: number, from: number | undefined): Promise<void> {
    return this.lane.read(async () => {
      try {
        // What the room holds that D1 may not have yet, read before D1 (see syncMessages).
        const log = this.log();
        const pending = {
          messages: log.pendingAfter(after, CHAT_HISTORY_MAX + 1).map(storedToDto),
          deleted: from !== undefined && from <= after ? log.pendingDeleted(from, after) : [],
        };
        const { facts, ...history } = await chat().messages.syncMessages(this.services(), actorOf(connection), this.name, after, from, pending);
        this.remember(connection, facts);
        if (!this.trySend(connection, { type: "chat.history", ...history })) return;
        if (!history.more && !connection.state?.synced) connection.setState({ ...connection.state!, synced: true });
        // Someone who syncs may send next: have keys, ids and their rate counter here before they do.
        const warn = (e: unknown) => console.warn(`group-room ${this.name}: preparing to send failed; the next send tries again`, e);
        this.ready().catch(warn);
        if (!this.sendRates().holds(facts.actor.userId)) this.acquireRate(facts.actor.userId).catch(warn);
      } catch (e) {
        this.refuse(connection, e);
      }
    });
  }

  /** This connection's chat rights: as last read when recent enough (see FACTS_TTL_MS), else read from D1 now. */
  private async factsFor(connection: ChatConnection): Promise<CachedFacts> {
    const now = Date.now();
    const known = this.facts.get(connection.id);
    if (known && now - known.checkedAt < FACTS_TTL_MS && now < known.until) {
      if (now - known.checkedAt > FACTS_REFRESH_MS && !known.refreshing) {
        known.refreshing = true;
        void this.readFacts(connection).catch((e) => {
          known.refreshing = false;
          // A right that ended: the same answer a send would get, and the socket closes.
          if (e instanceof AppError && (e.status === 401 || e.status === 403 || e.status === 404)) this.refuse(connection, e);
        });
      }
      return known;
    }
    return this.readFacts(connection);
  }

  private async readFacts(connection: ChatConnection): Promise<CachedFacts> {
    try {
      const facts = await chat().messages.requireChat(this.services(), actorOf(connection), this.name);
      if (facts.groupId !== this.name) throw notFound("No such group.");
      return this.remember(connection, facts);
    } catch (e) {
      this.facts.delete(connection.id);
      throw e;
    }
  }

  private remember(connection: ChatConnection, facts: AllowedChat): CachedFacts {
    const entry = { actor: facts.actor, name: facts.actorName, group: facts.group, groupStatus: facts.groupStatus, checkedAt: Date.now(), until: facts.sessionExpiresAt, refreshing: false };
    if (connection.readyState === WebSocket.OPEN) this.facts.set(connection.id, entry);
    return entry;
  }

  /** Sends to every synced connection; returns how many got it. */
  private fanOut(frame: ServerFrame): number {
    const text = JSON.stringify(frame);
    let sent = 0;
    for (const c of this.getConnections<ChatState>()) {
      if (!c.state?.synced) continue;
      try {
        c.send(text);
        sent++;
      } catch {
        // Closing at this instant: the client syncs when it reconnects.
      }
    }
    return sent;
  }

  /** Answers a refused frame; a refusal of the room itself (403, 404) also ends the connection. */
  private refuse(connection: ChatConnection, e: unknown, clientId?: string) {
    if (!(e instanceof AppError)) {
      console.error("group-room: a chat frame failed", e);
      this.trySend(connection, { type: "error", code: "server_error", message: "Something went wrong. Please try again.", clientId });
      return;
    }
    const open = this.trySend(connection, { type: "error", code: e.code === "course_ended" ? "course_ended" : (CODES[e.status] ?? "server_error"), message: e.message, clientId, ...(e.status === 429 && e.retryAfterSeconds ? { retryAfter: e.retryAfterSeconds } : {}) });
    // A session that expired or was revoked behind the room's back is told to log in again, not "no access".
    const ending = e.status === 401 ? { code: CLOSE.sessionEnded, reason: e.message } : e.status === 403 || e.status === 404 ? { code: CLOSE.forbidden, reason: "Your access to this group has ended." } : null;
    if (open && ending) {
      this.facts.delete(connection.id);
      connection.close(ending.code, ending.reason);
    }
  }

  /** False when the socket has closed meanwhile (its client syncs again when it reconnects). */
  private trySend(connection: Connection, frame: ServerFrame): boolean {
    if (connection.readyState !== WebSocket.OPEN) return false;
    try {
      this.send(connection, frame);
      return true;
    } catch {
      return false;
    }
  }
}

function actorOf(connection: ChatConnection): Actor {
  const state = connection.state;
  if (!state) throw new AppError(403, "forbidden", "Not admitted.");
  return { userId: state.userId, role: state.role, sessionId: state.sessionId };
}
