// Realtime soak: N clients in one group room, random disconnects and reconnects while messages flow; then every
// client's message ids must equal the server's, in order. Also prints, measured in the same run:
//   fan-out p99 (send -> received by every client) / echo p99 (send -> the sender's own chat.ack)
//   persist-first broadcast p99 (chat.send fan-out) / broadcast alone p99 (dev.broadcast fan-out, nothing stored)
// Loopback only, bounded in count and time. See bench/README.md, "Realtime soak".
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { quantile } from "./load.mjs";
import { build, freePort, migrate, root, startWorker } from "../scripts/lib.mjs";
import { SoakClient } from "./soak-client.mjs";

const int = (name, fallback, max) => Math.min(max, Math.max(1, Number.parseInt(process.env[name] ?? "", 10) || fallback));
const CLIENTS = int("SOAK_CLIENTS", 200, 1000);
const MESSAGES = int("SOAK_MESSAGES", 600, 5000);
const SAMPLES = int("SOAK_SAMPLES", 200, 2000);
/** The churn phase sends one message every this many ms, and drops one random client every CHAOS_MS. */
const SEND_EVERY_MS = 15;
const CHAOS_MS = 40;
const WATCHDOG_MS = 8 * 60_000;
/** wrangler dev reloads the Worker (closing every socket) when the build changes under it. */
const BUILD_MARKER = join(root, "build", "server", "index.js");

let worker = null;
let persistTo = null;
const clients = [];

function cleanup() {
  for (const c of clients) c.stop();
  worker?.stop();
  if (persistTo) rmSync(persistTo, { recursive: true, force: true });
}

