// `npm run bench:attendance`: a whole lecture hall checks in at the same moment. Serves the built Worker with a
// fresh database, makes a group of 310 students (each signed in with their own session), opens attendance on a
// lecture with the admin watching the group's room, then:
//   1. 10 students check in one after another (the lone check-in latency);
//   2. 300 students check in at once;
// and checks that D1 holds exactly 310 records (0 lost, 0 doubled) and that the staff socket's last count is
// exactly 310, then prints the burst's p50/p99 latency as ratios to the lone check-in's median. Loopback only,
// bounded in count and time (a watchdog ends the run after 4 minutes).
import { burstLine, ip, json, runBurst, statusCounts } from "./burst-kit.mjs";

const LONE = 10;
const BURST = 300;

await runBurst("attendance", { students: LONE + BURST }, async ({ origin, post, soak, tokens, admin }) => {
  const lecture = await json(await post(`/api/lectures/group/${soak.group.slug}`, { title: "Burst lecture", published: true }, admin.accessToken), "lecture");
  const state = await json(await post(`/api/lectures/${lecture.slug}/attendance/open`, { rotateSeconds: 0, lateAfterMinutes: null, durationMinutes: 30 }, admin.accessToken), "open");
  const code = state.session.code;

  // The staff screen: the admin in the group's room, counting every attendance.marked frame.
  const { ticket } = await json(await post("/api/realtime/ticket", { party: "group-room", room: soak.group._id }, admin.accessToken), "ticket");
  const frames = [];
  const socket = new WebSocket(`${origin.replace("http", "ws")}/parties/group-room/${soak.group._id}?ticket=${encodeURIComponent(ticket)}`, { headers: { origin } });
  await new Promise((resolve, reject) => {
    socket.addEventListener("message", (e) => {
      const frame = JSON.parse(String(e.data));
      if (frame.type === "welcome") resolve();
      if (frame.type === "attendance.marked") frames.push(frame);
    });
    socket.addEventListener("error", () => reject(new Error("staff socket failed")));
  });

  const checkIn = async (i) => {
    const started = performance.now();
    const res = await post("/api/lectures/attend", { slugLec: lecture.slug, code }, tokens[i], ip(i));
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  };
  const lone = [];
  for (let i = 0; i < LONE; i++) lone.push(await checkIn(i));
  const burst = await Promise.all(Array.from({ length: BURST }, (_, k) => checkIn(LONE + k)));

  const deadline = Date.now() + 15_000;
  while (frames.length < LONE + BURST && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  socket.close();
  const final = await json(await fetch(`${origin}/api/lectures/${lecture.slug}/attendance`, { headers: { authorization: admin.accessToken } }), "state");
  const ids = final.roster.filter((r) => r.status).map((r) => r.user._id);
  const marked = new Set(frames.map((f) => f.record.user._id));
  const lastCount = frames.reduce((max, f) => Math.max(max, f.counts.present + f.counts.late), 0);

  const { loneMedian, line } = burstLine(lone, burst);
  console.log(`Attendance burst: ${LONE} lone check-ins, then ${BURST} at once (each student with their own session)\n`);
  console.log(`  answers            ${JSON.stringify(statusCounts([...lone, ...burst]))}`);
  console.log(`  records in D1      ${ids.length} of ${LONE + BURST}  (lost ${LONE + BURST - new Set(ids).size}, doubled ${ids.length - new Set(ids).size})`);
  console.log(`  staff socket       ${frames.length} frames for ${marked.size} students, final count ${lastCount} (lost ${LONE + BURST - marked.size})`);
  console.log(`  lone check-in      median ${loneMedian.toFixed(1)} ms`);
  console.log(`  burst              ${line}`);
  const ok = ids.length === LONE + BURST && new Set(ids).size === ids.length && lastCount === LONE + BURST && marked.size === LONE + BURST;
  console.log(`\n${ok ? "OK: 0 lost, 0 doubled, the staff screen's count is exact." : "FAILED: see the numbers above."}`);
  return ok;
});
