// `npm run bench:profile -- "course home"`: where one page's CPU goes inside the Worker. Serves the built Worker
// (production bundle, fresh database with the demo data), keeps the page busy with the bench's load (16
// connections), and meanwhile records a CPU profile of the Worker's isolate through wrangler's DevTools inspector.
// Each sample is traced back through the bundle's source map to the file it came from, and the profile is printed
// as shares of the isolate's samples: by library or folder of the app, then by function (by itself, then with what it
// calls). The local D1 works in another isolate and is not in it (ADR 55 prices that call). `--seconds N` sets how
// long it records (default 6); `--under NAME` also lists where the calls of the function NAME went, callee by callee;
// `--save FILE` also writes the raw .cpuprofile (open it in Chrome's DevTools, Performance panel). `--build` builds
// first. Without a page name it lists the names it knows (bench/pages.mjs). Nothing here is a test: it prints.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { TraceMap, originalPositionFor } from "@jridgewell/trace-mapping";
import { runWorkerBench } from "./burst-kit.mjs";
import { measure } from "./load.mjs";
import { pageTargets } from "./pages.mjs";
import { freePort, root } from "../scripts/lib.mjs";

// The `ws` client: Node's own WebSocket is refused by wrangler's inspector proxy.
const WebSocket = createRequire(import.meta.url)("ws");

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const seconds = Number(option("--seconds") ?? 6);
const save = option("--save");
const under = option("--under");
const pageName = args.find((a, i) => !a.startsWith("--") && !["--seconds", "--save", "--under"].includes(args[i - 1]));
if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 60) throw new Error("--seconds takes a number from 1 to 60");

/** A DevTools protocol session over the inspector's socket: `send(method, params)` answers the result. */
async function inspect(port) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
  await new Promise((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject)));
  let next = 0;
  const waiting = new Map();
  ws.on("message", (data) => {
    const message = JSON.parse(String(data));
    // The proxy's own requests use ids from 100000001 up; ours stay below.
    if (message.id !== undefined && waiting.has(message.id)) {
      waiting.get(message.id)(message);
      waiting.delete(message.id);
    }
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => reject(new Error(`the inspector did not answer ${method}`)), 30_000);
      waiting.set(id, (message) => (clearTimeout(timer), message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result)));
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => ws.close() };
}

