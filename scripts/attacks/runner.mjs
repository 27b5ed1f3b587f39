// `npm run attack`, section "1. The code runner": the hostile hand-ins of the security review against a running local
// server (`npm start`, which starts the code runner Worker beside the main one). The demo instructor makes a code
// exercise of 2 tests (1,000 ms of work each: a hand-in's budget is 2,000 ms) on a new lecture of the demo group; the
// demo student hands in each hostile solution while health requests keep going. Each must end with a clear per-test
// message, in about its budget, without holding other requests; no report may pass 64 kB or tell anything of a hidden
// test but its verdict. Loopback only (t.origin), bounded (5 hand-ins, under the 10-a-minute limit). Everything it
// made is deleted at the end.

const INSTRUCTOR = { email: "instructor@example.com", password: "demo-instructor-pass" };
const STUDENT = { email: "student@example.com", password: "demo-student-pass" };
const BUDGET_MS = 2_000;

const HOSTILE = [
  ["an endless loop", "while (true) {}", /^Time limit exceeded/],
  ["a loop around a 200,000-item sort", "const xs = []; for (let i = 0; i < 2e5; i++) xs.push(i); for (let k = 0; k < 1e9; k++) xs.sort();", /^(Time|Memory) limit exceeded/],
  ["a loop around a huge BigInt", "const n = 10n ** 200000n; for (;;) n.toString();", /^Time limit exceeded/],
  ["an allocation loop", "const all = []; for (;;) all.push(new Float64Array(1e5));", /^Memory limit exceeded/],
  ["a console flood of 1 MB arguments", "const y = 'y'.repeat(1000000); for (;;) console.log(...Array(20).fill(y));", /^Time limit exceeded/],
];

export default async function runner(t) {
  const staff = await t.signIn(INSTRUCTOR);
  const student = await t.signIn(STUDENT);
  const json = async (res) => ({ status: res.status, body: await res.json().catch(() => null), size: 0 });

  const profile = (await json(await t.api("/api/users/profile", { token: student.token }))).body;
  const group = profile?.groups?.find((g) => g.status === "approved" || g.status === "special");
  if (!group) return t.check("runner: the demo student is a member of a demo group", false, "no approved group in the profile");
  const stamp = Date.now().toString(36);
  const lecture = await json(await t.api(`/api/lectures/group/${group.slug}`, { body: { title: `Runner attack ${stamp}`, published: true }, token: staff.token }));
  try {
    const task = await json(await t.api(`/api/lectures/${lecture.body.slug}/tasks`, { body: { title: `Sum ${stamp}`, maxScore: 10 }, token: staff.token }));
    const tests = [
      { name: "adds", call: "sum(1, 2)", expected: "3", points: 1, hidden: false },
      { name: "adds the hidden pair", call: "sum(4000, 2345)", expected: "6345", points: 1, hidden: true },
    ];
    const saved = await t.api(`/api/exercises/${task.body.slug}`, { method: "PUT", body: { tests, referenceSolution: "function sum(a, b) { return a + b; }", published: true, timeMs: 1000, memoryMb: 16 }, token: staff.token });
    t.check("runner: the instructor publishes a 2-test exercise", saved.status === 200, String(saved.status));

    for (const [what, code, message] of HOSTILE) {
      const started = performance.now();
      const handIn = t.api(`/api/exercises/${task.body.slug}/submit`, { body: { code: `function sum(a, b) { ${code} }` }, token: student.token });
      // While it runs, the rest of the site answers.
      await new Promise((r) => setTimeout(r, 150));
      const probeStarted = performance.now();
      const health = await fetch(`${t.origin}/api/health`);
      const probeMs = performance.now() - probeStarted;
      const res = await handIn;
      const text = await res.text();
      const wall = performance.now() - started;
      const body = JSON.parse(text);
      const results = body.report?.results ?? [];
      t.check(`runner: ${what} is graded, not a 5xx`, res.status < 300, String(res.status));
      t.check(`runner: ${what} ends each test with a clear message`, results.length === 2 && results.every((r) => message.test(r.error ?? "") || (r.hidden && r.passed === false)), JSON.stringify(results.map((r) => r.error ?? r.passed)));
      t.check(`runner: ${what} ends within 3x its ${BUDGET_MS} ms budget (steps, not time: a BigInt step is heavier)`, wall < 3 * BUDGET_MS, `${Math.round(wall)} ms`);
      t.check(`runner: /api/health answers in under 1 s during ${what}`, health.status === 200 && probeMs < 1_000, `${Math.round(probeMs)} ms`);
      t.check(`runner: ${what}'s answer is under 64 kB`, text.length < 64 * 1024, `${text.length} bytes`);
      const hidden = results.find((r) => r.hidden);
      t.check(`runner: ${what}'s hidden test shows its verdict only (no time, output, error)`, hidden && Object.keys(hidden).sort().join() === "hidden,name,passed,points", JSON.stringify(hidden));
    }
  } finally {
    await t.api(`/api/lectures/${lecture.body?._id ?? lecture.body?.slug}`, { method: "DELETE", token: staff.token });
  }
}
