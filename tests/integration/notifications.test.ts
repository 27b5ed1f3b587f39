/** Notifications: one's own list with the unread count, marking read (one, all), and the bell kept live in every tab. */
import { describe, expect, it } from "vitest";
import type { NotificationFrameBody } from "../../app/lib/realtime-protocol";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { notifyUsers } from "../../worker/services/notifications";
import { call, createUser, signIn, type SignedIn } from "./factories";
import { db, serviceContext } from "./helpers";
import { connectAs } from "./sockets";

type Page = { notifications: NotificationFrameBody[]; unread: number; nextBefore: string | null };

/** Inserts notifications for a user, oldest first, one second apart; returns their ids in that order. */
async function seedNotifications(who: SignedIn, n: number, read = false, newestAt = Date.now()): Promise<string[]> {
  const base = newestAt - (n - 1) * 1000;
  const rows = Array.from({ length: n }, (_, i) => ({
    id: newId(),
    userId: who.user.id,
    kind: "test",
    title: `Notice ${i}`,
    link: i % 2 ? "/profile" : null,
    createdAt: new Date(base + i * 1000),
    readAt: read ? new Date() : null,
  }));
  for (const row of rows) await db().insert(s.notifications).values(row);
  return rows.map((r) => r.id);
}

async function list(who: SignedIn, query = ""): Promise<Page> {
  const res = await call(`/api/notifications${query}`, { token: who.accessToken });
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return (await res.json()) as Page;
}

const put = (who: SignedIn, path: string) => call(path, { method: "PUT", token: who.accessToken });

describe("GET /api/notifications", () => {
  it("lists only the caller's own, newest first, with the unread count and paging", async () => {
    const me = await signIn(await createUser());
    const other = await signIn(await createUser());
    const ids = await seedNotifications(me, 5);
    await seedNotifications(me, 1, true, Date.now() + 1000);
    await seedNotifications(other, 3);

    const first = await list(me, "?limit=4");
    expect(first.unread).toBe(5);
    expect(first.notifications).toHaveLength(4);
    expect(first.notifications[0]).toMatchObject({ kind: "test", readAt: expect.any(String) });
    expect(first.notifications.slice(1).map((n) => n._id)).toEqual([ids[4], ids[3], ids[2]]);
    expect(first.notifications[1]).toEqual({ _id: ids[4], kind: "test", title: "Notice 4", params: null, link: null, createdAt: expect.any(String), readAt: null });
    const second = await list(me, `?limit=4&before=${first.nextBefore}`);
    expect(second.notifications.map((n) => n._id)).toEqual([ids[1], ids[0]]);
    expect(second.nextBefore).toBeNull();
  });

  it("answers 404 for a cursor that is someone else's notification", async () => {
    const me = await signIn(await createUser());
    const [theirs] = await seedNotifications(await signIn(await createUser()), 1);
    const res = await call(`/api/notifications?before=${theirs}`, { token: me.accessToken });
    expect(res.status).toBe(404);
  });
});

describe("marking read", () => {
  it("marks one of the caller's own read, harmlessly twice; someone else's is a 404", async () => {
    const me = await signIn(await createUser());
    const other = await signIn(await createUser());
    const [a, b] = await seedNotifications(me, 2);
    const [theirs] = await seedNotifications(other, 1);

    const res = await put(me, `/api/notifications/${a}/read`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { notification: NotificationFrameBody; unread: number };
    expect(body).toEqual({ notification: expect.objectContaining({ _id: a, readAt: expect.any(String) }), unread: 1 });
    const again = (await (await put(me, `/api/notifications/${a}/read`)).json()) as typeof body;
    expect(again.notification.readAt).toBe(body.notification.readAt);

    expect((await put(me, `/api/notifications/${theirs}/read`)).status).toBe(404);
    expect((await list(other)).unread).toBe(1);
    expect((await list(me)).notifications.find((n) => n._id === b)!.readAt).toBeNull();
  });

  it("marks all read and says how many changed", async () => {
    const me = await signIn(await createUser());
    await seedNotifications(me, 3);
    const res = await put(me, "/api/notifications/read-all");
    expect(await res.json()).toEqual({ updated: 3, unread: 0 });
    expect((await list(me)).unread).toBe(0);
    expect(await (await put(me, "/api/notifications/read-all")).json()).toEqual({ updated: 0, unread: 0 });
  });

  it("tells every open tab of the caller (and nobody else) the new unread count", async () => {
    const me = await signIn(await createUser());
    const other = await signIn(await createUser());
    const [a] = await seedNotifications(me, 3);
    const tab1 = await connectAs(me, "user-hub", me.user.id);
    const tab2 = await connectAs(me, "user-hub", me.user.id);
    const theirTab = await connectAs(other, "user-hub", other.user.id);

    await put(me, `/api/notifications/${a}/read`);
    for (const tab of [tab1, tab2]) expect(await tab.next("notification.read")).toEqual({ type: "notification.read", ids: [a], unread: 2 });
    await put(me, "/api/notifications/read-all");
    for (const tab of [tab1, tab2]) expect(await tab.next("notification.read", (f) => f.ids === "all")).toEqual({ type: "notification.read", ids: "all", unread: 0 });

    // A push of their own, sent after ours: their hub delivers in order, so a stray frame of ours would be here by now.
    const { ctx, settle } = serviceContext();
    await notifyUsers(ctx, [other.user.id], { kind: "membership-removed", params: { group: "Yours only" }, link: null });
    await settle();
    await theirTab.next("notification", (f) => f.notification.title === "You were removed from Yours only");
    expect(theirTab.of("notification.read")).toHaveLength(0);
  });
});

describe("notifyUsers", () => {
  it("stores one per recipient, however many, and pushes each with that person's unread count", async () => {
    const people = await Promise.all(Array.from({ length: 40 }, () => createUser()));
    const watcher = await signIn(people[0]!);
    await seedNotifications(watcher, 2);
    const hub = await connectAs(watcher, "user-hub", watcher.user.id);

    const { ctx, settle } = serviceContext();
    await notifyUsers(ctx, people.map((p) => p.id), { kind: "join-decision", params: { group: "Everyone's group", variant: "restored" }, link: "/courses" });
    await settle();

    const frame = await hub.next("notification");
    expect(frame).toEqual({
      type: "notification",
      notification: {
        _id: expect.any(String),
        kind: "join-decision",
        title: "You were added back to Everyone's group",
        params: { group: "Everyone's group", variant: "restored" },
        link: "/courses",
        createdAt: expect.any(String),
        readAt: null,
      },
      unread: 3,
    });
    const last = await signIn(people[39]!);
    expect((await list(last)).notifications.map((n) => n.title)).toEqual(["You were added back to Everyone's group"]);
  });
});
