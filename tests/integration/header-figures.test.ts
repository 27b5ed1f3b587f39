/**
 * The header's figures on every signed-in page (app/root.tsx, worker/services/viewer-summary.ts): the "My Courses"
 * link only for an approved or special member of some group (platform-spec §2), and the bell's unread count, both
 * read in one statement.
 */
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { addMember, call, createGroup, createUser, signIn, type TestUser } from "./factories";
import { db } from "./helpers";

async function headerOf(user: TestUser) {
  const res = await call("/courses", { cookie: (await signIn(user)).cookie });
  expect(res.status).toBe(200);
  const html = await res.text();
  return { unread: /data-unread="(\d+)"/.exec(html)?.[1] ?? null, myCourses: html.includes('href="/my-courses"') };
}

async function notify(userId: string, read: boolean) {
  await db().insert(s.notifications).values({ id: newId(), userId, kind: "test", title: "Test", createdAt: new Date(), readAt: read ? new Date() : null });
}

describe("the header of a signed-in page", () => {
  it("counts only the viewer's unread notifications", async () => {
    const user = await createUser();
    const other = await createUser();
    await notify(user.id, false);
    await notify(user.id, false);
    await notify(user.id, true);
    await notify(other.id, false);
    expect((await headerOf(user)).unread).toBe("2");
    expect((await headerOf(await createUser())).unread).toBe("0");
  });

  it("offers My Courses to an approved or special member, not to a pending, rejected, departed or removed one", async () => {
    for (const status of ["approved", "special"] as const) {
      const user = await createUser();
      await addMember(user, await createGroup({}), status);
      expect((await headerOf(user)).myCourses, status).toBe(true);
    }
    for (const status of ["pending", "rejected", "left", "removed"] as const) {
      const user = await createUser();
      await addMember(user, await createGroup({}), status);
      expect((await headerOf(user)).myCourses, status).toBe(false);
    }
  });
});
