// `npm run attack`, section "3. Quizzes": replays the hostile student's quiz attacks against a running local server
// (`npm start`). Loopback only (t.origin), bounded (a dozen requests and one wait of about 10 s). The demo instructor
// writes three short quizzes on a new lecture of the demo student's group; the demo student attacks them. Everything
// it made is deleted at the end.
//
// Rules replayed (docs/decisions/0014-quizzes.md, "Integrity"): no question before a quiz opens or before a timed
// quiz's attempt starts (API and page data); answers reaching the server more than 5 s after the deadline do not
// count (a save is refused and the attempt handed in on what was saved; a hand-in is graded on what was saved); the
// after-close review stays shut during the 60 s grace; new quizzes show answers after closing.

const INSTRUCTOR = { email: "instructor@example.com", password: "demo-instructor-pass" };
const STUDENT = { email: "student@example.com", password: "demo-student-pass" };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export default async function quizzes(t) {
  const staff = await t.signIn(INSTRUCTOR);
  const student = await t.signIn(STUDENT);
  const json = async (res) => ({ status: res.status, body: await res.json().catch(() => null) });

  const profile = (await json(await t.api("/api/users/profile", { token: student.token }))).body;
  const group = profile?.groups?.find((g) => g.status === "approved" || g.status === "special");
  if (!group) return t.check("quizzes: the demo student is a member of a demo group", false, "no approved group in the profile");

  const stamp = Date.now().toString(36);
  const MARK = `attack-question-${stamp}`;
  const SECRET = `attack-answer-${stamp}`;
  const questions = [
    { text: `Which value makes a flex container? ${MARK}`, type: "single", options: ["display: flex", "display: block"], correct: 0, points: 1 },
    { text: "Type the secret word.", type: "short-text", correct: [SECRET], points: 1 },
  ];
  const lecture = await json(await t.api(`/api/lectures/group/${group.slug}`, { body: { title: `Attack replay ${stamp}`, published: true }, token: staff.token }));
  if (lecture.status !== 201 && lecture.status !== 200) return t.check("quizzes: the instructor adds a lecture", false, String(lecture.status));
  const made = [];
  const create = async (title, extra) => {
    const res = await json(await t.api("/api/quizzes", { body: { lectureId: lecture.body.slug, title: `${title} ${stamp}`, maxAttempts: 1, published: true, questions, ...extra }, token: staff.token }));
    if (res.status === 201) made.push(res.body);
    else t.check(`quizzes: the instructor creates "${title}"`, false, `${res.status} ${res.body?.message ?? ""}`);
    return res.body;
  };
  const leaks = (text) => text.includes(MARK) || text.toLowerCase().includes(SECRET);
  const quizPage = (quiz, tail = "") => fetch(`${t.origin}/course/${group.slug}/lecture/${lecture.body.slug}/quiz/${quiz.slug}${tail}`, { headers: { cookie: student.cookie }, redirect: "manual" });

  try {
    const now = Date.now();
    // 1. A quiz that opens in an hour, and a timed quiz open now: no question before the attempt starts.
    const future = await create("Future quiz", { durationMinutes: 10, opensAt: new Date(now + 3_600_000).toISOString(), closesAt: new Date(now + 7_200_000).toISOString() });
    const timed = await create("Timed quiz", { durationMinutes: 10, showAnswers: "after-submit" });
    for (const [label, quiz] of [["not yet open", future], ["timed, not started", timed]]) {
      if (!quiz) continue;
      const res = await t.api(`/api/quizzes/${quiz.slug}`, { token: student.token });
      const text = await res.text();
      const body = JSON.parse(text || "{}");
      t.check(`quizzes: GET /api/quizzes/{id} of a quiz ${label} carries no question`, res.status === 200 && !leaks(text) && Array.isArray(body.questions) && body.questions.length === 0, `${res.status}, ${body.questions?.length ?? "?"} questions`);
      t.check(`quizzes: ... but says how many questions and points (${label})`, body.questionCount === 2 && body.maxScore === 2, `${body.questionCount} questions, ${body.maxScore} points`);
      for (const tail of ["", ".data", "/questions", "/questions.data"]) {
        const page = await quizPage(quiz, tail);
        t.check(`quizzes: the quiz page${tail || " (intro)"} of a quiz ${label} carries no question`, page.status < 500 && !leaks(await page.text()), String(page.status));
      }
    }
    if (timed) {
      await t.api(`/api/quizzes/${timed.slug}/start`, { method: "POST", token: student.token });
      const during = await json(await t.api(`/api/quizzes/${timed.slug}`, { token: student.token }));
      t.check("quizzes: the started attempt brings the questions", during.body?.questions?.length === 2, `${during.body?.questions?.length ?? "?"} questions`);
    }

    // 2. New quizzes show the answers after closing.
    const closing = new Date(Date.now() + 4_000).toISOString();
    const lateSave = await create("Late save", { durationMinutes: 10, closesAt: closing });
    const lateHandIn = await create("Late hand-in", { durationMinutes: 10, closesAt: closing, showAnswers: "after-submit" });
    const relay = await create("Relay", { durationMinutes: 10, closesAt: closing });
    t.check("quizzes: a new quiz with a closing time shows its answers after it closes by default", lateSave?.showAnswers === "after-close", String(lateSave?.showAnswers));

    // 3. Answering after zero, and relaying the review during the grace. The three quizzes close in 4 s.
    const ids = {};
    for (const quiz of [lateSave, lateHandIn, relay]) {
      if (!quiz) continue;
      const started = await json(await t.api(`/api/quizzes/${quiz.slug}/start`, { method: "POST", token: student.token }));
      ids[quiz.slug] = started.body?.attempt?._id;
      const [q1, q2] = quiz.questions.map((q) => q._id);
      quiz.right = { [q1]: 0, [q2]: SECRET };
      quiz.wrong = { [q1]: 1, [q2]: "no idea" };
      await t.api(`/api/quizzes/${quiz.slug}/answers`, { method: "PUT", body: { answers: quiz.wrong, attemptId: ids[quiz.slug] }, token: student.token });
    }
    if (relay) await t.api(`/api/quizzes/${relay.slug}/submit`, { body: { answers: relay.right, attemptId: ids[relay.slug] }, token: student.token });
    await sleep(Math.max(0, Date.parse(closing) + 6_500 - Date.now()));
    // 6.5 s after the deadline: beyond the 5 s allowance, inside the 60 s grace.
    if (lateSave) {
      const res = await json(await t.api(`/api/quizzes/${lateSave.slug}/answers`, { method: "PUT", body: { answers: lateSave.right, attemptId: ids[lateSave.slug] }, token: student.token }));
      // time_up, or attempt_closed once the quiz's clock (a Durable Object alarm at deadline + 5 s) has closed it.
      t.check("quizzes: a save 6.5 s after the deadline is refused (409 time_up or attempt_closed)", res.status === 409 && (res.body?.code === "time_up" || res.body?.code === "attempt_closed"), `${res.status} ${res.body?.code ?? ""}`);
      const score = (await json(await t.api(`/api/quizzes/score/${lateSave.slug}`, { token: student.token }))).body;
      t.check("quizzes: ... and the attempt is graded on the answers saved in time", score?.score === 0, JSON.stringify(score));
    }
    if (lateHandIn) {
      const res = await json(await t.api(`/api/quizzes/${lateHandIn.slug}/submit`, { body: { answers: lateHandIn.right, attemptId: ids[lateHandIn.slug] }, token: student.token }));
      t.check("quizzes: a hand-in 6.5 s after the deadline is accepted within the grace", res.status === 201 || res.status === 200, String(res.status));
      t.check("quizzes: ... but graded on the answers saved in time", res.body?.gradedOnSaved === true && res.body?.attempt?.score === 0, `gradedOnSaved ${res.body?.gradedOnSaved}, score ${res.body?.attempt?.score}`);
    }
    if (relay) {
      const res = await t.api(`/api/quizzes/${relay.slug}/result`, { token: student.token });
      const text = await res.text();
      const body = JSON.parse(text || "{}");
      t.check("quizzes: the after-close review stays shut while classmates may still hand in (60 s grace)", res.status === 200 && body.review === null && !text.toLowerCase().includes(SECRET), `${res.status} reviewWhen ${body.reviewWhen}`);
    }
  } finally {
    for (const quiz of made) await t.api(`/api/quizzes/${quiz.slug}`, { method: "DELETE", token: staff.token });
    await t.api(`/api/lectures/${lecture.body._id ?? lecture.body.slug}`, { method: "DELETE", token: staff.token });
  }
}
