// Forgot-password timing: does the answer reveal whether an address has an account? Known addresses (fresh soak
// accounts) and unknown ones are asked for alternately, one request at a time with a pause after each (so the
// background mail work of one request never overlaps the next), each from its own client address so that no
// rate limit answers instead. Prints both medians and their ratio (the goal is within 5 %).
import { median } from "./load.mjs";

const PAIRS = 150;
const PAUSE_MS = 40;

async function timedForgot(origin, email, ip) {
  const started = performance.now();
  const res = await fetch(`${origin}/api/users/forgot-password`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": ip },
    body: JSON.stringify({ email }),
  });
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

export async function forgotTiming(origin) {
  const seeded = await fetch(`${origin}/api/dev/seed`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ soak: { users: PAIRS } }) });
  const { soak } = await seeded.json();
  const known = [];
  const unknown = [];
  const statuses = new Set();
  for (let i = 0; i < PAIRS; i++) {
    const ip = `10.77.${Math.floor(i / 250)}.${(i % 250) + 1}`;
    const pair = [
      ["known", soak.emails[i]],
      ["unknown", `nobody-${i}-${Date.now()}@unknown.example`],
    ];
    if (i % 2) pair.reverse();
    for (const [kind, email] of pair) {
      const r = await timedForgot(origin, email, ip);
      statuses.add(r.status);
      if (i >= 10) (kind === "known" ? known : unknown).push(r.ms);
      await new Promise((res) => setTimeout(res, PAUSE_MS));
    }
  }
  return { known: median(known), unknown: median(unknown), samples: known.length, statuses: [...statuses] };
}

export function printForgotTiming(r) {
  console.log(`\nForgot-password answer time, known vs unknown address (${r.samples} pairs, alternating, sequential; statuses ${r.statuses.join(", ")})\n`);
  console.log(`  known median ${r.known.toFixed(2)} ms   unknown median ${r.unknown.toFixed(2)} ms   ratio known/unknown ${(r.known / r.unknown).toFixed(3)}x (goal: within 5 %)`);
}
