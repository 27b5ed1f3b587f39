/**
 * The instructor's Outline tab: a group's instructor writes its public course outline through their own pages (the
 * admin's group page was the only way before), with the same actions and rules; nobody else may. The group's own
 * address on the instructor's side opens its first tab.
 */
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { addMember, call, createGroup, createUser, signIn } from "./factories";
import { db } from "./helpers";

const fields = (values: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) f.set(k, v);
  return f;
};

async function world() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const member = await signIn(await createUser());
  await addMember(member.user, group);
  const other = await signIn(await createUser({ role: "instructor" }));
  return { teacher, group, member, other, page: `/instructor/group/${group.slug}/outline` };
}

const parts = async (groupId: string) => (await db().select({ id: s.courseContents.id, title: s.courseContents.title }).from(s.courseContents).where(eq(s.courseContents.groupId, groupId)).orderBy(asc(s.courseContents.order))).map((r) => r.title);

describe("the instructor's Outline tab", () => {
  it("lets the group's instructor add, edit, move and remove parts, which the public course page shows", async () => {
    const w = await world();
    const post = (values: Record<string, string>) => call(`${w.page}.data`, { method: "POST", form: fields(values), cookie: w.teacher.cookie });
    expect((await post({ intent: "content-add", title: "Week 1: HTML", body: "Semantic **tags**." })).status).toBe(200);
    expect((await post({ intent: "content-add", title: "Week 2: CSS", body: "" })).status).toBe(200);
    expect(await parts(w.group.id)).toEqual(["Week 1: HTML", "Week 2: CSS"]);
    const [first, second] = await db().select({ id: s.courseContents.id }).from(s.courseContents).where(eq(s.courseContents.groupId, w.group.id)).orderBy(asc(s.courseContents.order));
    expect((await post({ intent: "content-move", id: second!.id, direction: "up" })).status).toBe(200);
    expect((await post({ intent: "content-edit", id: first!.id, title: "Week 1: HTML and a11y", body: "Landmarks." })).status).toBe(200);
    expect(await parts(w.group.id)).toEqual(["Week 2: CSS", "Week 1: HTML and a11y"]);
    // A refused part says why at its field, and nothing is added.
    const empty = await post({ intent: "content-add", title: "  ", body: "" });
    expect(empty.status).toBe(400);
    expect(await parts(w.group.id)).toHaveLength(2);
    expect((await post({ intent: "content-delete", id: second!.id })).status).toBe(200);
    expect(await parts(w.group.id)).toEqual(["Week 1: HTML and a11y"]);
    expect((await post({ intent: "something-else" })).status).toBe(400);

    const html = await (await call(w.page, { cookie: w.teacher.cookie })).text();
    expect(html).toContain("Week 1: HTML and a11y");
    expect(await (await call(`/content/${w.group.slug}`)).text()).toContain("Week 1: HTML and a11y");
  });

  it("is refused to another instructor and to students; nothing changes", async () => {
    const w = await world();
    for (const who of [w.other, w.member]) {
      expect((await call(w.page, { cookie: who.cookie })).status).toBe(403);
      expect((await call(`${w.page}.data`, { method: "POST", form: fields({ intent: "content-add", title: "Mine now" }), cookie: who.cookie })).status).toBe(403);
    }
    expect(await parts(w.group.id)).toEqual([]);
  });

  it("the group's own address opens its Students tab; the tabs name the Outline", async () => {
    const w = await world();
    const res = await call(`/instructor/group/${w.group.slug}`, { cookie: w.teacher.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/instructor/group/${w.group.slug}/students`);
    // A member is handed on too; the tab itself refuses them with the app's page (ADR 0071), not a JSON body.
    expect((await call(`/instructor/group/${w.group.slug}`, { cookie: w.member.cookie })).status).toBe(302);
    const refused = await call(`/instructor/group/${w.group.slug}/students`, { cookie: w.member.cookie, headers: { accept: "text/html" } });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("<html");
    const students = await (await call(`/instructor/group/${w.group.slug}/students`, { cookie: w.teacher.cookie })).text();
    expect(students).toContain(`href="/instructor/group/${w.group.slug}/outline"`);
  });
});
