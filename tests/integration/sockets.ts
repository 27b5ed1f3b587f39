/**
 * Realtime test clients that go through the real product path: a ticket from POST /api/realtime/ticket with the
 * user's access token, then a websocket upgrade through the Worker (Origin checked) into the Durable Object.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { afterEach, expect } from "vitest";
import type { Party, ServerFrame } from "../../app/lib/realtime-protocol";
import { FACTS_TTL_MS, type GroupRoom } from "../../worker/realtime/group-room";
import { call, ORIGIN, type SignedIn } from "./factories";
import { eventually } from "./helpers";

type Frame<T extends ServerFrame["type"]> = Extract<ServerFrame, { type: T }>;

/** A client socket that records every frame it receives and how it closed. */
export class SocketClient {
  readonly frames: ServerFrame[] = [];
  closed: { code: number; reason: string } | null = null;

  constructor(readonly ws: WebSocket) {
    ws.addEventListener("message", (e) => {
      this.frames.push(JSON.parse(String(e.data)) as ServerFrame);
    });
    ws.addEventListener("close", (e) => {
      this.closed = { code: e.code, reason: e.reason };
    });
    ws.accept();
  }

  send(frame: unknown) {
    this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /** The first frame of a type (in arrival order) that matches, waiting up to `timeoutMs`. */
  next<T extends ServerFrame["type"]>(type: T, where: (f: Frame<T>) => boolean = () => true, timeoutMs = 3_000): Promise<Frame<T>> {
    return eventually(() => this.of(type).find(where), timeoutMs, `a ${type} frame`);
  }

  of<T extends ServerFrame["type"]>(type: T): Frame<T>[] {
    return this.frames.filter((f): f is Frame<T> => f.type === type);
  }

  /** Ids of the chat messages received live, in arrival order. */
  liveIds(): number[] {
    return this.of("chat.message").map((f) => f.message.id);
  }

  waitClosed(timeoutMs = 3_000) {
    return eventually(() => this.closed ?? undefined, timeoutMs, "the socket to close");
  }

  close() {
    if (!this.closed) this.ws.close(1000, "test done");
  }
}

const open: SocketClient[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

/** POST /api/realtime/ticket as this person; the Response, so refusals can be checked. */
export function requestTicket(who: SignedIn, party: Party, room: string): Promise<Response> {
  return call("/api/realtime/ticket", { body: { party, room }, token: who.accessToken });
}

export async function ticketFor(who: SignedIn, party: Party, room: string): Promise<string> {
  const res = await requestTicket(who, party, room);
  expect(res.status).toBe(200);
  return ((await res.json()) as { ticket: string }).ticket;
}

/** The raw upgrade request (for admission tests). */
export function upgrade(party: Party, room: string, ticket: string | null, origin: string | null = ORIGIN): Promise<Response> {
  const headers: Record<string, string> = { Upgrade: "websocket" };
  if (origin) headers.Origin = origin;
  const q = ticket === null ? "" : `?ticket=${encodeURIComponent(ticket)}`;
  return SELF.fetch(`${ORIGIN}/parties/${party}/${room}${q}`, { headers });
}

/** Opens an admitted socket for this person and waits for its welcome. */
export async function connectAs(who: SignedIn, party: Party, room: string): Promise<SocketClient> {
  const res = await upgrade(party, room, await ticketFor(who, party, room));
  expect(res.status).toBe(101);
  const client = new SocketClient(res.webSocket!);
  open.push(client);
  await client.next("welcome");
  return client;
}

/**
 * Joins a group's chat the way a browser does: connect, `chat.sync` after the last id it holds, wait for the
 * final history page. Returns the client and the history it received.
 */
export async function joinChat(who: SignedIn, groupId: string, after = 0, from?: number) {
  const client = await connectAs(who, "group-room", groupId);
  const history = await syncChat(client, after, from);
  return { client, history };
}

/** Sends `chat.sync` and waits for its answer (the n-th history frame this client receives). */
export async function syncChat(client: SocketClient, after: number, from?: number): Promise<Frame<"chat.history">> {
  const seen = client.of("chat.history").length;
  client.send({ type: "chat.sync", after, ...(from === undefined ? {} : { from }) });
  await eventually(() => (client.of("chat.history").length > seen ? true : undefined), 3_000, "chat.history");
  return client.of("chat.history")[seen]!;
}

/** The group's room, for `runInDurableObject`, `runDurableObjectAlarm` and `evictDurableObject`. */
export function groupRoomStub(groupId: string): DurableObjectStub<GroupRoom> {
  const rooms = env.GroupRoom as unknown as DurableObjectNamespace<GroupRoom>;
  return rooms.get(rooms.idFromName(groupId));
}

/**
 * Lets FACTS_TTL_MS pass for the chat rights the group's room keeps per connection (group-room.ts): a right ended
 * without telling the room (a direct change in D1) counts from the next send on.
 */
export async function ageChatRights(groupId: string): Promise<number> {
  return runInDurableObject(groupRoomStub(groupId), (room: GroupRoom) => {
    const facts = (room as unknown as { facts: Map<string, { checkedAt: number }> }).facts;
    for (const entry of facts.values()) entry.checkedAt -= FACTS_TTL_MS;
    return facts.size;
  });
}
