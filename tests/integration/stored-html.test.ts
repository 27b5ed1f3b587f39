/**
 * Markdown rendered at a read is stored for the next reader (worker/services/stored-html.ts): one UPDATE per table for
 * everything a request rendered, in statements that stay within D1's 100 bound values (four per row).
 */
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { htmlOf } from "../../worker/services/stored-html";
import { createGroup } from "./factories";
import { db, serviceContext } from "./helpers";

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
});
