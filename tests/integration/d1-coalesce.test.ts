/**
 * The reads a request issues together reach D1 together (worker/http/d1-coalesce.ts, issue 23), on the real D1 of
 * workerd: one call for many SELECTs, each caller answered with its own rows (duplicate column names kept, in order),
 * a failing statement failing alone, and writes never overtaking the reads issued before them.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import * as s from "../../db/schema";
import { coalescing } from "../../worker/http/d1-coalesce";
import { addMember, createGroup, createUser } from "./factories";

const fresh = () => coalescing(env.DB.withSession("first-primary"));

describe("coalesced D1 reads", () => {
  it("send the SELECTs issued together in one call, each answered with its own rows", async () => {
    const [a, b] = [await createUser({ name: "Amal" }), await createUser({ name: "Bassem" })];
    const { db, roundTrips } = fresh();
    const name = (id: string) => db.prepare("select name from users where id = ?").bind(id);
    const [first, all, raw, none] = await Promise.all([
      name(a.id).first<string>("name"),
      name(b.id).all<{ name: string }>(),
      db.prepare("select ?1 as one, ?2 as two").bind(1, "x").raw(),
      name("nobody").first(),
    ]);
    expect(first).toBe("Amal");
    expect(all.results).toEqual([{ name: "Bassem" }]);
    expect(raw).toEqual([[1, "x"]]);
    expect(none).toBeNull();
    expect(roundTrips()).toBe(1);
  });

  it("keep duplicate column names and their order (a join selects `id` twice; Drizzle maps rows by position)", async () => {
    const user = await createUser();
    const group = await createGroup();
    const membership = await addMember(user, group);
    const { db, roundTrips } = fresh();
    const sql = "select u.id, m.id, m.status from users u join memberships m on m.user_id = u.id where u.id = ?";
    const [rows, withNames, count] = await Promise.all([
      db.prepare(sql).bind(user.id).raw(),
      db.prepare(sql).bind(user.id).raw({ columnNames: true }),
      db.prepare("select count(*) as n from memberships where group_id = ?").bind(group.id).first<number>("n"),
    ]);
    expect(rows).toEqual([[user.id, membership.id, "approved"]]);
    expect(withNames).toEqual([["id", "id", "status"], [user.id, membership.id, "approved"]]);
    expect(count).toBe(1);
    expect(roundTrips()).toBe(1);

    // The same through Drizzle, as the services read: both ids arrive, each in its own field.
    const drizzle = createDb(db as unknown as D1Database);
    const [joined] = await Promise.all([
      drizzle.select({ userId: s.users.id, membershipId: s.memberships.id }).from(s.users).innerJoin(s.memberships, eq(s.memberships.userId, s.users.id)).where(eq(s.users.id, user.id)),
      drizzle.select({ id: s.groups.id }).from(s.groups).where(eq(s.groups.id, group.id)),
    ]);
    expect(joined).toEqual([{ userId: user.id, membershipId: membership.id }]);
    expect(roundTrips()).toBe(2);
  });

  it("let a failing statement fail alone: the others issued with it still get their rows", async () => {
    const user = await createUser({ name: "Dina" });
    const { db } = fresh();
    const [good, bad, missing] = await Promise.allSettled([
      db.prepare("select name from users where id = ?").bind(user.id).first<string>("name"),
      db.prepare("select no_such_column from users").all(),
      db.prepare("select name from users where id = ?").bind(user.id).first("email"),
    ]);
    expect(good).toEqual({ status: "fulfilled", value: "Dina" });
    expect(bad.status).toBe("rejected");
    expect(String((bad as PromiseRejectedResult).reason)).toMatch(/no such column/);
    // A column the row lacks is D1's own error, as without coalescing.
    expect(String((missing as PromiseRejectedResult).reason)).toMatch(/D1_COLUMN_NOTFOUND/);
  });

  it("send a write after the reads issued before it, and the reads after it see it", async () => {
    const user = await createUser({ name: "Before" });
    const { db, roundTrips } = fresh();
    const read = () => db.prepare("select name from users where id = ?").bind(user.id).first<string>("name");
    const earlier = read();
    const write = db.prepare("update users set name = ? where id = ?").bind("After", user.id).run();
    const later = read();
    expect(await Promise.all([earlier, write.then((r) => r.success), later])).toEqual(["Before", true, "After"]);
    // The earlier read, the write, the later read: three calls, none merged across the write.
    expect(roundTrips()).toBe(3);
  });

  it("send a write read back with RETURNING after the reads issued before it", async () => {
    const user = await createUser({ name: "Old" });
    const { db, roundTrips } = fresh();
    const earlier = db.prepare("select name from users where id = ?").bind(user.id).first<string>("name");
    const written = db.prepare("update users set name = ? where id = ? returning name").bind("New", user.id).first<string>("name");
    expect(await Promise.all([earlier, written])).toEqual(["Old", "New"]);
    expect(roundTrips()).toBe(2);
  });

  it("hand batches to D1 as they are (a write's batch is not held)", async () => {
    const user = await createUser({ name: "Batch" });
    const { db } = fresh();
    const [update, select] = await db.batch([
      db.prepare("update users set name = ? where id = ?").bind("Batched", user.id),
      db.prepare("select name from users where id = ?").bind(user.id),
    ]);
    expect(update!.success).toBe(true);
    expect(select!.results).toEqual([{ name: "Batched" }]);
  });

  it("hold a batch of nothing but SELECTs with the other reads of its turn: one call, answered as D1's batch() answers", async () => {
    const [a, b] = [await createUser({ name: "Hala" }), await createUser({ name: "Karim" })];
    const { db, roundTrips } = fresh();
    const statements = (d: D1Database | D1DatabaseSession) => [
      d.prepare("select name from users where id = ?").bind(a.id),
      d.prepare("select id, name from users where id in (?, ?) order by name").bind(a.id, b.id),
      d.prepare("select name from users where id = ?").bind("nobody"),
    ];
    const [single, batched] = await Promise.all([db.prepare("select name from users where id = ?").bind(b.id).first<string>("name"), db.batch(statements(db))]);
    expect(single).toBe("Karim");
    expect(roundTrips()).toBe(1);
    const direct = await env.DB.batch(statements(env.DB));
    expect(batched.map((r) => r.results)).toEqual(direct.map((r) => r.results));
    expect(batched.map((r) => r.results)).toEqual([[{ name: "Hala" }], [{ id: a.id, name: "Hala" }, { id: b.id, name: "Karim" }], []]);
    expect(batched.every((r) => r.success)).toBe(true);
  });
});
