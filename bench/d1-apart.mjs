#!/usr/bin/env node
// Stands in for the workerd binary under `wrangler dev` (MINIFLARE_WORKERD_PATH) when the bench asks for the local D1
// to run apart from the Worker, as D1 runs on its own machines on Cloudflare (docs/decisions/0074-*.md).
//
// Miniflare writes the workerd config it is about to send as JSON to MINIFLARE_WORKERD_CONFIG_DEBUG, then starts this
// file with workerd's arguments and the same config in binary on stdin. This starts two real workerd processes from it:
//   - the database's: only the local D1's services (its entry Worker, its Durable Object, its files on disk), listening
//     on a port of its own for the entry Worker, which takes the D1 binding's HTTP protocol as it is;
//   - the Worker's: the whole config as Miniflare made it, except that the D1 entry service is that port, reached over
//     HTTP. The Worker's D1 binding (workerd's own `cloudflare-internal:d1-api`) is unchanged: it writes its
//     statements and reads the rows back in the Worker's isolate, as on Cloudflare; the database's bookkeeping and
//     SQLite work on another thread.
// The Worker's workerd keeps Miniflare's stdio and control pipe (fd 3); this process stands for both to wrangler.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { connect } from "node:net";
import { freePort, portInUse } from "../scripts/lib.mjs";

const require = createRequire(import.meta.url);
const workerd = require("workerd").default ?? require("workerd");
const { serializeConfig, kVoid } = require("miniflare");

const ENTRY = "d1:db:entry";
const D1_SERVICES = new Set([ENTRY, "d1:db", "d1:storage", "loopback"]);

const configPath = process.env.MINIFLARE_WORKERD_CONFIG_DEBUG;
if (!configPath) {
  console.error("bench/d1-apart.mjs needs MINIFLARE_WORKERD_CONFIG_DEBUG: the path Miniflare writes its config to");
  process.exit(2);
}
const args = process.argv.slice(2);

