// CPU time of the workerd processes that serve Cohort, read from /proc (Linux only). `npm run bench` and
// bench/compare.mjs price a request by the CPU it cost the Worker's busiest workerd process (the thread that runs the
// Worker and, locally, its D1): unlike requests per second, it does not depend on what else the machine is doing.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICK_MS = 10;

/** Every process now: its parent, whether it is workerd, and its CPU time so far (user + system, ms). */
function processes() {
  const out = new Map();
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      // The command name sits in parentheses and may hold spaces: the fields are counted after its closing one.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const workerd = readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("workerd");
      out.set(pid, { parent: fields[1], workerd, cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return out;
}

/** Whether /proc can be read here (Linux): without it there are no CPU figures. */
const canReadCpu = (() => {
  try {
    readFileSync("/proc/self/stat", "utf8");
    return true;
  } catch {
    return false;
  }
})();

/** The workerd processes started from the folder `dir` (a server started with `npm start` there). */
export const startedFrom = (dir) => (pid) => {
  try {
    return readlinkSync(`/proc/${pid}/cwd`) === dir;
  } catch {
    return false;
  }
};

/** The workerd processes below the process `root` (a `wrangler dev` this script started). */
export const below = (root) => (pid, all) => {
  for (let at = all.get(pid)?.parent, hops = 0; at && hops < 16; at = all.get(at)?.parent, hops++) {
    if (at === String(root)) return true;
  }
  return false;
};

/** CPU ms so far of each workerd process that `ours` accepts; null where /proc cannot be read. */
export function workerdCpu(ours) {
  if (!canReadCpu) return null;
  const all = processes();
  const out = new Map();
  for (const [pid, p] of all) if (p.workerd && ours(pid, all)) out.set(pid, p.cpuMs);
  return out;
}

/** CPU ms per request of the busiest of those processes between two readings, or null without a reading. */
export function busiestPerRequest(before, after, requests) {
  if (!before || !after || after.size === 0 || requests === 0) return null;
  return Math.max(...[...after].map(([pid, ms]) => (ms - (before.get(pid) ?? ms)) / requests));
}