/** The bundle wrangler dev serves: the newest `.wrangler/tmp/dev-*` folder's index.js, with its source map. */
function servedBundle() {
  const tmp = join(root, ".wrangler", "tmp");
  const newest = readdirSync(tmp)
    .filter((d) => d.startsWith("dev-"))
    .map((d) => join(tmp, d, "index.js.map"))
    .filter((f) => existsSync(f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!newest) throw new Error("no bundle under .wrangler/tmp: is wrangler dev serving?");
  return new TraceMap(readFileSync(newest, "utf8"));
}

/**
 * A source file's group: a library by its package name, the app by its folder. Drizzle's source maps name
 * `../src/…` from inside its package, which lands beside the packages. The Remix server build (routes, components,
 * app/lib) comes without a map of its own, so it is one group.
 */
function groupOf(source) {
  if (source.startsWith("node_modules/src/")) return "drizzle-orm";
  const lib = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (lib) return lib[1];
  if (source === "build/server/index.js") return "app: the Remix server build (routes, components, app/lib)";
  const app = source.match(/^((?:app|worker|db)\/(?:[^/.]+\/)?)/);
  return app ? app[1] : source;
}

const percent = (n, total) => `${((100 * n) / total).toFixed(1).padStart(5)} %`;

const inspectorPort = await freePort();
await runWorkerBench("profile", { watchdogMs: 5 * 60_000, inspectorPort }, async ({ origin }) => {
  const targets = await pageTargets(origin);
  const target = targets.find((t) => t.name === pageName);
  if (!target) {
    console.log(`Name a page: ${targets.map((t) => `"${t.name}"`).join(", ")}`);
    return !pageName;
  }
  const url = origin + target.path;
  const load = (ms) => measure(url, { concurrency: 16, durationMs: ms, headers: target.headers ?? {} });
  await load(3_000); // warm: compiled code and the isolate's caches, as the bench's rounds find them
  const session = await inspect(inspectorPort);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 100 });
  await session.send("Profiler.start");
  const run = await load(seconds * 1000);
  const { profile } = await session.send("Profiler.stop");
  session.close();
  if (save) writeFileSync(save, JSON.stringify(profile));
  const expected = target.expected ?? 200;
  const wrong = Object.entries(run.statuses).reduce((n, [status, count]) => (Number(status) === expected ? n : n + count), 0);

  const map = servedBundle();
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);
  const traced = new Map();
  /** A node's original file and line (through the source map), or null for the runtime's own code. */
  const sourceOf = (id) => {
    if (traced.has(id)) return traced.get(id);
    const { url: script, lineNumber, columnNumber } = nodes.get(id).callFrame;
    let found = null;
    if (script === "index.js" && lineNumber >= 0) {
      const original = originalPositionFor(map, { line: lineNumber + 1, column: columnNumber });
      found = original.source ? { source: original.source.replace(/^(\.\.\/)+/, "").replace(`${root}/`, ""), line: original.line } : { source: "index.js", line: lineNumber + 1 };
    } else if (script) {
      found = { source: script, line: lineNumber + 1 };
    }
    traced.set(id, found);
    return found;
  };
  const hits = new Map();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const byGroup = new Map();
  const byFunction = new Map();
  const ownCode = new Map();
  let total = 0;
  for (const [id, count] of hits) {
    const name = nodes.get(id).callFrame.functionName || "(anonymous)";
    const own = sourceOf(id);
    // The runtime's built-ins (fetch, URL, TextEncoder, streams) are counted with the code that called them.
    let caller = own;
    for (let up = parents.get(id); !caller && up !== undefined && !name.startsWith("("); up = parents.get(up)) caller = sourceOf(up);
    const group = caller ? groupOf(caller.source) : name.startsWith("(") ? name : "(the runtime, called from nowhere traced)";
    byGroup.set(group, (byGroup.get(group) ?? 0) + count);
    const key = `${name}  ${own ? `${own.source}:${own.line}` : caller ? `(built-in, called from ${groupOf(caller.source)})` : ""}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + count);
    if (!ownCode.has(group)) ownCode.set(group, new Map());
    ownCode.get(group).set(key, (ownCode.get(group).get(key) ?? 0) + count);
    total += count;
  }
  const busy = total - (byGroup.get("(idle)") ?? 0);
  console.log(`${target.name} (${target.path}): ${run.latencies.length} requests in ${seconds} s under 16 connections, ${wrong} not ${expected}`);
  console.log(`${total} samples of the Worker's isolate, ${busy} of them busy; shares of the busy samples, by where the code comes from:`);
  for (const [group, count] of [...byGroup].filter(([g]) => g !== "(idle)").sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${percent(count, busy)}  ${group}`);
  console.log("\nThe functions that spent the most by themselves (their callees not counted):");
  for (const [key, count] of [...byFunction].filter(([k]) => !k.startsWith("(idle)")).sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${percent(count, busy)}  ${key}`);
  // The same samples counted for every function on their stack (once each): what a call costs with its callees, which
  // is how a component, a hook or a loader is priced (React calls a component's children after it returns, so a
  // component's share is its own work and its hooks', not its subtree's).
  /** A call's name and where its code is (the runtime's own code as built-in). */
  const callKey = (id) => {
    const own = sourceOf(id);
    return `${nodes.get(id).callFrame.functionName || "(anonymous)"}  ${own ? `${own.source}:${own.line}` : "(built-in)"}`;
  };
  const inclusive = new Map();
  for (const [id, count] of hits) {
    if (nodes.get(id).callFrame.functionName === "(idle)") continue;
    const seen = new Set();
    for (let at = id; at !== undefined; at = parents.get(at)) {
      if (nodes.get(at).callFrame.functionName === "(root)") continue;
      const key = callKey(at);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + count);
    }
  }
  console.log("\nThe calls that took the most, their callees included:");
  for (const [key, count] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${percent(count, busy)}  ${key}`);
  if (under) {
    // What the calls of one function spent their time in: each sample under it counted for the direct callee it went
    // through (the function's own work as "itself").
    const below = new Map();
    for (const [id, count] of hits) {
      let child = null;
      for (let at = id; at !== undefined; child = at, at = parents.get(at)) {
        if (nodes.get(at).callFrame.functionName !== under) continue;
        const key = child === null ? "(itself)" : callKey(child);
        below.set(key, (below.get(key) ?? 0) + count);
        break;
      }
    }
    console.log(`\nWhere the calls of ${under} went (shares of the page's busy samples):`);
    for (const [key, count] of [...below].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${percent(count, busy)}  ${key}`);
  }
  console.log("\nOur own code's busiest functions, by folder:");
  for (const [group, functions] of [...ownCode].filter(([g]) => /^(app|worker|db)\b/.test(g)).sort((a, b) => sum(b[1]) - sum(a[1]))) {
    console.log(`${percent(sum(functions), busy)}  ${group}`);
    for (const [key, count] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 6)) console.log(`    ${percent(count, busy)}  ${key}`);
  }
  return wrong === 0;
});

function sum(counts) {
  let n = 0;
  for (const c of counts.values()) n += c;
  return n;
}
