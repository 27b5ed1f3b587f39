// `npm run bench:startup`: the Worker's cold start against a hello-world Worker, in one run.
//
// Every isolate Cloudflare starts (in every edge location, again after eviction) first evaluates the Worker's
// module scope; `wrangler check startup` profiles exactly that locally: it bundles the Worker as `wrangler deploy`
// would, loads it in workerd and reports the CPU time ("Active") the startup took. This runs it for the app
// (the project root; needs `npm run build` first) and for a hello world with the same compatibility date and flags
// (written to a fresh temp dir), interleaved, `rounds` times each, and prints each median and the ratio app/hello.
// docs/decisions/0025-lean-cold-start.md says how the numbers stand in for production.
//
// `measureStartup({ rounds })` returns { app: { activeMs, median, bundleKiB, gzipKiB }, hello: {...}, ratio }.
// Nothing is built here but the hello world; temp dirs are removed; every child process has a timeout.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bin, env, root } from "../scripts/lib.mjs";

/** One `wrangler check startup` (bundling included) normally takes 5-15 s on the development machine. */
const CHILD_TIMEOUT_MS = 180_000;
/** A profile with no samples (seen now and then on a busy machine) reports 0 ms: that round is run again, this often at most. */
const RETRIES = 2;

/** compatibility_date and compatibility_flags of wrangler.toml's top level (before the first [table]). */
export function compatibility(tomlText) {
  const top = tomlText.split(/^\s*\[/m)[0];
  const date = /^\s*compatibility_date\s*=\s*"([^"]+)"/m.exec(top)?.[1];
  const flagsRaw = /^\s*compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(top)?.[1] ?? "";
  const flags = [...flagsRaw.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  if (!date) throw new Error("wrangler.toml has no top-level compatibility_date");
  return { date, flags };
}

function writeHelloWorld(dir, { date, flags }) {
  writeFileSync(join(dir, "index.js"), 'export default { fetch() { return new Response("Hello World!"); } };\n');
  writeFileSync(
    join(dir, "wrangler.toml"),
    [`name = "startup-hello-world"`, `main = "index.js"`, `compatibility_date = ${JSON.stringify(date)}`, `compatibility_flags = ${JSON.stringify(flags)}`, ""].join("\n"),
  );
}

function runChild(cmd, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", FORCE_COLOR: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${cmd} ${args.join(" ")} timed out after ${CHILD_TIMEOUT_MS / 1000} s`));
    }, CHILD_TIMEOUT_MS);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(" ")} (in ${cwd}) exited with ${code}:\n${out}`));
    });
  });
}

/** The CPU time of a profile that is not idle: what wrangler prints as "Active". */
export function activeFromProfile(profile) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  let active = 0;
  (profile.timeDeltas ?? []).forEach((dt, i) => {
    if (nodes.get(profile.samples[i])?.callFrame.functionName !== "(idle)") active += dt;
  });
  return active / 1000;
}

/** One `wrangler check startup` in `cwd`: Active ms and the bundle's size as wrangler reports them. */
async function checkStartup(cwd, outfile) {
  for (let attempt = 0; ; attempt++) {
    const out = await runChild(bin("wrangler"), ["check", "startup", "--outfile", outfile], cwd);
    const bundle = /Bundle:\s*([\d.]+)\s*KiB\s*\/\s*gzip:\s*([\d.]+)\s*KiB/.exec(out);
    const printed = /Active:\s*([\d.]+)\s*ms/.exec(out);
    if (!bundle) throw new Error(`wrangler check startup printed no bundle size:\n${out}`);
    const activeMs = printed ? Number(printed[1]) : activeFromProfile(JSON.parse(readFileSync(outfile, "utf8")));
    if (activeMs > 0 || attempt >= RETRIES) return { activeMs, bundleKiB: Number(bundle[1]), gzipKiB: Number(bundle[2]) };
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/**
 * `rounds` startups of the app and of a hello world, interleaved (app, hello, app, hello, ...) so that whatever else
 * the machine does hits both alike. Needs `npm run build` done (the Worker imports the Remix build).
 */
export async function measureStartup({ rounds = 3 } = {}) {
  if (!existsSync(join(root, "build", "server", "index.js"))) throw new Error("No Remix build: run `npm run build` first (npm run bench:startup does).");
  const compat = compatibility(readFileSync(join(root, "wrangler.toml"), "utf8"));
  const helloDir = mkdtempSync(join(tmpdir(), "cohort-startup-hello-"));
  const profiles = mkdtempSync(join(tmpdir(), "cohort-startup-profiles-"));
  try {
    writeHelloWorld(helloDir, compat);
    const runs = { app: [], hello: [] };
    for (let i = 0; i < rounds; i++) {
      runs.app.push(await checkStartup(root, join(profiles, `app-${i}.cpuprofile`)));
      runs.hello.push(await checkStartup(helloDir, join(profiles, `hello-${i}.cpuprofile`)));
    }
    const summary = (list) => {
      const activeMs = list.map((r) => r.activeMs);
      return { activeMs, median: median(activeMs), bundleKiB: list.at(-1).bundleKiB, gzipKiB: list.at(-1).gzipKiB };
    };
    const app = summary(runs.app);
    const hello = summary(runs.hello);
    return { app, hello, ratio: app.median / hello.median };
  } finally {
    rmSync(helloDir, { recursive: true, force: true });
    rmSync(profiles, { recursive: true, force: true });
  }
}

export function printStartup({ app, hello, ratio }) {
  const line = (name, r) =>
    `${name.padEnd(12)} Active median ${r.median.toFixed(1).padStart(6)} ms  (rounds: ${r.activeMs.map((v) => v.toFixed(1)).join(", ")})  bundle ${r.bundleKiB.toFixed(1)} KiB / gzip ${r.gzipKiB.toFixed(1)} KiB`;
  console.log("Worker startup (wrangler check startup, local workerd: Active = time busy evaluating the module scope)");
  console.log(line("app", app));
  console.log(line("hello world", hello));
  console.log(`ratio app/hello: ${ratio.toFixed(2)}x (goal: 2x or less)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rounds = Number(process.argv.find((a) => a.startsWith("--rounds="))?.slice("--rounds=".length) ?? 3);
  measureStartup({ rounds })
    .then(printStartup)
    .catch((e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    });
}
