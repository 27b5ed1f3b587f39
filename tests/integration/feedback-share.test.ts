/**
 * Sharing feedback (one per student and group, editable, members only) and the admins' moderation (hide, show,
 * delete), with the public list and the admins' live inbox following.
 */
import { SELF } from "cloudflare:test";
import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { FeedbackFrameBody } from "../../app/lib/realtime-protocol";
import * as s from "../../db/schema";
import { STAFF_ROOM } from "../../worker/realtime/publish";
import { addMember, call, createGroup, createUser, signIn, type SignedIn } from "./factories";
import { db } from "./helpers";
import { connectAs } from "./sockets";

type Shared = { feedback: FeedbackFrameBody };

async function world() {
  const [instructor, student, special, pending, removed, admin] = await Promise.all([
    createUser({ role: "instructor" }),
    createUser({ name: "Mona Adel" }),
    createUser(),
    createUser(),
    createUser(),
    createUser({ role: "admin" }),
  ]);
  const group = await createGroup({ instructorId: instructor.id });
  await Promise.all([addMember(student, group), addMember(special, group, "special"), addMember(pending, group, "pending"), addMember(removed, group, "removed")]);
  const [asInstructor, asStudent, asSpecial, asPending, asRemoved, asAdmin] = await Promise.all(
    [instructor, student, special, pending, removed, admin].map((u) => signIn(u)),
  );
  return { group, instructor: asInstructor!, student: asStudent!, special: asSpecial!, pending: asPending!, removed: asRemoved!, admin: asAdmin! };
}

const share = (who: SignedIn, body: Record<string, unknown>) => call("/api/feedback", { body, token: who.accessToken });

async function publicList(): Promise<{ text: string; ids: string[] }> {
  const res = await SELF.fetch("http://localhost/api/feedback");
  const text = await res.text();
  return { text, ids: (JSON.parse(text) as { _id: string }[]).map((f) => f._id) };
}

describe("POST /api/feedback", () => {
  it("creates the student's feedback from their account, then edits the same record", async () => {
    const w = await world();
    const res = await share(w.student, { groupSlug: w.group.slug, userFeedback: "  Loved the projects  ", rating: 4 });
    expect(res.status).toBe(201);
    const { feedback } = (await res.json()) as Shared;
    expect(feedback).toEqual({
      _id: expect.any(String),
      userId: w.student.user.id,
      name: "Mona Adel",
      email: w.student.user.email,
      groupSlug: w.group.slug,
      groupTitle: w.group.title,
      userFeedback: "Loved the projects",
      rating: 4,
      hidden: false,
      createdAt: expect.any(String),
      editedAt: null,
    });

    const edit = await share(w.student, { groupSlug: w.group.slug, userFeedback: "Loved the projects and the reviews", rating: 5 });
    expect(edit.status).toBe(200);
    const edited = ((await edit.json()) as Shared).feedback;
    expect(edited).toMatchObject({ _id: feedback._id, userFeedback: "Loved the projects and the reviews", rating: 5, createdAt: feedback.createdAt });
    // The admins see that it changed since it was written, and when.
    expect(Date.parse(edited.editedAt!)).toBeGreaterThanOrEqual(Date.parse(feedback.createdAt));
    const [rows] = await db().select({ n: count() }).from(s.feedback).where(and(eq(s.feedback.userId, w.student.user.id), eq(s.feedback.groupSlug, w.group.slug)));
    expect(rows!.n).toBe(1);

    const mine = await call("/api/feedback/mine", { token: w.student.accessToken });
    expect(((await mine.json()) as FeedbackFrameBody[]).map((f) => f._id)).toEqual([feedback._id]);
    const pub = await publicList();
    expect(pub.ids).toContain(feedback._id);
    expect(pub.text).not.toContain(w.student.user.email);
  });

  it("accepts special members and the rating as form text", async () => {
    const w = await world();
    const res = await share(w.special, { groupSlug: w.group.slug, userFeedback: "Thanks for the seat", rating: "3" });
    expect(res.status).toBe(201);
    expect(((await res.json()) as Shared).feedback.rating).toBe(3);
  });

  it("refuses people who are not the group's students (403) and unknown groups (404)", async () => {
    const w = await world();
    const body = { groupSlug: w.group.slug, userFeedback: "Hi", rating: 5 };
    for (const who of [w.pending, w.removed, w.instructor, w.admin]) expect((await share(who, body)).status).toBe(403);
    const otherGroup = await createGroup();
    expect((await share(w.student, { ...body, groupSlug: otherGroup.slug })).status).toBe(403);
    expect((await share(w.student, { ...body, groupSlug: "no-such-group" })).status).toBe(404);
    expect((await call("/api/feedback", { body })).status).toBe(401);
  });

  it.each([
    ["a rating above 5", { rating: 6 }, "rating"],
    ["a fractional rating", { rating: 4.5 }, "rating"],
    ["an empty rating field", { rating: "" }, "rating"],
    ["empty feedback", { userFeedback: "   " }, "userFeedback"],
    ["feedback over 1000 characters", { userFeedback: "x".repeat(1001) }, "userFeedback"],
  ])("refuses %s with 400", async (_label, change, field) => {
    const w = await world();
    const res = await share(w.student, { groupSlug: w.group.slug, userFeedback: "Good", rating: 4, ...change });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: Record<string, string> }).fields[field]).toEqual(expect.any(String));
  });
});

