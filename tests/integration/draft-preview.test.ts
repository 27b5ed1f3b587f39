/**
 * A draft or archived group's public pages (the course details and each outline part): its staff (its instructor,
 * admins) open them as a preview that says so; everyone else meets the same 404 as a group that does not exist, and
 * the visitors' cached copy never holds the preview.
 */
import { describe, expect, it } from "vitest";
import type * as s from "../../db/schema";
import { exercise } from "./exercise-fixtures";
import { addCourseContent, addMember, call, createGroup, createUser, signIn, type SignedIn } from "./factories";

const DRAFT_WORDS = "Preview of a draft.";
const ARCHIVED_WORDS = "This course is archived.";

async function world(status: s.GroupStatus) {
  const teacher = await createUser({ role: "instructor" });
  const group = await createGroup({ instructorId: teacher.id, status, title: `Course ${status} ${Date.now().toString(36)}` });
  const part = await addCourseContent(group, 0, "Flexbox from the ground up");
  const otherTeacher = await createUser({ role: "instructor" });
  await createGroup({ instructorId: otherTeacher.id });
  const student = await createUser();
  // Even a student already let in does not see the group's public page while it is a draft.
  await addMember(student, group);
  const cookie = async (u: Awaited<ReturnType<typeof createUser>>) => (await signIn(u)).cookie;
  return {
    group,
    details: `/content/${group.slug}`,
    part: `/content/${group.slug}/course/${part.id}`,
    as: {
      teacher: await cookie(teacher),
      otherTeacher: await cookie(otherTeacher),
      student: await cookie(student),
      admin: await cookie(await createUser({ role: "admin" })),
    },
  };
}

async function page(path: string, cookie?: string, lang?: "ar") {
  const cookies = [cookie, lang ? `lang=${lang}` : null].filter(Boolean).join("; ");
  const res = await call(path, { cookie: cookies || undefined, headers: { accept: "text/html" } });
  return { status: res.status, html: await res.text(), cacheControl: res.headers.get("cache-control") };
}

describe("a group's public pages before it is published", () => {
  it("are a preview for its instructor and admins, and do not exist for a visitor, a student or another instructor", async () => {
    const w = await world("draft");
    for (const path of [w.details, w.part]) {
      for (const who of ["teacher", "admin"] as const) {
        const res = await page(path, w.as[who]);
        expect(res.status, `${who} ${path}`).toBe(200);
        expect(res.html).toContain(DRAFT_WORDS);
        expect(res.html).toContain(w.group.title);
        // Rendered for them alone: never stored by a browser or a shared cache.
        expect(res.cacheControl).toBe("private, no-store");
      }
      for (const who of ["student", "otherTeacher"] as const) {
        const res = await page(path, w.as[who]);
        expect(res.status, `${who} ${path}`).toBe(404);
        expect(res.html).not.toContain(w.group.title);
      }
      // A visitor, asked twice (the second from the edge cache if the first were stored): the same 404 each time.
      for (let i = 0; i < 2; i++) {
        const res = await page(path);
        expect(res.status, `visitor ${path}`).toBe(404);
        expect(res.html).not.toContain(w.group.title);
        expect(res.html).not.toContain(DRAFT_WORDS);
      }
    }
    // The details page offers the instructor the way back to running the group; the part page says it is a preview.
    expect((await page(w.details, w.as.teacher)).html).toContain(`/instructor/group/${w.group.slug}/students`);
    expect((await page(w.details, w.as.admin)).html).toContain(`/dashboard/admin/group/${w.group.slug}`);
    // And the way to publish it: the Cohort tab's publishing section, in each one's area.
    expect((await page(w.details, w.as.teacher)).html).toMatch(new RegExp(`href="/instructor/group/${w.group.slug}/cohort#publishing"[^>]*>Publish it<`));
    expect((await page(w.details, w.as.admin)).html).toMatch(new RegExp(`href="/dashboard/admin/group/${w.group.slug}/cohort#publishing"[^>]*>Publish it<`));
  });

  it("says an archived group is archived, and says it in Arabic to an Arabic reader", async () => {
    const w = await world("archived");
    const en = await page(w.details, w.as.admin);
    expect(en.status).toBe(200);
    expect(en.html).toContain(ARCHIVED_WORDS);
    expect(en.html).not.toContain(DRAFT_WORDS);
    // Only an admin brings an archived group back (on its edit page): no "Publish it" here.
    expect(en.html).not.toContain("Publish it");
    // Its members keep their course home, which says the course has ended (a published one's does not).
    const home = await page(`/course/${w.group.slug}`, w.as.student);
    expect(home.status).toBe(200);
    expect(home.html).toContain("This course has ended.");
    expect((await page(`/course/${w.group.slug}`, w.as.student, "ar")).html).toContain("انتهى هذا الكورس.");
    const live = await world("published");
    expect((await page(`/course/${live.group.slug}`, live.as.student)).html).not.toContain("This course has ended.");
    expect((await page(w.details, w.as.student)).status).toBe(404);
    const ar = await page(w.part, w.as.teacher, "ar");
    expect(ar.status).toBe(200);
    expect(ar.html).toContain("هذا الكورس مؤرشف.");
    const draft = await world("draft");
    expect((await page(draft.details, draft.as.teacher, "ar")).html).toContain("معاينة لمسودة.");
  });

  it("show no preview notice once the group is published, to staff or anyone", async () => {
    const w = await world("published");
    for (const cookie of [w.as.teacher, w.as.admin, w.as.student, undefined]) {
      const res = await page(w.details, cookie);
      expect(res.status).toBe(200);
      expect(res.html).not.toContain(DRAFT_WORDS);
      expect(res.html).not.toContain(ARCHIVED_WORDS);
    }
  });

  it("leave the API's group as it was: a draft is not found there, for its staff too", async () => {
    const w = await world("draft");
    const admin = await signIn(await createUser({ role: "admin" }));
    expect((await call(`/api/groups/${w.group.slug}`, { token: admin.accessToken })).status).toBe(404);
    expect((await call(`/api/groups/${w.group.slug}`)).status).toBe(404);
  });
});

