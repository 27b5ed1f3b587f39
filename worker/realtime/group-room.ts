import type { Connection } from "partyserver";
import type { Actor } from "../../app/lib/permissions";
import type { ChatFrame, ClientFrame, DevClientFrame, ErrorFrameCode, ServerFrame } from "../../app/lib/realtime-protocol";
import type { ServiceContext } from "../context";
import { AppError } from "../http/errors";
import type { MessageDraft, MessageDto } from "../services/chat-store";
import { Lane } from "./lane";
import { Room, type ConnectionState } from "./room";

/** A group-room connection; `synced` once a `chat.sync` was answered with `more: false` (kept across hibernation). */
interface ChatState extends ConnectionState {
  synced?: boolean;
}

type ChatConnection = Connection<ChatState>;
type SendFrame = Extract<ClientFrame, { type: "chat.send" }>;

const CODES: Partial<Record<number, ErrorFrameCode>> = { 400: "invalid_input", 403: "forbidden", 404: "not_found", 409: "conflict", 429: "rate_limited" };

/**
 * The chat's services, imported by the first room that needs them rather than when the Worker starts (every
 * isolate exports this class; docs/decisions/0025-lean-cold-start.md).
 */
let chatServices: Promise<[typeof import("../context"), typeof import("../services/chat-store"), typeof import("../services/messages")]> | null = null;
function loadChat() {
  chatServices ??= Promise.all([import("../context"), import("../services/chat-store"), import("../services/messages")]);
  return chatServices;
}

/**
 * One per course group (room name = group id): its chat now, live attendance later.
 *
 * Every store and broadcast of this group's chat runs in one lane (lane.ts), whether the message came over this
 * socket or over HTTP (`commitMessage` over RPC), so broadcasts leave in id order. A connection receives chat
 * frames only after its first complete `chat.sync`; from then on it gets each message once, in order, without
 * gaps. Messages live in D1, so an evicted or restarted room loses nothing: clients reconnect and sync.
 */
export class GroupRoom extends Room {
  readonly party = "group-room" as const;
  private readonly lane = new Lane();
  /** Each connection's sends, one after another, so one person's messages keep the order they were typed in. */
  private readonly sending = new Map<string, Promise<void>>();
  private svc: ServiceContext | null = null;

  private async services(): Promise<ServiceContext> {
    const [{ createServiceContext }] = await loadChat();
    this.svc ??= createServiceContext(this.env, this.ctx);
    return this.svc;
  }

  /** RPC (and chat.send): stores the draft (idempotent per author and clientId) and broadcasts it if it is new. */
  commitMessage(draft: MessageDraft): Promise<{ message: MessageDto; created: boolean }> {
    return this.lane.write(async () => {
      const [, { storeMessage }] = await loadChat();
      const result = await storeMessage(await this.services(), draft);
      if (result.created) this.fanOut({ type: "chat.message", message: result.message });
      return result;
    });
  }

  /** RPC: pushes a chat frame whose change is already stored (a deletion) to the synced connections, in lane order. */
  broadcastChat(frame: ChatFrame): Promise<number> {
    return this.lane.write(() => this.fanOut(frame));
  }

  protected onFrame(connection: ChatConnection, frame: Exclude<ClientFrame, { type: "ping" }>): Promise<void> {
    switch (frame.type) {
      case "chat.send":
        return this.queueSend(connection, frame);
      case "chat.sync":
        return this.sync(connection, frame.after, frame.from);
    }
  }

  protected onDevFrame(_connection: ChatConnection, frame: DevClientFrame): Promise<void> {
    return this.lane.write(() => void this.fanOut({ type: "dev.broadcast", t: frame.t }));
  }

  private queueSend(connection: ChatConnection, frame: SendFrame): Promise<void> {
    const next = (this.sending.get(connection.id) ?? Promise.resolve()).then(() => this.send1(connection, frame));
    this.sending.set(connection.id, next);
    void next.finally(() => {
      if (this.sending.get(connection.id) === next) this.sending.delete(connection.id);
    });
    return next;
  }

  private async send1(connection: ChatConnection, frame: SendFrame): Promise<void> {
    try {
      const input = { groupId: this.name, text: frame.text, clientId: frame.clientId, replyTo: frame.replyTo };
      const [, , { sendMessage }] = await loadChat();
      const { message } = await sendMessage(await this.services(), actorOf(connection), input, (draft) => this.commitMessage(draft));
      this.trySend(connection, { type: "chat.ack", clientId: frame.clientId, id: message.id });
    } catch (e) {
      this.refuse(connection, e, frame.clientId);
    }
  }

  private sync(connection: ChatConnection, after: number, from: number | undefined): Promise<void> {
    return this.lane.read(async () => {
      try {
        const [, , { syncMessages }] = await loadChat();
        const history = await syncMessages(await this.services(), actorOf(connection), this.name, after, from);
        if (!this.trySend(connection, { type: "chat.history", ...history })) return;
        if (!history.more && !connection.state?.synced) connection.setState({ ...connection.state!, synced: true });
      } catch (e) {
        this.refuse(connection, e);
      }
    });
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
    const open = this.trySend(connection, { type: "error", code: CODES[e.status] ?? "server_error", message: e.message, clientId });
    if (open && (e.status === 403 || e.status === 404)) connection.close(4403, "Your access to this group has ended.");
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
