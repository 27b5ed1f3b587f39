/**
 * The access matrix: every API route the Hono app registers, with the status each kind of caller gets.
 * A route added without a row here fails the first test, so nobody ships an endpoint whose access was never
 * decided. Each row builds a fresh world (two groups, each with an approved student and its instructor, and an
 * admin) and sends one realistic request per actor; the caller's own ids, cookies and passwords are used where
 * the route acts on the caller.
 *
 * "OtherGroup" actors are a student and an instructor of a different group than the one the request is about.
 */
import { eq } from "drizzle-orm";
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fullApi } from "../../worker/api";
import * as schema from "../../db/schema";
import { issueCode } from "../../worker/services/codes";
import { openAttendance } from "../../worker/services/attendance";
import { newId } from "../../worker/services/ids";
import { newCertificateCode } from "../../worker/services/certificates";
import { addCourseContent, addMember, call, createGroup, createUser, DEFAULT_PASSWORD, fileForm, imageFile, signIn, type SignedIn, viewerOf } from "./factories";
import { db, insertFeedback, serviceContext, unique } from "./helpers";

const ACTORS = ["anonymous", "student", "studentOtherGroup", "instructor", "instructorOtherGroup", "admin"] as const;
type Actor = (typeof ACTORS)[number];
type SignedInActor = Exclude<Actor, "anonymous">;
type Statuses = Record<Actor, number>;

interface World {
  group: Awaited<ReturnType<typeof createGroup>>;
  otherGroup: Awaited<ReturnType<typeof createGroup>>;
  as: Record<SignedInActor, SignedIn>;
}

interface Req {
  path: string;
  method?: string;
  body?: unknown;
  /** A multipart body instead of JSON. */
  form?: FormData;
  /** Send the actor's refresh cookie too (endpoints that work from the cookie). */
  cookie?: boolean;
}

interface Row {
  /** Builds the request an actor sends (may create data first). */
  request: (w: World, actor: Actor) => Req | Promise<Req>;
  expect: Statuses;
}

const all = (status: number): Statuses => ({ anonymous: status, student: status, studentOtherGroup: status, instructor: status, instructorOtherGroup: status, admin: status });
const signedIn = (status: number): Statuses => ({ ...all(status), anonymous: 401 });
const adminOnly = (status: number): Statuses => ({ ...all(403), anonymous: 401, admin: status });
/** Admins and every instructor. */
const staff = (status: number): Statuses => ({ ...all(status), anonymous: 401, student: 403, studentOtherGroup: 403 });
/** Admins and the instructor of the group the request is about. */
const staffOfGroup = (status: number): Statuses => ({ ...staff(status), instructorOtherGroup: 403 });

/** The group's members (the student), its instructor and admins: who sees a group's inside. */
const groupInside = (status: number): Statuses => ({ anonymous: 401, student: status, studentOtherGroup: 403, instructor: status, instructorOtherGroup: 403, admin: status });

async function chatMessageBy(author: SignedIn, w: World): Promise<number> {
  const [row] = await db().insert(schema.messages).values({ groupId: w.group.id, authorId: author.user.id, text: "To be deleted" }).returning({ id: schema.messages.id });
  return row!.id;
}

/** A published lecture of the world's group. */
async function lectureIn(w: World) {
  const row = { id: newId(), groupId: w.group.id, slug: unique("lec"), title: "A lecture", published: true, order: 1 };
  await db().insert(schema.lectures).values(row);
  return row;
}

/** A task on a published lecture of the world's group. */
async function taskIn(w: World) {
  const lecture = await lectureIn(w);
  const task = { id: newId(), lectureId: lecture.id, slug: unique("task"), title: "A task", maxScore: 10 };
  await db().insert(schema.tasks).values(task);
  return { lecture, task };
}

const RUBRIC = { title: "A rubric", criteria: [{ id: "c1", title: "Quality", description: "", levels: [{ title: "Good", description: "", points: 5 }, { title: "Poor", description: "", points: 0 }] }] };

/** A rubric of the world's group. */
async function rubricIn(w: World) {
  const id = newId();
  await db().insert(schema.rubrics).values({ id, groupId: w.group.id, title: "A rubric", criteria: RUBRIC.criteria, updatedAt: new Date() });
  return id;
}

/** A question in the world's group's bank. */
/** An announcement in the world's group. */
async function announcementIn(w: World) {
  const id = newId();
  await db().insert(schema.announcements).values({ id, groupId: w.group.id, authorId: w.as.instructor.user.id, title: "Note", body: "Hi", bodyHtml: "<p>Hi</p>" });
  return id;
}

/** The world's student's certificate in its group (one per student and group). */
async function certificateIn(w: World) {
  await db()
    .insert(schema.certificates)
    .values({ id: newId(), code: newCertificateCode(), groupId: w.group.id, userId: w.as.student.user.id, recipientName: "A student", courseTitle: "A course", issuedAt: new Date() })
    .onConflictDoNothing();
  const [row] = await db().select().from(schema.certificates).where(eq(schema.certificates.userId, w.as.student.user.id));
  return row!;
}

async function bankQuestionIn(w: World) {
  const id = newId();
  await db().insert(schema.bankQuestions).values({ id, groupId: w.group.id, text: "1 + 1?", type: "single", options: ["1", "2"], correct: [1], points: 1, tags: ["sums"], updatedAt: new Date() });
  return id;
}

/** The world's student's hand-in on a task of the group: the API path of that submission. */
async function ownHandIn(w: World) {
  const { lecture, task } = await taskIn(w);
  const id = newId();
  await db().insert(schema.submissions).values({ id, taskId: task.id, userId: w.as.student.user.id, link: "https://github.com/me/work", submittedAt: new Date() });
  return `/api/lectures/${lecture.slug}/tasks/${task.slug}/submissions/${id}`;
}

const EXERCISE = { tests: [{ name: "one", call: "f()", expected: "1" }], referenceSolution: "function f() { return 1; }", published: true, timeMs: 200, memoryMb: 8 };

/** A published code exercise on a task of a published lecture of the world's group. */
async function exerciseIn(w: World) {
  const { task } = await taskIn(w);
  await db().insert(schema.exercises).values({ taskId: task.id, tests: EXERCISE.tests.map((t) => ({ ...t, points: 1, hidden: false })), referenceSolution: EXERCISE.referenceSolution, published: true, verifiedAt: new Date(), timeMs: 200, memoryMb: 8, updatedAt: new Date() });
  return task;
}