describe("a draft group's inside, to someone outside it", () => {
  it("an unpublished quiz, exercise or lecture's attendance is 404 to someone outside the group, as to a member", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id, status: "published" });
    const member = await signIn(await createUser());
    await addMember(member.user, group);
    const outsider = await signIn(await createUser());
    const hidden = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Not yet", published: false }, token: teacher.accessToken })).json()) as { _id: string; slug: string };
    const quiz = await call("/api/quizzes", { body: { lectureId: hidden.slug, title: "Hidden quiz", maxAttempts: 1, showAnswers: "after-submit", published: true, questions: [{ text: "1 + 1?", type: "single", options: ["1", "2"], correct: 1 }] }, token: teacher.accessToken });
    expect(quiz.status).toBe(201);
    const slug = ((await quiz.json()) as { slug: string }).slug;
    for (const who of [member, outsider]) {
      for (const path of [`/api/quizzes/${slug}`, `/api/quizzes/${slug}/result`, `/api/lectures/${hidden.slug}/get-user-attendance-status-in-group`]) {
        expect((await call(path, { token: who.accessToken })).status, path).toBe(404);
      }
    }
  });

  it("its published lecture, task, quiz and exercise are 404 on their own addresses to outsiders, 403 once the group is published", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const outsider = await signIn(await createUser());
    const otherTeacher = await signIn(await createUser({ role: "instructor" }));
    /** A published lecture with a task (and its exercise) and a quiz, in a group of this status. */
    const inside = async (status: s.GroupStatus) => {
      const group = await createGroup({ instructorId: teacher.user.id, status });
      const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Week 1", published: true }, token: teacher.accessToken })).json()) as { slug: string };
      const task = await call(`/api/lectures/${lecture.slug}/tasks`, { body: { title: "Profile card", body: "Build it.", dueAt: null, maxScore: 10, allowLate: true }, token: teacher.accessToken });
      expect(task.status).toBe(201);
      const taskSlug = ((await task.json()) as { slug: string }).slug;
      expect((await call(`/api/exercises/${taskSlug}`, { method: "PUT", body: exercise(), token: teacher.accessToken })).status).toBe(200);
      const quiz = await call("/api/quizzes", { body: { lectureId: lecture.slug, title: "Warm-up", maxAttempts: 1, showAnswers: "after-submit", published: true, questions: [{ text: "1 + 1?", type: "single", options: ["1", "2"], correct: 1 }] }, token: teacher.accessToken });
      expect(quiz.status).toBe(201);
      const quizSlug = ((await quiz.json()) as { slug: string }).slug;
      const course = `/course/${group.slug}/lecture/${lecture.slug}`;
      return {
        api: [
          `/api/lectures/${lecture.slug}`,
          `/api/lectures/${lecture.slug}/get-user-attendance-status-in-group`,
          `/api/lectures/${lecture.slug}/tasks/${taskSlug}`,
          `/api/exercises/${taskSlug}`,
          `/api/quizzes/${quizSlug}`,
          `/api/quizzes/${quizSlug}/result`,
        ],
        // The staff's own: another instructor is told nothing of a draft's items either.
        staff: [`/api/lectures/${lecture.slug}/tasks/${taskSlug}/submissions`, `/api/lectures/${lecture.slug}/attendance`],
        pages: [course, `${course}/Add-Task/${taskSlug}`, `${course}/quiz/${quizSlug}`],
      };
    };
    const draft = await inside("draft");
    const published = await inside("published");
    const answer = async (who: SignedIn, path: string, page: boolean) => {
      const res = page ? await call(path, { cookie: who.cookie, headers: { accept: "text/html" } }) : await call(path, { token: who.accessToken });
      return { status: res.status, body: await res.text() };
    };
    for (const who of [outsider, otherTeacher]) {
      // A student is refused the staff's addresses by their role first, which tells nothing of any group.
      for (const path of [...draft.api, ...(who === otherTeacher ? draft.staff : [])]) {
        const res = await answer(who, path, false);
        expect(res.status, path).toBe(404);
        expect(JSON.parse(res.body).message, path).toMatch(/^No such (lecture|task|exercise|quiz)\.$/);
      }
      for (const path of draft.pages) expect((await answer(who, path, true)).status, path).toBe(404);
      for (const path of [...published.api, ...published.pages]) expect((await answer(who, path, path.startsWith("/course/"))).status, path).toBe(403);
    }
    // Its own instructor still opens every one of them (but a student's own result, which staff read in the results).
    for (const path of [...draft.api, ...draft.staff].filter((p) => !p.endsWith("/result"))) expect((await answer(teacher, path, false)).status, path).toBe(200);
    for (const path of draft.pages) expect((await answer(teacher, path, true)).status, path).toBe(200);
  });

  it("every other address that names a draft or one of its items is 404 to outsiders; a scheduled task is 404 to another instructor", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const outsider = await signIn(await createUser());
    const otherTeacher = await signIn(await createUser({ role: "instructor" }));
    const build = async (status: s.GroupStatus) => {
      const group = await createGroup({ instructorId: teacher.user.id, status });
      const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "Week 1", published: true }, token: teacher.accessToken })).json()) as { slug: string };
      const task = (await (await call(`/api/lectures/${lecture.slug}/tasks`, { body: { title: "Card", body: "Build it.", dueAt: null, maxScore: 10, allowLate: true }, token: teacher.accessToken })).json()) as { slug: string };
      const notice = await call(`/api/groups/${group.slug}/announcements`, { body: { title: "Welcome", body: "Hello." }, token: teacher.accessToken });
      expect(notice.status).toBe(201);
      const announcement = ((await notice.json()) as { _id: string })._id;
      const sent = await call("/api/messages", { body: { groupId: group.id, text: "Hello, group", clientId: `c-${Date.now().toString(36)}-${status}` }, token: teacher.accessToken });
      expect(sent.status).toBe(201);
      const message = ((await sent.json()) as { message: { id: number } }).message.id;
      type Ask = [method: string, path: string, body?: unknown];
      return {
        // Anyone outside (a student, another instructor).
        anyone: [
          ["GET", `/api/users/groups/${group.slug}/progress`],
          ["POST", "/api/realtime/ticket", { party: "group-room", room: group.id }],
          ["POST", `/api/groups/${group.slug}/announcements/${announcement}/dismiss`],
          ["GET", `/api/quizzes/lecture/${lecture.slug}`],
          ["DELETE", `/api/messages/${message}`],
        ] as Ask[],
        // The staff's own addresses (a student meets the role check first).
        staff: [
          ["GET", `/api/groups/${group.slug}/progress`],
          ["GET", `/api/groups/${group.slug}/export/progress.csv`],
          ["GET", `/api/quizzes/groups/${group.slug}/results`],
          ["POST", `/api/lectures/${lecture.slug}/tasks`, { title: "More", body: "x", dueAt: null, maxScore: 10, allowLate: true }],
          ["POST", "/api/quizzes", { lectureId: lecture.slug, title: "Quiz", maxAttempts: 1, showAnswers: "after-submit", questions: [{ text: "1 + 1?", type: "single", options: ["1", "2"], correct: 1 }] }],
          ["GET", `/api/lectures/${lecture.slug}/tasks/${task.slug}/extensions`],
          ["DELETE", `/api/groups/${group.slug}/announcements/${announcement}`],
          ["POST", `/api/groups/${group.slug}/copy`, { title: "Next term", startDate: "2027-02-01" }],
          ["PUT", `/api/schedule/task/${task.slug}`, { publishAt: null }],
        ] as Ask[],
      };
    };
    const draft = await build("draft");
    const published = await build("published");
    const ask = async (who: SignedIn, [method, path, body]: [string, string, unknown?]) => (await call(path, { method, body, token: who.accessToken })).status;
    for (const a of draft.anyone) {
      expect(await ask(outsider, a), `outsider ${a[0]} ${a[1]}`).toBe(404);
      expect(await ask(otherTeacher, a), `other instructor ${a[0]} ${a[1]}`).toBe(404);
    }
    for (const a of draft.staff) expect(await ask(otherTeacher, a), `other instructor ${a[0]} ${a[1]}`).toBe(404);
    // Once published, the same people are told the rule.
    for (const a of [...published.anyone.slice(0, 4), ...published.staff.slice(0, 3)]) expect(await ask(otherTeacher, a), `published: ${a[0]} ${a[1]}`).toBe(403);
    // Leaving a draft one never joined: "not found", as a group that does not exist.
    const leave = await call("/api/users/leave-group", { body: { groupSlug: (await createGroup({ instructorId: teacher.user.id, status: "draft" })).slug }, token: outsider.accessToken });
    expect(leave.status).toBe(404);
    expect(((await leave.json()) as { code: string }).code).toBe("not_found");
    // Feedback about a draft one is outside: "no such group", as a made-up slug; about a published one, the rule.
    const rating = { rating: 5, userFeedback: "Great" };
    const draftFeedback = await call("/api/feedback", { body: { groupSlug: (await createGroup({ instructorId: teacher.user.id, status: "draft" })).slug, ...rating }, token: outsider.accessToken });
    const madeUp = await call("/api/feedback", { body: { groupSlug: "no-such-group-anywhere", ...rating }, token: outsider.accessToken });
    expect([draftFeedback.status, madeUp.status]).toEqual([404, 404]);
    expect(await draftFeedback.json()).toEqual(await madeUp.json());
    expect((await call("/api/feedback", { body: { groupSlug: (await createGroup({ instructorId: teacher.user.id, status: "published" })).slug, ...rating }, token: outsider.accessToken })).status).toBe(403);
    // A task scheduled for later, in a published group: another instructor learns nothing of it.
    const lecture = (await (await call(`/api/lectures/group/${(await createGroup({ instructorId: teacher.user.id, status: "published" })).slug}`, { body: { title: "Week 2", published: true }, token: teacher.accessToken })).json()) as { slug: string };
    const scheduled = await call(`/api/lectures/${lecture.slug}/tasks`, { body: { title: "Later", body: "x", dueAt: null, maxScore: 10, allowLate: true, publishAt: new Date(Date.now() + 86_400_000).toISOString() }, token: teacher.accessToken });
    expect(scheduled.status).toBe(201);
    const later = (await scheduled.json()) as { slug: string; publishAt: string | null };
    expect(later.publishAt).not.toBeNull();
    for (const path of [`/api/schedule/task/${later.slug}`, `/api/lectures/${lecture.slug}/tasks/${later.slug}/extensions`]) {
      expect(await ask(otherTeacher, [path.startsWith("/api/schedule") ? "PUT" : "GET", path, path.startsWith("/api/schedule") ? { publishAt: null } : undefined]), path).toBe(404);
    }
    // The group's own instructor still does all of it.
    expect(await ask(teacher, ["GET", `/api/groups/${draft.staff[0]![1].split("/")[3]}/progress`])).toBe(200);
  });

  it("is as unknown as a group that does not exist (404) on every list of the API, and refused (403) once published", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const outsider = await signIn(await createUser());
    const otherTeacher = await signIn(await createUser({ role: "instructor" }));
    const lists = (slug: string) => [`/api/lectures/group/${slug}`, `/api/lectures/groups/${slug}/tasks`, `/api/quizzes/groups/${slug}`, `/api/groups/${slug}/announcements`, `/api/messages/group/${slug}`];
    const draft = await createGroup({ instructorId: teacher.user.id, status: "draft" });
    const published = await createGroup({ instructorId: teacher.user.id, status: "published" });
    for (const who of [outsider, otherTeacher]) {
      for (const path of [...lists(draft.slug), ...lists(`no-such-${draft.slug}`)]) expect((await call(path, { token: who.accessToken })).status, path).toBe(404);
      for (const path of lists(published.slug)) expect((await call(path, { token: who.accessToken })).status, path).toBe(403);
    }
    // Its own staff still read them.
    for (const path of lists(draft.slug)) expect((await call(path, { token: teacher.accessToken })).status, path).toBe(200);
    // The staff's own lists of a draft: another instructor is told nothing of it either.
    for (const path of [`/api/groups/${draft.slug}/students`, `/api/groups/${draft.slug}/certificates`, `/api/groups/${draft.slug}/question-bank`]) {
      expect((await call(path, { token: otherTeacher.accessToken })).status, path).toBe(404);
      expect((await call(path.replace(draft.slug, published.slug), { token: otherTeacher.accessToken })).status, path).toBe(403);
    }
  });
});
