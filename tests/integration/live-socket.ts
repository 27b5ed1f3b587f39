/**
 * A realtime client for the membership tests: it asks the real API for a ticket (so the room's access rules are
 * exercised too), opens the socket through the real Worker and records every frame and the close.
 */
import { SELF } from "cloudflare:test";
import { afterEach, expect } from "vitest";
import type { Party, ServerFrame } from "../../app/lib/realtime-protocol";
import { call, ORIGIN, type SignedIn } from "./factories";
import { eventually } from "./helpers";

export class LiveSocket {
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

  /** The first frame of `type` that matches, waiting up to `timeoutMs`. */
  next<T extends ServerFrame["type"]>(type: T, where: (f: Extract<ServerFrame, { type: T }>) => boolean = () => true, timeoutMs = 3_000) {
    return eventually(
      () => this.frames.find((f): f is Extract<ServerFrame, { type: T }> => f.type === type && where(f as Extract<ServerFrame, { type: T }>)),
      timeoutMs,
      `a ${type} frame`,
    );
  }

  of<T extends ServerFrame["type"]>(type: T) {
    return this.frames.filter((f): f is Extract<ServerFrame, { type: T }> => f.type === type);
  }

  /** Resolves once the server answered a ping sent now: every frame published before it has arrived. */
  async roundTrip(): Promise<void> {
    const t = Math.random();
    this.ws.send(JSON.stringify({ type: "ping", t }));
    await this.next("pong", (f) => f.t === t);
  }

  waitClosed(timeoutMs = 3_000) {
    return eventually(() => this.closed ?? undefined, timeoutMs, "the socket to close");
  }
}

const open: LiveSocket[] = [];
afterEach(() => {
  for (const s of open.splice(0)) if (!s.closed) s.ws.close(1000, "test done");
});

/** Opens `party/room` as `who` with a ticket from POST /api/realtime/ticket, and waits for the welcome frame. */
export async function openRoom(who: SignedIn, party: Party, room: string): Promise<LiveSocket> {
  const res = await call("/api/realtime/ticket", { token: who.accessToken, body: { party, room } });
  expect(res.status).toBe(200);
  const { ticket } = (await res.json()) as { ticket: string };
  const upgraded = await SELF.fetch(`${ORIGIN}/parties/${party}/${room}?ticket=${encodeURIComponent(ticket)}`, {
    headers: { Upgrade: "websocket", Origin: ORIGIN },
  });
  expect(upgraded.status).toBe(101);
  const socket = new LiveSocket(upgraded.webSocket!);
  open.push(socket);
  await socket.next("welcome");
  return socket;
}
