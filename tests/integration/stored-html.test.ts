/**
 * Markdown rendered at a read is stored for the next reader (worker/services/stored-html.ts): one UPDATE per table for
 * everything a request rendered, in statements that stay within D1's 100 bound values (four per row).
 */
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { htmlOf } from "../../worker/services/stored-html";
import { call, createGroup, createUser, signIn } from "./factories";
import { db, eventually, serviceContext } from "./helpers";

describe("stored HTML", () => {
  it("stores the HTML of 60 rows rendered by one read, and none over a Markdown changed meanwhile", async () => {
    const group = await createGroup();
    const rows = Array.from({ length: 60 }, (_, i) => ({ id: newId(), groupId: group.id, slug: `week-${i}-${group.slug}`, title: `Week ${i}`, body: `**Week ${i}**`, order: i, published: true }));
    await db().insert(s.lectures).values(rows.slice(0, 10));
    for (let i = 10; i < rows.length; i += 10) await db().insert(s.lectures).values(rows.slice(i, i + 10));
    const ids = rows.map((r) => r.id);
    expect((await db().select({ html: s.lectures.bodyHtml }).from(s.lectures).where(inArray(s.lectures.id, ids))).every((r) => r.html === null)).toBe(true);

    const { ctx, settle } = serviceContext();
    const shown = rows.map((r) => htmlOf(ctx, "lectures", { id: r.id, source: r.body, html: null }));
    expect(shown[59]).toContain("<strong>Week 59</strong>");
    // An edit lands before the rendered HTML is stored: its row keeps no stale HTML.
    await db().update(s.lectures).set({ body: "**Edited**" }).where(eq(s.lectures.id, rows[7]!.id));
    await settle();

    const stored = new Map((await db().select({ id: s.lectures.id, html: s.lectures.bodyHtml }).from(s.lectures).where(inArray(s.lectures.id, ids))).map((r) => [r.id, r.html]));
    for (const [i, r] of rows.entries()) {
      if (i === 7) expect(stored.get(r.id)).toBeNull();
      else expect(stored.get(r.id), r.title).toContain(`<strong>Week ${i}</strong>`);
    }
  });

  it("stores a course outline part's HTML when it is saved; a body changed by another path is rendered once more by its page", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const group = await createGroup();
    const res = await call(`/api/groups/${group.slug}/content`, { body: { title: "Week 1", body: "**Semantic** HTML" }, token: admin.accessToken });
    expect(res.status).toBe(201);
    const { _id } = (await res.json()) as { _id: string };
    const html = async () => (await db().select({ html: s.courseContents.bodyHtml }).from(s.courseContents).where(eq(s.courseContents.id, _id)))[0]!.html;
    expect(await html()).toBe("<p><strong>Semantic</strong> HTML</p>");
    // Edited through the API: stored again.
    expect((await call(`/api/groups/${group.slug}/content/${_id}`, { method: "PUT", body: { body: "_Landmarks_" }, token: admin.accessToken })).status).toBe(200);
    expect(await html()).toBe("<p><em>Landmarks</em></p>");
    // Edited by another path (a direct UPDATE): the trigger clears it, and the public page renders and keeps it.
    await db().update(s.courseContents).set({ body: "~~Old~~ **new**" }).where(eq(s.courseContents.id, _id));
    expect(await html()).toBeNull();
    const page = await (await call(`/content/${group.slug}/course/${_id}?fresh=1`)).text();
    expect(page).toContain("<del>Old</del> <strong>new</strong>");
    expect(await eventually(async () => (await html()) ?? undefined, 2_000, "the part's HTML stored")).toBe("<p><del>Old</del> <strong>new</strong></p>");
  });
});