/** A published quiz (one single-choice question) on a published lecture of the world's group. */
async function quizIn(w: World) {
  const lecture = await lectureIn(w);
  const quiz = { id: newId(), lectureId: lecture.id, groupId: w.group.id, slug: unique("quiz"), title: "A quiz", maxAttempts: 3, published: true };
  await db().insert(schema.quizzes).values(quiz);
  const question = { id: newId(), quizId: quiz.id, text: "1 + 1?", type: "single" as const, options: ["1", "2"], correct: [1], points: 1, order: 0 };
  await db().insert(schema.questions).values(question);
  return { lecture, quiz, question };
}

/** The student's own attempt at a quiz: open (for saving answers) or handed in (for the result). */
async function attemptOf(w: World, actor: Actor, quizId: string, submitted: boolean) {
  if (actor !== "student") return;
  await db().insert(schema.attempts).values({ id: newId(), quizId, userId: w.as.student.user.id, number: 1, answers: {}, startedAt: new Date(), score: submitted ? 0 : null, maxScore: submitted ? 1 : null, submittedAt: submitted ? new Date() : null });
}

/** Only the group's students take its quizzes (staff see results instead). */
const takers = (status: number): Statuses => ({ anonymous: 401, student: status, studentOtherGroup: 403, instructor: 403, instructorOtherGroup: 403, admin: 403 });

async function notificationFor(who: SignedIn): Promise<string> {
  const id = newId();
  await db().insert(schema.notifications).values({ id, userId: who.user.id, kind: "test", title: "Something happened" });
  return id;
}

async function contactMessage(): Promise<string> {
  const id = newId();
  await db().insert(schema.contactMessages).values({ id, name: "Visitor", email: `${unique("v")}@test.example`, message: "Hello" });
  return id;
}

async function world(): Promise<World> {
  const [instructor, instructorOtherGroup, student, studentOtherGroup, admin] = await Promise.all([
    createUser({ role: "instructor" }),
    createUser({ role: "instructor" }),
    createUser(),
    createUser(),
    createUser({ role: "admin" }),
  ]);
  const group = await createGroup({ instructorId: instructor.id });
  const otherGroup = await createGroup({ instructorId: instructorOtherGroup.id });
  await addMember(student, group, "approved");
  await addMember(studentOtherGroup, otherGroup, "approved");
  const [a, b, c, d, e] = await Promise.all([student, studentOtherGroup, instructor, instructorOtherGroup, admin].map((u) => signIn(u)));
  return { group, otherGroup, as: { student: a!, studentOtherGroup: b!, instructor: c!, instructorOtherGroup: d!, admin: e! } };
}

const email = () => `${unique("m")}@test.example`;

/** A fresh user with a live one-time code, for the verify and reset rows. */
async function userWithCode(purpose: "verify-email" | "reset-password") {
  const user = await createUser({ verified: purpose === "reset-password" });
  const { ctx } = serviceContext();
  return { user, code: await issueCode(ctx, user.id, purpose) };
}