// Miniflare writes the binary config to stdin. wrangler runs more than one Miniflare (its own proxy Worker too), all
// through this file and one JSON path: the JSON is taken only when it serializes to the very bytes on stdin, and a
// config without the local D1 (the proxy's) goes to workerd as it came.
// JSON loses two things of the config: bytes (a Wasm module, data) become objects keyed "0", "1"...; a field whose
// value is Miniflare's `kVoid` (a capnp Void: "in memory", "ephemeral", a debug-port or eval binding) disappears.
// Both are put back; the byte comparison below proves the result is the config Miniflare sent.
function restore(value, key) {
  if (Array.isArray(value)) return value.map((v) => restore(v, key));
  if (!value || typeof value !== "object") return value;
  const keys = Object.keys(value);
  if (value.type === "Buffer" && Array.isArray(value.data) && keys.length === 2) return Uint8Array.from(value.data);
  if (keys.length > 0 && keys.every((k, i) => k === String(i)) && keys.every((k) => Number.isInteger(value[k]))) {
    return Uint8Array.from(keys.map((k) => value[k]));
  }
  const out = {};
  for (const k of keys) out[k] = restore(value[k], k);
  if (key === "durableObjectStorage" && keys.length === 0) out.inMemory = kVoid;
  if (key === "durableObjectNamespaces" && "className" in out && !("uniqueKey" in out) && !("ephemeralLocal" in out)) out.ephemeralLocal = kVoid;
  if (key === "bindings" && keys.length === 1 && keys[0] === "name") {
    if (out.name === "DEV_REGISTRY_DEBUG_PORT") out.workerdDebugPort = kVoid;
    else out.unsafeEval = kVoid;
  }
  return out;
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const binary = Buffer.concat(chunks);
let config = null;
let text = "";
try {
  text = readFileSync(configPath, "utf8");
  const candidate = restore(JSON.parse(text));
  if (Buffer.from(serializeConfig(candidate)).equals(binary)) config = candidate;
} catch {
  // not written yet, or being rewritten: treated as not ours
}

/**
 * Runs workerd with `config` (binary) on its stdin and Miniflare's stdout, stderr and control pipe (fd 3), and ends
 * this process as it ends. setpriv's parent-death signal stops it if this process is killed outright (Miniflare stops
 * its runtime with SIGKILL), so nothing is left running when wrangler stops.
 */
function runWorkerd(workerdArgs, binaryConfig, stdio) {
  const child = spawn("setpriv", ["--pdeathsig", "KILL", "--", workerd, ...workerdArgs], { stdio });
  child.stdin.end(binaryConfig);
  return child;
}

function becomeWorkerd(binaryConfig) {
  const child = runWorkerd(args, binaryConfig, ["pipe", "inherit", "inherit", "inherit"]);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return child;
}

if (!config?.services?.some((s) => s.name === ENTRY)) {
  if (config === null) console.error("bench/d1-apart.mjs: a config without its JSON twin goes to workerd as it came");
  becomeWorkerd(binary);
  await new Promise(() => {});
}

/** Every service designator in `value` that names the D1 entry, found anywhere in the config. */
function* entryDesignators(value) {
  if (Array.isArray(value)) for (const v of value) yield* entryDesignators(v);
  else if (value && typeof value === "object") {
    if (value.name === ENTRY && "props" in value) yield value;
    for (const v of Object.values(value)) yield* entryDesignators(v);
  }
}

/** Whether the database's workerd answers on `port` yet: a connection only (lib.mjs's `portInUse` also binds the
 * port for a moment, which could take it from under workerd as it starts listening). */
const listening = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

const port = await freePort();
const address = `127.0.0.1:${port}`;

// The database's process: the D1 services and the extensions their modules import; one socket into the entry Worker,
// with the props the Worker's binding gave it (the database's id).
const props = [...entryDesignators(config.services)][0]?.props;
const dbConfig = {
  ...config,
  services: config.services.filter((s) => D1_SERVICES.has(s.name)),
  sockets: [{ name: "d1", address, http: {}, service: { name: ENTRY, ...(props ? { props } : {}) } }],
};

// The Worker's process: the entry is the other process's port. An outside service takes no props: they are dropped
// (the socket above carries them).
const workerConfig = restore(JSON.parse(text));
workerConfig.services = workerConfig.services.map((s) => (s.name === ENTRY ? { name: ENTRY, external: { address, http: {} } } : s));
for (const designator of entryDesignators(workerConfig.services)) delete designator.props;

// The loopback's address (Miniflare's own server) is given on the command line; the database's process gets it too.
const loopbackArg = args.find((a) => a.startsWith("--external-addr=loopback="));
const dbArgs = ["serve", "--binary", "--experimental", ...(loopbackArg ? [loopbackArg] : []), "-"];
const database = runWorkerd(dbArgs, Buffer.from(serializeConfig(dbConfig)), ["pipe", "inherit", "inherit"]);

for (let i = 0; !(await listening(port)); i++) {
  if (database.exitCode !== null || i > 400) {
    console.error(`bench/d1-apart.mjs: the database's workerd did not listen on ${address}`);
    database.kill("SIGTERM");
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 25));
}

// The Worker's own socket on the port the bench chose (D1_APART_ENTRY_PORT), kept through every restart of the
// runtime (Miniflare asks for any port and learns it from the control pipe), so the bench can reach the Worker
// without wrangler's proxy in front. A runtime being replaced may still hold it for a moment.
const entryPort = Number(process.env.D1_APART_ENTRY_PORT);
const entryAt = args.findIndex((a) => a.startsWith("--socket-addr=entry="));
if (Number.isInteger(entryPort) && entryPort > 0 && entryAt >= 0) {
  args[entryAt] = args[entryAt].replace(/:\d+$/, `:${entryPort}`);
  for (let i = 0; (await portInUse(entryPort)) && i < 200; i++) await new Promise((r) => setTimeout(r, 25));
}

// The bench reads this to know that the database runs apart, and where.
writeFileSync(`${configPath}.apart`, `${address} ${database.pid}\n`);
becomeWorkerd(Buffer.from(serializeConfig(workerConfig)));
database.on("exit", (code) => {
  console.error(`bench/d1-apart.mjs: the database's workerd ended (${code}); the Worker's goes with it`);
  process.exit(1);
});
