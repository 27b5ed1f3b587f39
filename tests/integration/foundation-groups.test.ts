import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { DEFAULT_INSTRUCTOR_NAME } from "../../worker/services/groups";
import { newId } from "../../worker/services/ids";
import { db, insertGroup, insertUser } from "./helpers";

type Group = Record<string, unknown> & { _id: string; slug: string };

async function listGroups(): Promise<Group[]> {
  const res = await SELF.fetch("http://localhost/api/groups");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = await res.json();
  expect(Array.isArray(body)).toBe(true);
  return body as Group[];
}

describe("GET /api/groups", () => {
  it("answers each group with exactly the spec's field names", async () => {
    const instructor = await insertUser({ role: "instructor", name: "Dina Fathy" });
    const g = await insertGroup({ title: "Fields check", imageCourse: "/images/x.webp", startDate: "2027-03-01", instructorId: instructor.id, capacity: 12, description: "About" });

    const item = (await listGroups()).find((x) => x._id === g.id);
    expect(Object.keys(item!).sort()).toEqual(["_id", "capacity", "description", "imageCourse", "instructorName", "slug", "start_date", "status", "title"]);
    expect(item).toEqual({
      _id: g.id,
      title: "Fields check",
      slug: g.slug,
      description: "About",
      imageCourse: "/images/x.webp",
      start_date: "2027-03-01",
      instructorName: "Dina Fathy",
      status: "published",
      capacity: 12,
    });
  });

  it("lists published groups only", async () => {
    const published = await insertGroup({ status: "published" });
    const draft = await insertGroup({ status: "draft" });
    const archived = await insertGroup({ status: "archived" });

    const list = await listGroups();
    const ids = list.map((x) => x._id);
    expect(ids).toContain(published.id);
    expect(ids).not.toContain(draft.id);
    expect(ids).not.toContain(archived.id);
    expect(list.every((x) => x.status === "published")).toBe(true);
  });

  it("orders groups by start date, soonest first", async () => {
    const late = await insertGroup({ startDate: "2031-09-01" });
    const early = await insertGroup({ startDate: "2031-02-01" });
    const middle = await insertGroup({ startDate: "2031-05-15" });

    const mine = (await listGroups()).filter((x) => [late.id, early.id, middle.id].includes(x._id)).map((x) => x._id);
    expect(mine).toEqual([early.id, middle.id, late.id]);
  });

  it("shows the default instructor name when a group has no instructor", async () => {
    const g = await insertGroup({ instructorId: null });
    const item = (await listGroups()).find((x) => x._id === g.id);
    expect(item?.instructorName).toBe(DEFAULT_INSTRUCTOR_NAME);
  });
});

describe("GET /api/groups/{id}", () => {
  it("finds a published group by id and by slug, with its outline in order", async () => {
    const g = await insertGroup({ title: "Outline check" });
    await db()
      .insert(s.courseContents)
      .values([
        { id: newId(), groupId: g.id, title: "Third", body: "c", order: 3 },
        { id: newId(), groupId: g.id, title: "First", body: "**a**", order: 1 },
        { id: newId(), groupId: g.id, title: "Second", body: "b", order: 2 },
      ]);

    for (const key of [g.id, g.slug]) {
      const res = await SELF.fetch(`http://localhost/api/groups/${encodeURIComponent(key)}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Group & { content: { _id: string; title: string; body: string; order: number }[] };
      expect(body._id).toBe(g.id);
      expect(body.slug).toBe(g.slug);
      expect(body.title).toBe("Outline check");
      expect(body.content.map((c) => c.title)).toEqual(["First", "Second", "Third"]);
      expect(body.content[0]).toEqual({ _id: expect.any(String), title: "First", body: "**a**", order: 1 });
    }
  });

  it("answers 404 not_found for drafts, archived and unknown groups", async () => {
    const draft = await insertGroup({ status: "draft" });
    const archived = await insertGroup({ status: "archived" });
    for (const key of [draft.id, draft.slug, archived.slug, "no-such-group"]) {
      const res = await SELF.fetch(`http://localhost/api/groups/${encodeURIComponent(key)}`);
      expect(res.status).toBe(404);
      const body = (await res.json()) as { message: string; code: string };
      expect(body.code).toBe("not_found");
      expect(body.message).toEqual(expect.any(String));
      expect(body.message.length).toBeGreaterThan(0);
    }
  });

  it("answers 400 validation_failed for a malformed id", async () => {
    const res = await SELF.fetch(`http://localhost/api/groups/${encodeURIComponent("bad id!")}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; code: string; fields: Record<string, string> };
    expect(body.code).toBe("validation_failed");
    expect(body.fields).toHaveProperty("id");
  });
});
