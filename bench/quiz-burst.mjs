// `npm run bench:quiz`: a whole group hands in one quiz at the same moment. Serves the built Worker with a fresh
// database, makes a group of 210 students (each signed in with their own session) and a four-question quiz, then:
//   1. 10 students hand in one after another (the lone hand-in latency);
//   2. 200 students hand in at once;
//   3. 50 of them repeat their hand-in at once (a retry after a dropped connection);
// and checks in the staff results matrix that every student has exactly one attempt graded 5 of 5 (0 lost,
// 0 doubled), then prints the burst's p50/p99 latency as ratios to the lone hand-in's median. Loopback only,
// bounded in count and time (a watchdog ends the run after 4 minutes).
import { burstLine, ip, json, runBurst, statusCounts } from "./burst-kit.mjs";

const LONE = 10;
const BURST = 200;

await runBurst("quiz", { students: LONE + BURST }, async ({ origin, post, soak, tokens, admin }) => {
  const lecture = await json(await post(`/api/lectures/group/${soak.group.slug}`, { title: "Quiz lecture", published: true }, admin.accessToken), "lecture");
  const quiz = await json(
    await post(
      "/api/quizzes",
      {
        lectureId: lecture.slug,
        title: "Burst quiz",
        durationMinutes: 30,
        published: true,
        questions: [
          { text: "Grid?", type: "single", options: ["flex", "grid"], correct: 1 },
          { text: "Logical?", type: "multiple", options: ["inline-start", "left", "inline-end"], correct: [0, 2], points: 2 },
          { text: "gap works in Flexbox.", type: "true-false", correct: 0 },
          { text: "Wrap value?", type: "short-text", correct: ["wrap"] },
        ],
      },
      admin.accessToken,
    ),
    "quiz",
  );
  const q = quiz.questions.map((x) => x._id);
  const answers = { [q[0]]: 1, [q[1]]: [0, 2], [q[2]]: 0, [q[3]]: "Wrap" };

  const submit = async (i) => {
    const started = performance.now();
    const res = await post(`/api/quizzes/${quiz.slug}/submit`, { answers }, tokens[i], ip(i));
    const body = await res.json();
    return { ms: performance.now() - started, status: res.status, score: body.attempt?.score };
  };
  const lone = [];
  for (let i = 0; i < LONE; i++) lone.push(await submit(i));
  const burst = await Promise.all(Array.from({ length: BURST }, (_, k) => submit(LONE + k)));
  // The same hand-in retried by 50 of them at once (a dropped connection): no second attempt may appear.
  const retries = await Promise.all(Array.from({ length: 50 }, (_, k) => submit(LONE + k)));

  const results = await json(await fetch(`${origin}/api/quizzes/groups/${soak.group.slug}/results`, { headers: { authorization: admin.accessToken } }), "results");
  const cells = results.students.map((s) => s.results.find((r) => r.quizId === quiz._id));
  const graded = cells.filter((c) => c && c.best === 5).length;
  const attempts = cells.reduce((n, c) => n + (c?.attempts ?? 0), 0);

  const { loneMedian, line } = burstLine(lone, burst);
  console.log(`Quiz burst: ${LONE} lone hand-ins, then ${BURST} students hand in one quiz at once (each with their own session)\n`);
  console.log(`  answers            ${JSON.stringify(statusCounts([...lone, ...burst]))}`);
  console.log(`  retried hand-ins   ${JSON.stringify(statusCounts(retries))} (200 = the same graded attempt answered again)`);
  console.log(`  attempts in D1     ${attempts} for ${LONE + BURST} students, ${graded} graded 5 of 5  (lost ${LONE + BURST - graded}, doubled ${attempts - (LONE + BURST)})`);
  console.log(`  lone hand-in       median ${loneMedian.toFixed(1)} ms`);
  console.log(`  burst              ${line}`);
  const ok = graded === LONE + BURST && attempts === LONE + BURST && retries.every((r) => r.status === 200);
  console.log(`\n${ok ? "OK: every attempt graded once, 0 lost, 0 doubled." : "FAILED: see the numbers above."}`);
  return ok;
});
