// The pages `npm run bench` measures (issue 23): the baseline, public pages from the edge cache and rendered afresh,
// and the member pages of a signed-in student and of the group's instructor. Every target names the status it must
// answer with; anything else makes its ratio "n/a" (a fast error page is not a result).

const GROUP = "frontend-react";
const LECTURE = "react-components";
const GRADED_LECTURE = "html-foundations";
const GRADED_TASK = "accessible-profile-card";

/**
 * Signs in through the real API and opens one page, as a browser does, and returns the cookies (`a=b; c=d`) the
 * next pages carry: the refresh cookie and the viewer hint that first page set (worker/auth/viewer-hint.ts).
 */
async function signIn(origin, email, password) {
  const res = await fetch(`${origin}/api/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`signing in ${email} answered ${res.status}`);
  const cookie = res.headers.getSetCookie().find((c) => /^(__Host-)?cohort_refresh=/.test(c));
  if (!cookie) throw new Error(`signing in ${email} set no session cookie`);
  const session = cookie.split(";")[0];
  const page = await fetch(`${origin}/my-courses`, { headers: { cookie: session }, redirect: "manual" });
  await page.arrayBuffer();
  const hint = page.headers.getSetCookie().find((c) => /^(__Host-)?cohort_who=/.test(c));
  if (!hint) throw new Error(`the first page of ${email} set no viewer hint`);
  return `${session}; ${hint.split(";")[0]}`;
}

/** The first part of the demo course's outline, read from the public course page. */
async function firstContentId(origin) {
  const html = await (await fetch(`${origin}/content/${GROUP}`)).text();
  const m = html.match(new RegExp(`/content/${GROUP}/course/([A-Za-z0-9_-]+)`));
  if (!m) throw new Error("the demo course has no outline part to measure");
  return m[1];
}

/**
 * Targets in print order. `baseline` is the JSON 404 of an unknown API path: the Worker's own cost (routing, the
 * API's error answer, the security headers). Public pages are asked twice: as a visitor (served from the cache after
 * the first render) and with a query string, which the cache never answers (rendered afresh every time).
 * The two member pages furthest from their goals are also asked as an in-app navigation asks them ("data only":
 * Remix's `.data` request, the same loaders and their encoded answer without the HTML), which splits each page's cost
 * into its data and its render without changing the Worker (ADR 0038).
 */
export async function pageTargets(origin) {
  const student = await signIn(origin, "student@example.com", "demo-student-pass");
  const instructor = await signIn(origin, "instructor@example.com", "demo-instructor-pass");
  const contentId = await firstContentId(origin);
  const staff = `/instructor/group/${GROUP}`;
  const asStudent = { cookie: student };
  const asInstructor = { cookie: instructor };
  return [
    { name: "404 (baseline)", path: "/api/no-such-route", expected: 404, baseline: true },
    { name: "GET /api/groups", path: "/api/groups" },
    { name: "/ cached", goal: 0.8, path: "/" },
    { name: "/ uncached", path: "/?bench=1" },
    { name: "/courses cached", goal: 0.8, path: "/courses" },
    { name: "/courses uncached", path: "/courses?bench=1" },
    { name: "course details cached", goal: 0.8, path: `/content/${GROUP}` },
    { name: "course details uncached", path: `/content/${GROUP}?bench=1` },
    { name: "course content cached", goal: 0.8, path: `/content/${GROUP}/course/${contentId}` },
    { name: "feedback list cached", goal: 0.8, path: "/api/feedback" },
    { name: "course home", path: `/course/${GROUP}`, headers: asStudent, goal: 0.3 },
    { name: "course home, data only", path: `/course/${GROUP}.data`, headers: asStudent },
    { name: "lecture page", path: `/course/${GROUP}/lecture/${LECTURE}`, headers: asStudent, goal: 0.25 },
    { name: "my courses", path: "/my-courses", headers: asStudent, goal: 0.25 },
    { name: "staff: students", path: `${staff}/students`, headers: asInstructor, goal: 0.25 },
    { name: "staff: lectures", path: `${staff}/lectures`, headers: asInstructor, goal: 0.25 },
    { name: "staff: progress", path: `${staff}/progress`, headers: asInstructor, goal: 0.25 },
    { name: "staff: progress, data only", path: `${staff}/progress.data`, headers: asInstructor },
    { name: "staff: tasks", path: `${staff}/tasks`, headers: asInstructor, goal: 0.25 },
    { name: "grader", path: `${staff}/lecture/${GRADED_LECTURE}/tasks/${GRADED_TASK}/submissions`, headers: asInstructor, goal: 0.25 },
  ];
}