const watchdog = setTimeout(() => {
  console.error(`soak: still running after ${WATCHDOG_MS / 1000} s; stopping.`);
  cleanup();
  process.exit(2);
}, WATCHDOG_MS);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = (ms) => (Number.isFinite(ms) ? ms.toFixed(1) : "n/a");
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}x` : "n/a");

async function until(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function json(res, what) {
  if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Runs `fn` over `items` with at most `limit` in flight. */
async function pool(items, limit, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

/** The server's view: every message of the group, oldest first, paging GET /api/messages/group/{id}. */
async function serverMessages(origin, token, groupId) {
  const all = [];
  let before = "";
  for (let page = 0; page < 1000; page++) {
    const body = await json(await fetch(`${origin}/api/messages/group/${groupId}?limit=100${before}`, { headers: { authorization: token } }), "message page");
    all.push(...body.messages);
    if (body.nextBefore === null) break;
    before = `&before=${body.nextBefore}`;
  }
  return all.reverse();
}

async function deleteWhenStored(origin, sender, clientId) {
  await until(() => sender.idOf(clientId) !== undefined, 60_000, `the ack of ${clientId}`);
  const id = sender.idOf(clientId);
  const res = await fetch(`${origin}/api/messages/${id}`, { method: "DELETE", headers: { authorization: sender.token } });
  if (!res.ok) throw new Error(`delete ${id}: ${res.status} ${await res.text()}`);
}

/** One measured send: resolves with the sender's echo and the time until all clients had it. */
async function sample(kind, sender, n) {
  const t0 = performance.now();
  const key = kind === "chat" ? sender.sendChat(`sample ${n}`) : sender.sendDevBroadcast(n);
  await until(() => clients.every((c) => c.received(kind, key) !== undefined) && (kind !== "chat" || sender.ackedAt(key) !== undefined), 10_000, `${kind} sample ${n} at every client`);
  // The sender's own copy: its chat.ack or its chat.message, whichever came first.
  const echo = Math.min(sender.received(kind, key), kind === "chat" ? sender.ackedAt(key) ?? Infinity : Infinity) - t0;
  const all = Math.max(...clients.map((c) => c.received(kind, key))) - t0;
  return { echo, all };
}

async function main() {
  console.log(`Realtime soak: ${CLIENTS} clients in one group room, ${SAMPLES} timed samples, ${MESSAGES} messages under churn.`);
  build();
  const builtAt = statSync(BUILD_MARKER).mtimeMs;
  persistTo = mkdtempSync(join(tmpdir(), "cohort-soak-"));
  migrate(persistTo);
  worker = await startWorker({ port: await freePort(), persistTo, production: true });
  const { origin } = worker;
  const { soak } = await json(await fetch(`${origin}/api/dev/seed`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ soak: { users: CLIENTS } }) }), "soak seed");
  const groupId = soak.group._id;

  const started = performance.now();
  const tokens = new Array(CLIENTS);
  await pool([...soak.emails.keys()], 8, async (i) => {
    const body = await json(
      await fetch(`${origin}/api/users/login`, { method: "POST", headers: { "content-type": "application/json", origin }, body: JSON.stringify({ email: soak.emails[i], password: soak.password }) }),
      "login",
    );
    tokens[i] = body.accessToken;
  });
  for (let i = 0; i < CLIENTS; i++) clients.push(new SoakClient({ origin, groupId, token: tokens[i], name: `c${i}` }));
  await pool(clients, 16, (c) => within(c.connect(), 30_000, `${c.name} to connect and sync`));
  console.log(`  ${CLIENTS} signed in and synced in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // Phase 1, steady: one sample in flight at a time, chat and dev.broadcast interleaved, senders rotating.
  const chat = [];
  const bare = [];
  for (let n = 0; n < SAMPLES; n++) {
    const sender = clients[(n * 7) % CLIENTS];
    chat.push(await sample("chat", sender, n));
    bare.push(await sample("dev", clients[(n * 7 + 3) % CLIENTS], n));
  }

  // Phase 2, churn: messages from random synced clients while random clients drop and come back.
  let sending = true;
  const chaos = (async () => {
    while (sending) {
      const victim = clients[Math.floor(Math.random() * CLIENTS)];
      if (victim.isSynced()) victim.drop(Math.random() * 300);
      await sleep(CHAOS_MS);
    }
  })();
  const deletions = [];
  for (let n = 0; n < MESSAGES; n++) {
    const ready = clients.filter((c) => c.isSynced());
    const sender = ready[Math.floor(Math.random() * ready.length)] ?? clients[0];
    const clientId = sender.sendChat(`churn ${n}`);
    // Every 25th message is deleted by its author as soon as it is acknowledged, while the churn goes on.
    if (n % 25 === 12) deletions.push(deleteWhenStored(origin, sender, clientId));
    await sleep(SEND_EVERY_MS);
  }
  sending = false;
  await chaos;
  await Promise.all(deletions);
  await until(() => clients.every((c) => c.isSynced() && c.pendingCount() === 0), 60_000, "every client reconnected, synced, with no unacknowledged send");

  // The room acknowledges a message once it is stored in the room, and writes it through to D1 just after
  // (docs/decisions/0026-chat-persist-first.md): give D1 a moment to hold every acknowledged message and deletion.
  const acked = new Set(clients.flatMap((c) => c.sentClientIds()));
  let server = await serverMessages(origin, tokens[0], groupId);
  for (let tries = 0; tries < 50 && (server.length < acked.size || server.filter((m) => m.deletedAt).length < deletions.length); tries++) {
    await sleep(100);
    server = await serverMessages(origin, tokens[0], groupId);
  }
  const serverIds = server.map((m) => m.id);
  const serverDeleted = new Set(server.filter((m) => m.deletedAt).map((m) => m.id));
  await until(() => clients.every((c) => c.ids.length >= serverIds.length && c.deleted.size >= serverDeleted.size), 30_000, "every client to catch up").catch(() => {});

  let lost = 0;
  let extra = 0;
  let wrongOrder = 0;
  let deletionsMissed = 0;
  let exact = 0;
  for (const c of clients) {
    const held = new Set(c.ids);
    lost += serverIds.filter((id) => !held.has(id)).length;
    extra += c.ids.length - serverIds.filter((id) => held.has(id)).length;
    wrongOrder += c.ids.filter((id, i) => i > 0 && id <= c.ids[i - 1]).length;
    deletionsMissed += [...serverDeleted].filter((id) => !c.deleted.has(id)).length;
    if (c.ids.length === serverIds.length && c.ids.every((id, i) => id === serverIds[i])) exact++;
  }
  const duplicates = clients.reduce((n, c) => n + c.duplicates, 0);
  const reconnects = clients.reduce((n, c) => n + c.reconnects, 0);
  const resent = clients.reduce((n, c) => n + c.resent, 0);
  const sentIds = new Set(clients.flatMap((c) => c.sentClientIds()));
  const storedOnce = server.length === sentIds.size && new Set(server.map((m) => m.clientId)).size === server.length;

  const p = (rows, key, q) => quantile(rows.map((r) => r[key]), q);
  if (statSync(BUILD_MARKER).mtimeMs !== builtAt) console.log("\n  warning: build/ changed during the run, so the Worker reloaded and every socket was closed once; run again for clean timings.");
  console.log(`\n  Delivery after ${reconnects} reconnects (${resent} sends retried with the same clientId):`);
  console.log(`    server: ${serverIds.length} messages (${serverDeleted.size} deleted), each stored once: ${storedOnce ? "yes" : "NO"}`);
  console.log(`    clients holding exactly the server's ids, in order: ${exact}/${CLIENTS}`);
  console.log(`    lost ${lost} · duplicated ${duplicates + extra} · out of order ${wrongOrder} · deletions missed ${deletionsMissed}`);
  const row = (label, rows, key) => console.log(`    ${label.padEnd(50)}${fmt(p(rows, key, 0.5)).padStart(7)}  ${fmt(p(rows, key, 0.99)).padStart(7)}`);
  console.log(`\n  ${`Latency, steady phase (${SAMPLES} samples each, ms)`.padEnd(52)}    p50      p99`);
  row("echo: chat.send -> sender's ack or own copy", chat, "echo");
  row(`fan-out: chat.send -> all ${CLIENTS} clients have it`, chat, "all");
  row("broadcast alone: dev.broadcast -> all clients", bare, "all");
  console.log(`\n  fan-out p99 / echo p99:                     ${ratio(p(chat, "all", 0.99), p(chat, "echo", 0.99))}`);
  console.log(`  persist-first p99 / broadcast-alone p99:    ${ratio(p(chat, "all", 0.99), p(bare, "all", 0.99))}`);
  return lost + duplicates + extra + wrongOrder + deletionsMissed === 0 && storedOnce && exact === CLIENTS;
}

main()
  .then((ok) => {
    clearTimeout(watchdog);
    cleanup();
    process.exit(ok ? 0 : 1);
  })
  .catch((e) => {
    clearTimeout(watchdog);
    console.error(e);
    cleanup();
    process.exit(1);
  });