const MATRIX: Record<string, Row> = {
  // Foundation: public reads and the contact form.
  "GET /api/health": { request: () => ({ path: "/api/health" }), expect: all(200) },
  "GET /api/groups": { request: () => ({ path: "/api/groups" }), expect: all(200) },
  "GET /api/groups/:id": { request: (w) => ({ path: `/api/groups/${w.group.slug}` }), expect: all(200) },
  "GET /api/feedback": { request: () => ({ path: "/api/feedback" }), expect: all(200) },
  "POST /api/contact": { request: () => ({ path: "/api/contact", body: { name: "Visitor", email: email(), message: "Hello" } }), expect: all(201) },
  "GET /api/openapi.json": { request: () => ({ path: "/api/openapi.json" }), expect: all(200) },
  "GET /api/docs": { request: () => ({ path: "/api/docs" }), expect: all(200) },
  // Development helpers: open in development (these tests), 404 in production (foundation-dev.test.ts).
  "GET /api/dev/mailbox": { request: () => ({ path: `/api/dev/mailbox?to=${email()}` }), expect: all(200) },
  "POST /api/dev/seed": { request: () => ({ path: "/api/dev/seed", method: "POST" }), expect: all(200) },

  // Signing up and in: public by nature.
  "POST /api/users/register": {
    request: () => ({ path: "/api/users/register", body: { name: "New Person", email: email(), password: DEFAULT_PASSWORD, phone_number: "+201001234567" } }),
    expect: all(201),
  },
  "POST /api/users/verify-email": {
    request: async () => {
      const { user, code } = await userWithCode("verify-email");
      return { path: "/api/users/verify-email", body: { email: user.email, code } };
    },
    expect: all(200),
  },
  "POST /api/users/resend-verification": { request: () => ({ path: "/api/users/resend-verification", body: { email: email() } }), expect: all(200) },
  "POST /api/users/login": {
    request: async () => {
      const user = await createUser();
      return { path: "/api/users/login", body: { email: user.email, password: user.password } };
    },
    expect: all(200),
  },
  "POST /api/users/refresh-token": { request: () => ({ path: "/api/users/refresh-token", method: "POST", cookie: true }), expect: signedIn(200) },
  "POST /api/users/logout": { request: () => ({ path: "/api/users/logout", method: "POST", cookie: true }), expect: all(200) },
  "POST /api/users/forgot-password": { request: () => ({ path: "/api/users/forgot-password", body: { email: email() } }), expect: all(200) },
  "POST /api/users/reset-password": {
    request: async () => {
      const { user, code } = await userWithCode("reset-password");
      return { path: "/api/users/reset-password", body: { email: user.email, resetCode: code, newPassword: "another-password-1" } };
    },
    expect: all(200),
  },
  // Google credentials are not configured in the test env (google.test.ts configures them).
  "GET /api/users/google": { request: () => ({ path: "/api/users/google" }), expect: all(404) },
  "GET /api/users/google/callback": { request: () => ({ path: "/api/users/google/callback?code=c&state=s" }), expect: all(404) },

  // One's own account.
  "GET /api/users/profile": { request: () => ({ path: "/api/users/profile" }), expect: signedIn(200) },
  "PUT /api/users": { request: () => ({ path: "/api/users", method: "PUT", body: { name: "Renamed" } }), expect: signedIn(200) },
  "PUT /api/users/password": {
    request: () => ({ path: "/api/users/password", method: "PUT", body: { currentPassword: DEFAULT_PASSWORD, newPassword: "a-changed-password" } }),
    expect: signedIn(200),
  },
  "GET /api/users/sessions": { request: () => ({ path: "/api/users/sessions" }), expect: signedIn(200) },
  "DELETE /api/users/sessions/:id": {
    request: async (w, actor) => {
      const own = actor === "anonymous" ? w.as.student : await signIn(w.as[actor].user);
      return { path: `/api/users/sessions/${own.sessionId}`, method: "DELETE" };
    },
    expect: signedIn(200),
  },
  "DELETE /api/user": {
    request: async (_w, actor) => {
      // Another admin exists, so the acting admin is never the last one.
      if (actor === "admin") await createUser({ role: "admin" });
      return { path: "/api/user", method: "DELETE", body: { password: DEFAULT_PASSWORD } };
    },
    // An instructor who runs a group stays until it is given to another (409 runs_groups).
    expect: { ...signedIn(200), instructor: 409, instructorOtherGroup: 409 },
  },

  // Admins' user management.
  "GET /api/users": { request: () => ({ path: "/api/users?page=1&pageSize=5" }), expect: adminOnly(200) },
  "DELETE /api/users": { request: async () => ({ path: "/api/users", method: "DELETE", body: { userId: (await createUser()).id } }), expect: adminOnly(200) },
  "PUT /api/users/:id/role": {
    request: async () => ({ path: `/api/users/${(await createUser()).id}/role`, method: "PUT", body: { role: "instructor" } }),
    expect: adminOnly(200),
  },

  // Groups: staff management (admins: every group; instructors: their own), the outline and the students.
  "GET /api/groups/manage": { request: () => ({ path: "/api/groups/manage?page=1" }), expect: staff(200) },
  "GET /api/groups/manage/:id": { request: (w) => ({ path: `/api/groups/manage/${w.group.slug}` }), expect: staffOfGroup(200) },
  "POST /api/groups": { request: () => ({ path: "/api/groups", body: { title: `New ${unique("group")}` } }), expect: adminOnly(201) },
  "PUT /api/groups/:id": { request: (w) => ({ path: `/api/groups/${w.group.id}`, method: "PUT", body: { title: "Renamed group" } }), expect: staffOfGroup(200) },
  "GET /api/groups/:id/content": { request: (w) => ({ path: `/api/groups/${w.group.slug}/content` }), expect: staffOfGroup(200) },
  "POST /api/groups/:id/content": {
    request: (w) => ({ path: `/api/groups/${w.group.slug}/content`, body: { title: "Week 1", body: "HTML and CSS" } }),
    expect: staffOfGroup(201),
  },
  "PUT /api/groups/:id/content/order": {
    request: async (w) => {
      const [a, b] = await Promise.all([addCourseContent(w.group, 0), addCourseContent(w.group, 1)]);
      const existing = await call(`/api/groups/${w.group.id}/content`, { token: w.as.admin.accessToken });
      const ids = ((await existing.json()) as { _id: string }[]).map((x) => x._id).filter((id) => id !== a.id && id !== b.id);
      return { path: `/api/groups/${w.group.id}/content/order`, method: "PUT", body: { ids: [b.id, a.id, ...ids] } };
    },
    expect: staffOfGroup(200),
  },
  "PUT /api/groups/:id/content/:contentId": {
    request: async (w) => ({ path: `/api/groups/${w.group.id}/content/${(await addCourseContent(w.group)).id}`, method: "PUT", body: { title: "Edited" } }),
    expect: staffOfGroup(200),
  },
  "DELETE /api/groups/:id/content/:contentId": {
    request: async (w) => ({ path: `/api/groups/${w.group.id}/content/${(await addCourseContent(w.group)).id}`, method: "DELETE" }),
    expect: staffOfGroup(200),
  },
  "GET /api/groups/:id/students": { request: (w) => ({ path: `/api/groups/${w.group.slug}/students` }), expect: staffOfGroup(200) },
  "PUT /api/groups/:id/students/:userId": {
    request: (w) => ({ path: `/api/groups/${w.group.id}/students/${w.as.student.user.id}`, method: "PUT", body: { status: "special" } }),
    expect: staffOfGroup(200),
  },
  "PUT /api/groups/:id/students/:userId/quiz-time": {
    request: (w) => ({ path: `/api/groups/${w.group.id}/students/${w.as.student.user.id}/quiz-time`, method: "PUT", body: { timeMultiplier: 1.5 } }),
    expect: staffOfGroup(200),
  },
  // Rubrics: the group's staff only (other instructors of the site included, as for the group's other staff routes).
  "GET /api/groups/:id/rubrics": { request: (w) => ({ path: `/api/groups/${w.group.slug}/rubrics` }), expect: staffOfGroup(200) },
  "POST /api/groups/:id/rubrics": { request: (w) => ({ path: `/api/groups/${w.group.id}/rubrics`, method: "POST", body: RUBRIC }), expect: staffOfGroup(201) },
  "PUT /api/groups/:id/rubrics/:rubricId": {
    request: async (w) => ({ path: `/api/groups/${w.group.id}/rubrics/${await rubricIn(w)}`, method: "PUT", body: { ...RUBRIC, title: "Renamed" } }),
    expect: staffOfGroup(200),
  },
  "DELETE /api/groups/:id/rubrics/:rubricId": {
    request: async (w) => ({ path: `/api/groups/${w.group.id}/rubrics/${await rubricIn(w)}`, method: "DELETE" }),
    expect: staffOfGroup(200),
  },
  "GET /api/users/instructors": { request: () => ({ path: "/api/users/instructors" }), expect: adminOnly(200) },
  "POST /api/uploads/course-image": { request: () => ({ path: "/api/uploads/course-image", form: fileForm(imageFile("image/png")) }), expect: staff(201) },

  // Membership: students ask to join and leave; staff decide in their inbox and see students of their groups.
  "POST /api/users/joinGroupRequest": {
    request: async () => ({ path: "/api/users/joinGroupRequest", body: { groupSlug: (await createGroup()).slug, message: "Hello" } }),
    expect: { ...all(403), anonymous: 401, student: 201, studentOtherGroup: 201 },
  },
  "POST /api/users/leave-group": {
    request: (w, actor) => ({ path: "/api/users/leave-group", body: { groupSlug: actor === "studentOtherGroup" ? w.otherGroup.slug : w.group.slug } }),
    expect: { ...all(404), anonymous: 401, student: 200, studentOtherGroup: 200 },
  },
  // Only one's own waiting request can be withdrawn, and nobody here has one (members are approved): 409 for all.
  "POST /api/users/withdraw-request": {
    request: (w) => ({ path: "/api/users/withdraw-request", body: { groupSlug: w.group.slug } }),
    expect: { ...all(409), anonymous: 401 },
  },
  "GET /api/membership-requests": { request: () => ({ path: "/api/membership-requests" }), expect: staff(200) },
  "PUT /api/membership-requests/:id": {
    request: async (w) => {
      const request = await addMember(await createUser(), w.group, "pending");
      return { path: `/api/membership-requests/${request.id}`, method: "PUT", body: { decision: "rejected" } };
    },
    expect: staffOfGroup(200),
  },
  "GET /api/students/:id": { request: (w) => ({ path: `/api/students/${w.as.student.user.slug}` }), expect: staffOfGroup(200) },

  // Realtime: the group's room is for its members, its instructor and admins.
  "POST /api/realtime/ticket": {
    request: (w) => ({ path: "/api/realtime/ticket", body: { party: "group-room", room: w.group.id } }),
    expect: { anonymous: 401, student: 200, studentOtherGroup: 403, instructor: 200, instructorOtherGroup: 403, admin: 200 },
  },

  // Group chat: the group's members and staff. The message deleted is the group's student's own.
  "GET /api/messages/group/:id": { request: (w) => ({ path: `/api/messages/group/${w.group.slug}` }), expect: groupInside(200) },
  "POST /api/messages": {
    request: (w) => ({ path: "/api/messages", body: { groupId: w.group.id, text: "Hello, group", clientId: newId() } }),
    expect: groupInside(201),
  },
  "DELETE /api/messages/:id": { request: async (w) => ({ path: `/api/messages/${await chatMessageBy(w.as.student, w)}`, method: "DELETE" }), expect: groupInside(200) },

  // Notifications: one's own only (someone else's answers 404: notifications.test.ts).
  "GET /api/notifications": { request: () => ({ path: "/api/notifications" }), expect: signedIn(200) },
  "PUT /api/notifications/read-all": { request: () => ({ path: "/api/notifications/read-all", method: "PUT" }), expect: signedIn(200) },
  "PUT /api/notifications/:id/read": {
    request: async (w, actor) => ({ path: `/api/notifications/${await notificationFor(w.as[actor === "anonymous" ? "student" : actor])}/read`, method: "PUT" }),
    expect: signedIn(200),
  },

  // The admins' inbox of contact messages.
  "GET /api/contact-messages": { request: () => ({ path: "/api/contact-messages?status=unread" }), expect: adminOnly(200) },
  "PUT /api/contact-messages/:id/read": {
    request: async () => ({ path: `/api/contact-messages/${await contactMessage()}/read`, method: "PUT", body: { read: true } }),
    expect: adminOnly(200),
  },
  "DELETE /api/contact-messages/:id": { request: async () => ({ path: `/api/contact-messages/${await contactMessage()}`, method: "DELETE" }), expect: adminOnly(200) },

  // Feedback: shared by the group's students, moderated by admins.
  "POST /api/feedback": {
    request: (w) => ({ path: "/api/feedback", body: { groupSlug: w.group.slug, userFeedback: "Great course", rating: 5 } }),
    expect: { ...all(403), anonymous: 401, student: 201 },
  },
  "GET /api/feedback/mine": { request: () => ({ path: "/api/feedback/mine" }), expect: signedIn(200) },
  "GET /api/feedback/all": { request: () => ({ path: "/api/feedback/all" }), expect: adminOnly(200) },
  "PUT /api/feedback/:id": { request: async () => ({ path: `/api/feedback/${(await insertFeedback()).id}`, method: "PUT", body: { hidden: true } }), expect: adminOnly(200) },
  "DELETE /api/feedback/:id": { request: async () => ({ path: `/api/feedback/${(await insertFeedback()).id}`, method: "DELETE" }), expect: adminOnly(200) },
  // Lectures and attendance: members and staff read; the group's staff write and run attendance; students check in.
  "GET /api/lectures/group/:id": { request: (w) => ({ path: `/api/lectures/group/${w.group.slug}` }), expect: groupInside(200) },
  "POST /api/lectures/group/:id": { request: (w) => ({ path: `/api/lectures/group/${w.group.slug}`, body: { title: "Week 1" } }), expect: staffOfGroup(201) },
  "PUT /api/lectures/group/:id/order": {
    request: async (w) => {
      const ids = (await db().select({ id: schema.lectures.id }).from(schema.lectures).where(eq(schema.lectures.groupId, w.group.id))).map((r) => r.id);
      const extra = await lectureIn(w);
      return { path: `/api/lectures/group/${w.group.slug}/order`, method: "PUT", body: { ids: [extra.id, ...ids] } };
    },
    expect: staffOfGroup(200),
  },
  "POST /api/lectures/group/:id/schedule": {
    request: (w) => ({ path: `/api/lectures/group/${w.group.slug}/schedule`, body: { title: "Session", days: [1], time: "18:00", from: "2026-12-07", count: 2 } }),
    expect: staffOfGroup(201),
  },
  "POST /api/lectures/attend": {
    request: async (w) => {
      const lecture = await lectureIn(w);
      const { ctx } = serviceContext();
      const state = await openAttendance(ctx, viewerOf(w.as.admin), lecture.id, { rotateSeconds: 0, lateAfterMinutes: null, durationMinutes: 30 });
      return { path: "/api/lectures/attend", body: { slugLec: lecture.slug, code: state.session!.code } };
    },
    expect: { anonymous: 401, student: 200, studentOtherGroup: 403, instructor: 403, instructorOtherGroup: 403, admin: 403 },
  },
  "GET /api/lectures/:id": { request: async (w) => ({ path: `/api/lectures/${(await lectureIn(w)).slug}` }), expect: groupInside(200) },
  "PUT /api/lectures/:id": { request: async (w) => ({ path: `/api/lectures/${(await lectureIn(w)).id}`, method: "PUT", body: { title: "Renamed" } }), expect: staffOfGroup(200) },
  "DELETE /api/lectures/:id": { request: async (w) => ({ path: `/api/lectures/${(await lectureIn(w)).id}`, method: "DELETE" }), expect: staffOfGroup(200) },
  "POST /api/lectures/:id/attendance/open": {
    request: async (w) => ({ path: `/api/lectures/${(await lectureIn(w)).slug}/attendance/open`, body: { rotateSeconds: 30, lateAfterMinutes: 10, durationMinutes: 60 } }),
    expect: staffOfGroup(200),
  },
  "POST /api/lectures/:id/attendance/close": {
    request: async (w) => {
      const lecture = await lectureIn(w);
      const { ctx } = serviceContext();
      await openAttendance(ctx, viewerOf(w.as.admin), lecture.id, { rotateSeconds: 0, lateAfterMinutes: null, durationMinutes: 30 });
      return { path: `/api/lectures/${lecture.slug}/attendance/close`, method: "POST" };
    },
    expect: staffOfGroup(200),
  },
  "GET /api/lectures/:id/attendance": { request: async (w) => ({ path: `/api/lectures/${(await lectureIn(w)).slug}/attendance` }), expect: staffOfGroup(200) },
  "GET /api/lectures/:id/get-user-attendance-status-in-group": {
    request: async (w) => ({ path: `/api/lectures/${(await lectureIn(w)).slug}/get-user-attendance-status-in-group` }),
    expect: groupInside(200),
  },
  "POST /api/attendance": {
    request: async (w) => ({ path: "/api/attendance", body: { lectureId: (await lectureIn(w)).id, userId: w.as.student.user.id, status: "excused" } }),
    expect: staffOfGroup(200),
  },
  // Tasks and submissions: members and staff read; the group's staff write and grade; students submit their own.
  "GET /api/lectures/groups/:id/tasks": { request: (w) => ({ path: `/api/lectures/groups/${w.group.slug}/tasks` }), expect: groupInside(200) },
  "POST /api/lectures/:lectureId/tasks": {
    request: async (w) => ({ path: `/api/lectures/${(await lectureIn(w)).slug}/tasks`, body: { title: "Homework", maxScore: 10 } }),
    expect: staffOfGroup(201),
  },
  "GET /api/lectures/:lectureId/tasks/:taskId": {
    request: async (w) => {
      const { lecture, task } = await taskIn(w);
      return { path: `/api/lectures/${lecture.slug}/tasks/${task.slug}` };
    },
    expect: groupInside(200),
  },
  "PUT /api/lectures/:lectureId/tasks/:taskId": {
    request: async (w) => {
      const { lecture, task } = await taskIn(w);
      return { path: `/api/lectures/${lecture.id}/tasks/${task.id}`, method: "PUT", body: { maxScore: 50 } };
    },
    expect: staffOfGroup(200),
  },
  "DELETE /api/lectures/:lectureId/tasks/:taskId": {
    request: async (w) => {
      const { lecture, task } = await taskIn(w);
      return { path: `/api/lectures/${lecture.id}/tasks/${task.id}`, method: "DELETE" };
    },
    expect: staffOfGroup(200),
  },
  "POST /api/lectures/:lectureId/submit-task/:taskId": {
    request: async (w) => {
      const { lecture, task } = await taskIn(w);
      return { path: `/api/lectures/${lecture.slug}/submit-task/${task.slug}`, body: { link: "https://github.com/me/work" } };
    },
    expect: { anonymous: 401, student: 201, studentOtherGroup: 403, instructor: 403, instructorOtherGroup: 403, admin: 403 },
  },
  "GET /api/lectures/:lectureId/tasks/:taskId/submissions": {
    request: async (w) => {
      const { lecture, task } = await taskIn(w);
      return { path: `/api/lectures/${lecture.slug}/tasks/${task.slug}/submissions` };
    },
    expect: groupInside(200),
  },
  "GET /api/lectures/:lectureId/tasks/:taskId/submissions/:submissionId": {
    request: async (w) => {
      const { lecture, task } = await taskIn(w);
      const id = newId();
      await db().insert(schema.submissions).values({ id, taskId: task.id, userId: w.as.student.user.id, link: "https://github.com/me/work", submittedAt: new Date() });
      return { path: `/api/lectures/${lecture.slug}/tasks/${task.slug}/submissions/${id}` };
    },
    // Its student reads their own; members and staff of other groups are refused by the group's inside rule.
    expect: groupInside(200),
  },
  "PUT /api/lectures/:lectureId/tasks/:taskId/submissions/:submissionId": {
    request: async (w) => {
      const { lecture, task } = await taskIn(w);
      const id = newId();
      await db().insert(schema.submissions).values({ id, taskId: task.id, userId: w.as.student.user.id, link: "https://github.com/me/work", submittedAt: new Date() });
      return { path: `/api/lectures/${lecture.slug}/tasks/${task.slug}/submissions/${id}`, method: "PUT", body: { score: 7, feedback: "Fine" } };
    },
    expect: staffOfGroup(200),
  },
  "POST /api/lectures/:lectureId/tasks/:taskId/release-grades": {
    request: async (w) => {
      const { lecture, task } = await taskIn(w);
      await db().update(schema.tasks).set({ gradesHeld: true }).where(eq(schema.tasks.id, task.id));
      return { path: `/api/lectures/${lecture.slug}/tasks/${task.slug}/release-grades`, method: "POST" };
    },
    expect: staffOfGroup(200),
  },
  // A hand-in's history and conversation: its student and the group's staff (others: 404, as for the hand-in itself).
  "GET /api/lectures/:lectureId/tasks/:taskId/submissions/:submissionId/versions": {
    request: async (w) => ({ path: `${await ownHandIn(w)}/versions` }),
    expect: { ...staffOfGroup(200), student: 200, studentOtherGroup: 403, instructorOtherGroup: 403 },
  },
  "GET /api/lectures/:lectureId/tasks/:taskId/submissions/:submissionId/comments": {
    request: async (w) => ({ path: `${await ownHandIn(w)}/comments` }),
    expect: { ...staffOfGroup(200), student: 200, studentOtherGroup: 403, instructorOtherGroup: 403 },
  },
  "POST /api/lectures/:lectureId/tasks/:taskId/submissions/:submissionId/comments": {
    request: async (w) => ({ path: `${await ownHandIn(w)}/comments`, method: "POST", body: { body: "A question about my work" } }),
    expect: { ...staffOfGroup(201), student: 201, studentOtherGroup: 403, instructorOtherGroup: 403 },
  },
  // File hand-ins: the group's students hand in; its student and its staff read the file.
  "POST /api/lectures/:lectureId/submit-task/:taskId/file": {
    request: async (w) => {
      const { lecture, task } = await taskIn(w);
      await db().update(schema.tasks).set({ fileKinds: ["text"] }).where(eq(schema.tasks.id, task.id));
      const form = new FormData();
      form.append("file", new File([new TextEncoder().encode("my notes")], "notes.txt", { type: "text/plain" }));
      return { path: `/api/lectures/${lecture.slug}/submit-task/${task.slug}/file`, form };
    },
    expect: { ...all(403), anonymous: 401, student: 201, studentOtherGroup: 403 },
  },
  "GET /api/lectures/:lectureId/tasks/:taskId/submissions/:submissionId/file": {
    request: async (w) => {
      const path = await ownHandIn(w);
      const id = path.split("/").pop()!;
      const key = `hand-ins/${newId()}`;
      await env.IMAGES.put(key, new TextEncoder().encode("my notes"), { httpMetadata: { contentType: "text/plain; charset=utf-8" } });
      await db().update(schema.submissions).set({ fileKey: key, fileName: "notes.txt", fileType: "text/plain; charset=utf-8", fileSize: 8 }).where(eq(schema.submissions.id, id));
      return { path: `${path}/file` };
    },
    expect: groupInside(200),
  },
  // Extensions: the group's staff give and take back a student's own times.
  "GET /api/lectures/:lectureId/tasks/:taskId/extensions": {
    request: async (w) => {
      const { lecture, task } = await taskIn(w);
      return { path: `/api/lectures/${lecture.slug}/tasks/${task.slug}/extensions` };
    },
    expect: staffOfGroup(200),
  },
  "PUT /api/lectures/:lectureId/tasks/:taskId/extensions": {
    request: async (w) => {
      const { lecture, task } = await taskIn(w);
      // Only a task with a due time can be extended, to a later one.
      await db().update(schema.tasks).set({ dueAt: new Date(Date.now() + 3_600_000) }).where(eq(schema.tasks.id, task.id));
      return { path: `/api/lectures/${lecture.slug}/tasks/${task.slug}/extensions`, method: "PUT", body: { userIds: [w.as.student.user.id], dueAt: new Date(Date.now() + 86_400_000).toISOString() } };
    },
    expect: staffOfGroup(200),
  },
  "DELETE /api/lectures/:lectureId/tasks/:taskId/extensions/:userId": {
    request: async (w) => {
      const { lecture, task } = await taskIn(w);
      await db().insert(schema.extensions).values({ id: newId(), userId: w.as.student.user.id, taskId: task.id, dueAt: new Date(Date.now() + 86_400_000) });
      return { path: `/api/lectures/${lecture.slug}/tasks/${task.slug}/extensions/${w.as.student.user.id}`, method: "DELETE" };
    },
    expect: staffOfGroup(200),
  },
  "GET /api/quizzes/:id/extensions": { request: async (w) => ({ path: `/api/quizzes/${(await quizIn(w)).quiz.slug}/extensions` }), expect: staffOfGroup(200) },
  "PUT /api/quizzes/:id/extensions": {
    request: async (w) => ({ path: `/api/quizzes/${(await quizIn(w)).quiz.slug}/extensions`, method: "PUT", body: { userIds: [w.as.student.user.id], extraMinutes: 10 } }),
    expect: staffOfGroup(200),
  },
  "DELETE /api/quizzes/:id/extensions/:userId": {
    request: async (w) => {
      const { quiz } = await quizIn(w);
      await db().insert(schema.extensions).values({ id: newId(), userId: w.as.student.user.id, quizId: quiz.id, extraAttempts: 1 });
      return { path: `/api/quizzes/${quiz.id}/extensions/${w.as.student.user.id}`, method: "DELETE" };
    },
    expect: staffOfGroup(200),
  },
  // The comment bank: every grader's own (instructors of any group and admins), never students.
  "GET /api/comment-bank": { request: () => ({ path: "/api/comment-bank" }), expect: staff(200) },
  "POST /api/comment-bank": { request: () => ({ path: "/api/comment-bank", method: "POST", body: { text: "Well structured." } }), expect: staff(201) },
  "DELETE /api/comment-bank/:id": {
    request: async (w, actor) => {
      // Each grader deletes a snippet of their own (students and visitors have none to name).
      const owner = actor === "anonymous" ? w.as.instructor : w.as[actor];
      const id = newId();
      await db().insert(schema.commentSnippets).values({ id, ownerId: owner.user.id, text: "Mine" });
      return { path: `/api/comment-bank/${id}`, method: "DELETE" };
    },
    expect: staff(200),
  },
  // Reusing a course (issue 22): the group's staff copy it (an instructor's copy is theirs); a lecture goes into a
  // group the caller runs (here its own group).
  "POST /api/groups/:id/copy": { request: (w) => ({ path: `/api/groups/${w.group.slug}/copy`, method: "POST", body: { title: "Next cohort", startDate: "2027-09-06" } }), expect: staffOfGroup(201) },
  "POST /api/lectures/:id/copy": { request: async (w) => ({ path: `/api/lectures/${(await lectureIn(w)).slug}/copy`, method: "POST", body: { groupId: w.group.slug } }), expect: staffOfGroup(201) },
  // Scheduling: the group's staff.
  "PUT /api/schedule/:kind/:id": {
    request: async (w) => {
      const draft = { id: newId(), groupId: w.group.id, slug: unique("draft"), title: "A draft", published: false, order: 2 };
      await db().insert(schema.lectures).values(draft);
      return { path: `/api/schedule/lecture/${draft.slug}`, method: "PUT", body: { publishAt: new Date(Date.now() + 86_400_000).toISOString() } };
    },
    // An unpublished lecture does not exist for anyone but its group's staff: another instructor gets a 404.
    expect: { ...staffOfGroup(200), instructorOtherGroup: 404 },
  },
  // Announcements: the group's staff post and delete; its members (and staff) read and dismiss.
  "GET /api/groups/:id/announcements": { request: (w) => ({ path: `/api/groups/${w.group.slug}/announcements` }), expect: groupInside(200) },
  "POST /api/groups/:id/announcements": { request: (w) => ({ path: `/api/groups/${w.group.slug}/announcements`, method: "POST", body: { title: "Hello", body: "Welcome" } }), expect: staffOfGroup(201) },
  "DELETE /api/groups/:id/announcements/:announcementId": {
    request: async (w) => ({ path: `/api/groups/${w.group.slug}/announcements/${await announcementIn(w)}`, method: "DELETE" }),
    expect: staffOfGroup(200),
  },
  "POST /api/groups/:id/announcements/:announcementId/dismiss": {
    request: async (w) => ({ path: `/api/groups/${w.group.slug}/announcements/${await announcementIn(w)}/dismiss`, method: "POST" }),
    expect: groupInside(200),
  },
  // Certificates: the group's staff set the rule, read the roster, issue and revoke; the graduate chooses the
  // language; anyone reads a certificate's signed statement and the issuer's key.
  "PUT /api/groups/:id/completion-rule": { request: (w) => ({ path: `/api/groups/${w.group.slug}/completion-rule`, method: "PUT", body: { overall: 70, attendance: 80 } }), expect: staffOfGroup(200) },
  "GET /api/groups/:id/certificates": { request: (w) => ({ path: `/api/groups/${w.group.slug}/certificates` }), expect: staffOfGroup(200) },
  "POST /api/groups/:id/certificates": {
    // A course that started a month ago (certificates wait for its first day).
    request: async (w) => {
      await db().update(schema.groups).set({ startDate: new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10) }).where(eq(schema.groups.id, w.group.id));
      return { path: `/api/groups/${w.group.slug}/certificates`, method: "POST", body: { userIds: [w.as.student.user.id] } };
    },
    expect: staffOfGroup(201),
  },
  "GET /api/certificates/issuer": { request: () => ({ path: "/api/certificates/issuer" }), expect: all(200) },
  "GET /api/certificates/jwks": { request: () => ({ path: "/api/certificates/jwks" }), expect: all(200) },
  "GET /api/certificates/mine": { request: () => ({ path: "/api/certificates/mine" }), expect: signedIn(200) },
  "GET /api/certificates/:code": { request: async (w) => ({ path: `/api/certificates/${(await certificateIn(w)).code}` }), expect: all(200) },
  "GET /api/certificates/:code/status": { request: async (w) => ({ path: `/api/certificates/${(await certificateIn(w)).code}/status` }), expect: all(200) },
  "POST /api/certificates/:id/revoke": {
    request: async (w) => {
      const cert = await certificateIn(w);
      await db().update(schema.certificates).set({ revokedAt: null }).where(eq(schema.certificates.id, cert.id));
      return { path: `/api/certificates/${cert.id}/revoke`, method: "POST", body: { reason: "Issued by mistake" } };
    },
    expect: staffOfGroup(200),
  },
  "PUT /api/certificates/:id/language": {
    request: async (w) => ({ path: `/api/certificates/${(await certificateIn(w)).id}/language`, method: "PUT", body: { language: "ar" } }),
    expect: { anonymous: 401, student: 200, studentOtherGroup: 403, instructor: 403, instructorOtherGroup: 403, admin: 403 },
  },
  // The question bank: the group's staff only.
  "GET /api/groups/:id/question-bank": { request: (w) => ({ path: `/api/groups/${w.group.slug}/question-bank` }), expect: staffOfGroup(200) },
  "POST /api/groups/:id/question-bank": {
    request: (w) => ({ path: `/api/groups/${w.group.id}/question-bank`, method: "POST", body: { question: { text: "2 + 2?", type: "single", options: ["3", "4"], correct: 1 }, tags: ["sums"] } }),
    expect: staffOfGroup(201),
  },
  "PUT /api/groups/:id/question-bank/:questionId": {
    request: async (w) => ({ path: `/api/groups/${w.group.id}/question-bank/${await bankQuestionIn(w)}`, method: "PUT", body: { question: { text: "3 + 3?", type: "single", options: ["6", "7"], correct: 0 }, tags: ["sums"] } }),
    expect: staffOfGroup(200),
  },
  "DELETE /api/groups/:id/question-bank/:questionId": {
    request: async (w) => ({ path: `/api/groups/${w.group.id}/question-bank/${await bankQuestionIn(w)}`, method: "DELETE" }),
    expect: staffOfGroup(200),
  },
  // Override and regrade: the quiz's staff only.
  "GET /api/quizzes/:id/attempts/:attemptId": {
    request: async (w) => {
      const { quiz } = await quizIn(w);
      const id = newId();
      await db().insert(schema.attempts).values({ id, quizId: quiz.id, userId: w.as.student.user.id, number: 1, answers: {}, startedAt: new Date(), score: 0, maxScore: 1, submittedAt: new Date() });
      return { path: `/api/quizzes/${quiz.slug}/attempts/${id}` };
    },
    expect: staffOfGroup(200),
  },
  "PUT /api/quizzes/:id/attempts/:attemptId/answers/:questionId": {
    request: async (w) => {
      const { quiz, question } = await quizIn(w);
      const id = newId();
      await db().insert(schema.attempts).values({ id, quizId: quiz.id, userId: w.as.student.user.id, number: 1, answers: { [question.id]: 0 }, startedAt: new Date(), score: 0, maxScore: 1, submittedAt: new Date() });
      return { path: `/api/quizzes/${quiz.slug}/attempts/${id}/answers/${question.id}`, method: "PUT", body: { points: 1, note: "Fair" } };
    },
    expect: staffOfGroup(200),
  },
  "GET /api/quizzes/:id/preview": { request: async (w) => ({ path: `/api/quizzes/${(await quizIn(w)).quiz.slug}/preview?draw=matrix` }), expect: staffOfGroup(200) },
  "POST /api/quizzes/:id/preview": {
    request: async (w) => {
      const { quiz, question } = await quizIn(w);
      return { path: `/api/quizzes/${quiz.slug}/preview`, body: { draw: "matrix", answers: { [question.id]: 1 } } };
    },
    expect: staffOfGroup(200),
  },
  "PUT /api/quizzes/:id/questions/:questionId/key": {
    request: async (w) => {
      const { quiz, question } = await quizIn(w);
      return { path: `/api/quizzes/${quiz.slug}/questions/${question.id}/key`, method: "PUT", body: { correct: 0 } };
    },
    expect: staffOfGroup(200),
  },
  // Quizzes: members and staff read; the group's students take them; the group's staff write them and see results.
  "GET /api/quizzes/groups/:id": { request: async (w) => (await quizIn(w), { path: `/api/quizzes/groups/${w.group.slug}` }), expect: groupInside(200) },
  "GET /api/quizzes/lecture/:id": { request: async (w) => ({ path: `/api/quizzes/lecture/${(await quizIn(w)).lecture.slug}` }), expect: groupInside(200) },
  "GET /api/quizzes/groups/:id/results": { request: async (w) => (await quizIn(w), { path: `/api/quizzes/groups/${w.group.slug}/results` }), expect: staffOfGroup(200) },
  "GET /api/quizzes/score/:id": { request: async (w) => ({ path: `/api/quizzes/score/${(await quizIn(w)).quiz.slug}` }), expect: takers(200) },
  "GET /api/quizzes/:id": { request: async (w) => ({ path: `/api/quizzes/${(await quizIn(w)).quiz.slug}` }), expect: groupInside(200) },
  "GET /api/quizzes/:id/result": {
    request: async (w, actor) => {
      const { quiz } = await quizIn(w);
      await attemptOf(w, actor, quiz.id, true);
      return { path: `/api/quizzes/${quiz.slug}/result` };
    },
    expect: takers(200),
  },
  "POST /api/quizzes/:id/start": { request: async (w) => ({ path: `/api/quizzes/${(await quizIn(w)).quiz.id}/start`, method: "POST" }), expect: takers(201) },
  "PUT /api/quizzes/:id/answers": {
    request: async (w, actor) => {
      const { quiz, question } = await quizIn(w);
      await attemptOf(w, actor, quiz.id, false);
      return { path: `/api/quizzes/${quiz.slug}/answers`, method: "PUT", body: { answers: { [question.id]: 1 } } };
    },
    expect: takers(200),
  },
  "POST /api/quizzes/:id/submit": {
    request: async (w) => {
      const { quiz, question } = await quizIn(w);
      return { path: `/api/quizzes/${quiz.slug}/submit`, body: { answers: { [question.id]: 1 } } };
    },
    expect: takers(201),
  },
  "POST /api/quizzes/solve": {
    request: async (w) => {
      const { quiz, question } = await quizIn(w);
      return { path: "/api/quizzes/solve", body: { slugQuize: quiz.slug, answers: { [question.id]: 1 } } };
    },
    expect: takers(201),
  },
  "POST /api/quizzes": {
    request: async (w) => ({ path: "/api/quizzes", body: { lectureId: (await lectureIn(w)).slug, title: "New quiz", questions: [{ text: "Yes?", type: "true-false", correct: 0 }] } }),
    expect: staffOfGroup(201),
  },
  "PUT /api/quizzes/:id": { request: async (w) => ({ path: `/api/quizzes/${(await quizIn(w)).quiz.slug}`, method: "PUT", body: { title: "Renamed" } }), expect: staffOfGroup(200) },
  "DELETE /api/quizzes/:id": { request: async (w) => ({ path: `/api/quizzes/${(await quizIn(w)).quiz.id}`, method: "DELETE" }), expect: staffOfGroup(200) },
  // Code exercises: members read a published one and hand in; the group's staff write it and run the reference.
  "GET /api/exercises/:taskId": { request: async (w) => ({ path: `/api/exercises/${(await exerciseIn(w)).slug}` }), expect: groupInside(200) },
  "PUT /api/exercises/:taskId": { request: async (w) => ({ path: `/api/exercises/${(await taskIn(w)).task.slug}`, method: "PUT", body: EXERCISE }), expect: staffOfGroup(200) },
  "POST /api/exercises/:taskId/reference": { request: async (w) => ({ path: `/api/exercises/${(await exerciseIn(w)).slug}/reference`, method: "POST" }), expect: staffOfGroup(200) },
  "POST /api/exercises/:taskId/rerun": { request: async (w) => ({ path: `/api/exercises/${(await exerciseIn(w)).slug}/rerun`, method: "POST" }), expect: staffOfGroup(200) },
  "PUT /api/exercises/:taskId/draft": { request: async (w) => ({ path: `/api/exercises/${(await exerciseIn(w)).slug}/draft`, method: "PUT", body: { code: "function f() {}" } }), expect: takers(200) },
  "POST /api/exercises/:taskId/submit": { request: async (w) => ({ path: `/api/exercises/${(await exerciseIn(w)).slug}/submit`, method: "POST", body: { code: "function f() { return 1; }" } }), expect: takers(201) },
  // Progress: a member reads their own (staff add ?user=, tested in progress.test.ts); the group's staff read everyone's and export.
  "GET /api/users/groups/:id/progress": { request: (w) => ({ path: `/api/users/groups/${w.group.slug}/progress` }), expect: takers(200) },
  "GET /api/groups/:id/progress": { request: (w) => ({ path: `/api/groups/${w.group.slug}/progress` }), expect: staffOfGroup(200) },
  "GET /api/groups/:id/export/attendance.csv": { request: (w) => ({ path: `/api/groups/${w.group.id}/export/attendance.csv` }), expect: staffOfGroup(200) },
  "GET /api/groups/:id/export/grades.csv": { request: (w) => ({ path: `/api/groups/${w.group.slug}/export/grades.csv` }), expect: staffOfGroup(200) },
  "GET /api/groups/:id/export/progress.csv": { request: (w) => ({ path: `/api/groups/${w.group.slug}/export/progress.csv?lang=ar` }), expect: staffOfGroup(200) },
};