describe("moderation", () => {
  it("hides from and shows on the public list; a hidden record stays hidden when its author edits it", async () => {
    const w = await world();
    const { feedback } = (await (await share(w.student, { groupSlug: w.group.slug, userFeedback: "Nice", rating: 4 })).json()) as Shared;

    const hide = await call(`/api/feedback/${feedback._id}`, { method: "PUT", body: { hidden: true }, token: w.admin.accessToken });
    expect(((await hide.json()) as FeedbackFrameBody).hidden).toBe(true);
    expect((await publicList()).ids).not.toContain(feedback._id);
    await share(w.student, { groupSlug: w.group.slug, userFeedback: "Nice, edited", rating: 4 });
    expect((await publicList()).ids).not.toContain(feedback._id);

    const all = (await (await call("/api/feedback/all", { token: w.admin.accessToken })).json()) as FeedbackFrameBody[];
    expect(all.find((f) => f._id === feedback._id)).toMatchObject({ hidden: true, email: w.student.user.email, userFeedback: "Nice, edited" });

    await call(`/api/feedback/${feedback._id}`, { method: "PUT", body: { hidden: false }, token: w.admin.accessToken });
    expect((await publicList()).ids).toContain(feedback._id);
  });

  it("deletes a record; its author may then share again", async () => {
    const w = await world();
    const { feedback } = (await (await share(w.student, { groupSlug: w.group.slug, userFeedback: "First", rating: 2 })).json()) as Shared;
    const del = await call(`/api/feedback/${feedback._id}`, { method: "DELETE", token: w.admin.accessToken });
    expect(await del.json()).toEqual({ message: "The feedback was deleted." });
    expect((await call(`/api/feedback/${feedback._id}`, { method: "DELETE", token: w.admin.accessToken })).status).toBe(404);
    expect((await call(`/api/feedback/${feedback._id}`, { method: "PUT", body: { hidden: true }, token: w.admin.accessToken })).status).toBe(404);
    expect((await share(w.student, { groupSlug: w.group.slug, userFeedback: "Second", rating: 3 })).status).toBe(201);
  });

  it("keeps the admins' inbox live (admins only) and notifies them of new feedback", async () => {
    const w = await world();
    const adminTab = await connectAs(w.admin, "staff-inbox", STAFF_ROOM);
    const instructorTab = await connectAs(w.instructor, "staff-inbox", STAFF_ROOM);
    const bell = await connectAs(w.admin, "user-hub", w.admin.user.id);

    const { feedback } = (await (await share(w.student, { groupSlug: w.group.slug, userFeedback: "Live", rating: 5 })).json()) as Shared;
    expect((await adminTab.next("feedback.created", (f) => f.feedback._id === feedback._id)).feedback).toEqual(feedback);
    expect((await bell.next("notification", (f) => f.notification.kind === "feedback")).notification).toMatchObject({
      title: `New feedback from Mona Adel (${w.group.title})`,
      params: { name: "Mona Adel", group: w.group.title },
      link: "/dashboard/admin/get-all-feedback-by-admin",
    });

    await share(w.student, { groupSlug: w.group.slug, userFeedback: "Live, edited", rating: 5 });
    expect((await adminTab.next("feedback.updated", (f) => f.feedback.userFeedback === "Live, edited")).feedback._id).toBe(feedback._id);
    await call(`/api/feedback/${feedback._id}`, { method: "PUT", body: { hidden: true }, token: w.admin.accessToken });
    await adminTab.next("feedback.updated", (f) => f.feedback.hidden);
    await call(`/api/feedback/${feedback._id}`, { method: "DELETE", token: w.admin.accessToken });
    expect(await adminTab.next("feedback.deleted")).toEqual({ type: "feedback.deleted", _id: feedback._id });
    // An edit notifies nobody: one notification for the one new record.
    expect(bell.of("notification").filter((f) => f.notification.kind === "feedback")).toHaveLength(1);

    instructorTab.send({ type: "ping", t: 9 });
    await instructorTab.next("pong");
    expect(instructorTab.frames.map((f) => f.type).filter((t) => t.startsWith("feedback."))).toEqual([]);
  });
});
