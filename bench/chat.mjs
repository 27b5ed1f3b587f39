// Group chat, persist-first against broadcast-only (docs/decisions/0026-chat-persist-first.md,
// docs/decisions/0066-exercise-reruns-ended-threads-and-the-chats-baseline.md): N clients synced in one group room; one sample in
// flight at a time, the three kinds interleaved (their order rotating), senders rotating:
//   persist-first:   chat.send from one client until every client (the sender too) has the chat.message and the
//                    sender its ack
//   broadcast alone: dev.broadcast (development only: same socket, room and lane, stores and checks nothing)
//                    carrying a message of the chat's own shape and size (a copy of the last chat.message's, with
//                    its own id, text and time), until every client has it
//   empty broadcast: the same with a 30-byte frame (the baseline of the runs before ADR 66, printed beside it)
// Prints p50 and p99 of each and the ratios persist/broadcast. Loopback only; bounded in count and time.
//
//   chatPersistVsBroadcast(origin, { clients, samples })   against a running Worker with the dev seed route
//   node bench/chat.mjs [--build] [--clients N] [--samples N]   serves the built Worker on a fresh database first
import { pathToFileURL } from "node:url";
import { ip, json, runWorkerBench } from "./burst-kit.mjs";
import { quantile } from "./load.mjs";
import { SoakClient } from "./soak-client.mjs";

const WARMUP = 10;
const SAMPLE_TIMEOUT_MS = 10_000;
const RUN_LIMIT_MS = 240_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(1);
  }
}

function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function pool(items, size, work) {
  const queue = [...items];
  await Promise.all(Array.from({ length: Math.min(size, queue.length) }, async () => {
    while (queue.length) await work(queue.shift());
  }));
}

/**
 * Measures persist-first against broadcast-alone fan-out in a fresh soak group of `clients` students at `origin`
 * (a running Worker in development: it needs POST /api/dev/seed and the dev.broadcast frame). Returns
 * `{ clients, samples, persist: {p50, p99}, broadcast: {p50, p99}, ratio: {p50, p99} }` in ms, and prints them.
 */
export async function chatPersistVsBroadcast(origin, { clients = 50, samples = 150 } = {}) {
  const started = performance.now();
  const post = (path, body, token, from) =>
    fetch(`${origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, ...(from ? { "cf-connecting-ip": from } : {}), ...(token ? { authorization: token } : {}) },
      body: JSON.stringify(body),
    });
  const { soak } = await json(await post("/api/dev/seed", { soak: { users: clients } }), "soak seed");
  const tokens = new Array(clients);
  await pool([...soak.emails.keys()], 8, async (i) => {
    tokens[i] = (await json(await post("/api/users/login", { email: soak.emails[i], password: soak.password }, undefined, ip(i)), "login")).accessToken;
  });
  const room = tokens.map((token, i) => new SoakClient({ origin, groupId: soak.group._id, token, name: `chat${i}` }));
  try {
    await pool(room, 16, (c) => within(c.connect(), 30_000, `${c.name} to connect and sync`));

    /** One measured send: the time until every client has it (and, for a chat message, the sender its ack). */
    const sample = async (kind, sender, n) => {
      const t0 = performance.now();
      const key = kind === "chat" ? sender.sendChat(`bench ${n}`) : sender.sendDevBroadcast(kind === "dev" ? 2 * n : 2 * n + 1, kind === "dev" ? messageLike(n) : undefined);
      const seen = kind === "chat" ? "chat" : "dev";
      await until(() => room.every((c) => c.received(seen, key) !== undefined) && (kind !== "chat" || sender.ackedAt(key) !== undefined), SAMPLE_TIMEOUT_MS, `${kind} sample ${n} at every client`);
      return Math.max(...room.map((c) => c.received(seen, key))) - t0;
    };
    /** A message of the chat's own shape and size: the last one broadcast, with an id, text and time of its own. */
    const messageLike = (n) => {
      const last = room[0].lastMessage;
      if (!last) throw new Error("chat bench: no chat.message seen before the first broadcast");
      return { ...last, id: last.id + 1, text: `bench ${n}`, createdAt: new Date().toISOString() };
    };
    const times = { chat: [], dev: [], empty: [] };
    const kinds = ["chat", "dev", "empty"];
    for (let n = 0; n < WARMUP + samples; n++) {
      if (performance.now() - started > RUN_LIMIT_MS) throw new Error(`chat bench: still sampling after ${RUN_LIMIT_MS / 1000} s`);
      // Senders rotate (each person stays far below the chat's 20 messages per 10 s); the order of the kinds rotates.
      const order = [...kinds.slice(n % 3), ...kinds.slice(0, n % 3)];
      for (const [i, kind] of order.entries()) {
        const t = await sample(kind, room[(n * 7 + i * 3) % clients], n);
        if (n >= WARMUP) times[kind].push(t);
      }
    }
    const stats = (xs) => ({ p50: quantile(xs, 0.5), p99: quantile(xs, 0.99) });
    const ratio = (a, b) => ({ p50: a.p50 / b.p50, p99: a.p99 / b.p99 });
    const result = { clients, samples, persist: stats(times.chat), broadcast: stats(times.dev), empty: stats(times.empty) };
    result.ratio = ratio(result.persist, result.broadcast);
    result.ratioEmpty = ratio(result.persist, result.empty);
    printChatPersistVsBroadcast(result);
    return result;
  } finally {
    for (const c of room) c.stop();
  }
}

export function printChatPersistVsBroadcast(r) {
  const ms = (x) => x.toFixed(1).padStart(7);
  const x = (v) => `${v.toFixed(2).padStart(6)}x`;
  console.log(`Group chat fan-out to ${r.clients} clients, ${r.samples} interleaved samples of each (ms)      p50      p99`);
  console.log(`  persist-first: chat.send -> every client has it, sender its ack  ${ms(r.persist.p50)}  ${ms(r.persist.p99)}`);
  console.log(`  broadcast alone: the same size of message, stored nowhere        ${ms(r.broadcast.p50)}  ${ms(r.broadcast.p99)}`);
  console.log(`  empty broadcast: a 30-byte frame, stored nowhere                 ${ms(r.empty.p50)}  ${ms(r.empty.p99)}`);
  console.log(`  persist-first / broadcast alone (goal 1.1x at p99)               ${x(r.ratio.p50)}  ${x(r.ratio.p99)}`);
  console.log(`  persist-first / empty broadcast (the runs before ADR 66)         ${x(r.ratioEmpty.p50)}  ${x(r.ratioEmpty.p99)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Math.max(1, Number.parseInt(process.argv[i + 1], 10) || fallback) : fallback;
  };
  await runWorkerBench("chat", { watchdogMs: 4 * 60_000, runner: false }, async ({ origin }) => {
    await chatPersistVsBroadcast(origin, { clients: arg("--clients", 50), samples: arg("--samples", 150) });
  });
}