async function registeredRoutes(): Promise<string[]> {
  const keys = (await fullApi()).routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`);
  return [...new Set(keys)].sort();
}

describe("access matrix", () => {
  it("has a row for every registered API route, and none for routes that do not exist", async () => {
    const routes = await registeredRoutes();
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((r) => !(r in MATRIX)), "routes without a row in MATRIX").toEqual([]);
    expect(Object.keys(MATRIX).filter((r) => !routes.includes(r)), "rows for routes that are not registered").toEqual([]);
  });

  it.each(Object.entries(MATRIX))("%s", async (_route, row) => {
    const w = await world();
    const actual = {} as Statuses;
    for (const actor of ACTORS) {
      const req = await row.request(w, actor);
      const me = actor === "anonymous" ? null : w.as[actor];
      const res = await call(req.path, {
        method: req.method,
        body: req.body,
        form: req.form,
        token: me?.accessToken,
        cookie: req.cookie && me ? me.cookie : undefined,
      });
      actual[actor] = res.status;
      await res.body?.cancel();
    }
    expect(actual).toEqual(row.expect);
  });
});

/**
 * The rows only staff may ever use (students refused, the group's instructor or an admin answered). A student who
 * sends such a route a malformed body is refused as a student, before the body is read (worker/auth/middleware.ts
 * `requireStaffRole`), so the staff's forms are never explained to them field by field; the group's instructor
 * sending the same body is told what is wrong with it (400), which shows the body was malformed.
 */
const staffOnlyWithBody = Object.entries(MATRIX).filter(
  ([, row]) => row.expect.student === 403 && row.expect.studentOtherGroup === 403 && (row.expect.instructor < 300 || row.expect.admin < 300),
);

describe("staff-only routes refuse a student before reading the body", () => {
  it("covers the staff's routes", () => {
    // Every kind of staff route: grading, quizzes, lectures, the group's settings, the inboxes, the admin's own.
    expect(staffOnlyWithBody.length).toBeGreaterThan(50);
  });

  it.each(staffOnlyWithBody)("%s", async (route, row) => {
    const w = await world();
    const req = await row.request(w, "student");
    const malformed = { path: req.path, method: route.split(" ")[0], body: req.body !== undefined || req.form ? [] : undefined };
    const asStudent = await call(malformed.path, { method: malformed.method, body: malformed.body, token: w.as.student.accessToken });
    const said = (await asStudent.json()) as { code: string; fields?: unknown };
    expect(asStudent.status).toBe(403);
    expect(said.code).toBe("forbidden");
    expect(said.fields).toBeUndefined();
    if (malformed.body !== undefined) {
      const staffer = row.expect.instructor < 300 ? w.as.instructor : w.as.admin;
      const asStaff = await call(malformed.path, { method: malformed.method, body: malformed.body, token: staffer.accessToken });
      expect([400, 415]).toContain(asStaff.status);
      await asStaff.body?.cancel();
    }
  });
});
