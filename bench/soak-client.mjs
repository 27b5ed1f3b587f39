// One chat client for bench/soak.mjs, following the protocol a browser follows (docs/decisions/0007):
// ticket -> connect -> welcome -> chat.sync {after: last id held, from: oldest id held} -> chat.history pages until
// more: false -> live chat frames. Sends carry a clientId and are retried with the same clientId after a reconnect
// until acknowledged. Every id received is checked: a repeat counts as a duplicate.

let counter = 0;

export class SoakClient {
  /** Message ids held, in the order received. */
  ids = [];
  deleted = new Set();
  duplicates = 0;
  reconnects = 0;
  /** Sends repeated after a reconnect because their ack had not arrived. */
  resent = 0;
  /** Connection attempts that failed before the socket opened (retried with backoff). */
  failedAttempts = 0;
  /** The last live chat.message's message, as it came (bench/chat.mjs copies its shape for the baseline). */
  lastMessage = null;
  #held = new Set();
  #cursor = 0;
  #ws = null;
  #synced = false;
  #stopped = false;
  #opening = false;
  /** Resolvers of connect() calls, settled by the next complete sync. */
  #waiting = [];
  /** clientId -> frame, until acknowledged. */
  #pending = new Map();
  #attempted = new Set();
  #acks = new Map();
  #seen = { chat: new Map(), dev: new Map() };

  constructor({ origin, groupId, token, name }) {
    this.origin = origin;
    this.groupId = groupId;
    this.token = token;
    this.name = name;
  }

  /** Opens the socket (retrying until it works) and resolves once its history is complete. */
  connect() {
    const synced = new Promise((resolve) => this.#waiting.push(resolve));
    void this.#open();
    return synced;
  }

  /** Closes the socket as a flaky network would and reconnects after `delayMs`. */
  drop(delayMs) {
    const ws = this.#ws;
    this.#ws = null;
    this.#synced = false;
    ws?.close(1000, "soak: simulated drop");
    this.reconnects++;
    setTimeout(() => void this.#open(), delayMs);
  }

  async #open() {
    if (this.#stopped || this.#ws || this.#opening) return;
    this.#opening = true;
    try {
      const res = await fetch(`${this.origin}/api/realtime/ticket`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: this.token },
        body: JSON.stringify({ party: "group-room", room: this.groupId }),
      });
      if (!res.ok) throw new Error(`ticket: ${res.status} ${await res.text()}`);
      const { ticket } = await res.json();
      if (this.#stopped) return;
      const url = `${this.origin.replace(/^http/, "ws")}/parties/group-room/${this.groupId}?ticket=${encodeURIComponent(ticket)}`;
      // Node's WebSocket (undici) takes headers; a browser sends its Origin by itself.
      const ws = new WebSocket(url, { headers: { origin: this.origin } });
      this.#ws = ws;
      this.#synced = false;
      ws.addEventListener("message", (e) => {
        if (this.#ws === ws) this.#frame(JSON.parse(String(e.data)));
      });
      ws.addEventListener("close", () => {
        if (this.#ws !== ws || this.#stopped) return;
        // Closed by the server or the network: come back, as a browser would.
        this.#ws = null;
        this.#synced = false;
        this.reconnects++;
        setTimeout(() => void this.#open(), 100);
      });
    } catch (e) {
      this.failedAttempts++;
      if (this.failedAttempts <= 3) console.error(`${this.name}: connecting failed (${e.message}); retrying`);
      setTimeout(() => void this.#open(), Math.min(2000, 100 * 2 ** Math.min(this.failedAttempts, 5)));
    } finally {
      this.#opening = false;
    }
  }

  stop() {
    this.#stopped = true;
    this.#ws?.close(1000, "soak: done");
  }

  isSynced() {
    return this.#synced && this.#ws?.readyState === WebSocket.OPEN;
  }

  pendingCount() {
    return this.#pending.size;
  }

  /** Sends a chat message (now, or after the next sync) and returns its clientId. */
  sendChat(text) {
    const clientId = `${this.name}-${++counter}-${Math.random().toString(36).slice(2, 10)}`;
    this.#pending.set(clientId, { type: "chat.send", text, clientId });
    if (this.isSynced()) this.#sendPending(clientId);
    return clientId;
  }

  /**
   * Development-only broadcast of nothing stored (with `body` sent back to everyone as it is, when given); returns
   * its key.
   */
  sendDevBroadcast(t, body) {
    this.#ws.send(JSON.stringify(body ? { type: "dev.broadcast", t, body } : { type: "dev.broadcast", t }));
    return t;
  }

  received(kind, key) {
    return this.#seen[kind].get(key);
  }

  ackedAt(clientId) {
    return this.#acks.get(clientId)?.at;
  }

  idOf(clientId) {
    return this.#acks.get(clientId)?.id;
  }

  sentClientIds() {
    return [...this.#attempted];
  }

  #sendPending(clientId) {
    if (this.#attempted.has(clientId)) this.resent++;
    this.#attempted.add(clientId);
    this.#ws.send(JSON.stringify(this.#pending.get(clientId)));
  }

  #sync() {
    const from = this.ids.length > 0 ? { from: this.ids[0] } : {};
    this.#ws.send(JSON.stringify({ type: "chat.sync", after: this.#cursor, ...from }));
  }

  #take(message) {
    if (this.#held.has(message.id)) {
      this.duplicates++;
      return;
    }
    this.#held.add(message.id);
    this.ids.push(message.id);
    this.#cursor = Math.max(this.#cursor, message.id);
    if (message.deletedAt) this.deleted.add(message.id);
    if (message.clientId && !this.#seen.chat.has(message.clientId)) this.#seen.chat.set(message.clientId, performance.now());
  }

  #frame(f) {
    switch (f.type) {
      case "welcome":
        return this.#sync();
      case "chat.history":
        for (const m of f.messages) this.#take(m);
        for (const id of f.deleted) this.deleted.add(id);
        if (f.more) return this.#sync();
        this.#synced = true;
        for (const clientId of this.#pending.keys()) this.#sendPending(clientId);
        for (const resolve of this.#waiting.splice(0)) resolve();
        return;
      case "chat.message":
        this.lastMessage = f.message;
        return this.#take(f.message);
      case "chat.deleted":
        return void this.deleted.add(f.id);
      case "chat.ack":
        this.#acks.set(f.clientId, { id: f.id, at: performance.now() });
        return void this.#pending.delete(f.clientId);
      case "dev.broadcast":
        return void this.#seen.dev.set(f.t, performance.now());
      case "error":
        if (f.code === "rate_limited" && f.clientId) {
          // Slowed down: the send stays pending and goes again in a second (or after the next sync).
          const id = f.clientId;
          return void setTimeout(() => this.isSynced() && this.#pending.has(id) && this.#sendPending(id), 1000);
        }
        return console.error(`${this.name}: ${f.code}: ${f.message}`);
    }
  }
}
