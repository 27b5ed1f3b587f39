/**
 * A page's reads started together (so their statements reach D1 in one call, issue 23) still refuse for the reason
 * they would have refused one after another: `allInOrder` throws the first failure in argument order, whichever
 * read failed first. The grader reads its group, its task and the hand-ins together this way.
 */
import { describe, expect, it } from "vitest";
import { allInOrder } from "../../app/lib/group-actions.server";
import { addMember, call, createGroup, createUser, signIn } from "./factories";

const after = <T>(ms: number, settle: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(settle()), ms));

describe("reads started together", () => {
  it("answer every value in argument order when all succeed", async () => {
    expect(await allInOrder(after(20, () => "group"), Promise.resolve(2), after(5, () => ["task"]))).toEqual(["group", 2, ["task"]]);
  });

  it("throw the first failure in argument order, even when a later read failed earlier", async () => {
    const group = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("not your group")), 20));
    const task = Promise.reject(new Error("no such task"));
    await expect(allInOrder(group, task)).rejects.toThrow("not your group");
    await expect(allInOrder(Promise.resolve(1), task)).rejects.toThrow("no such task");
  });

  it("let the grader answer 404 for a group that does not exist, though the task named with it is not the viewer's either", async () => {
    const [mine, theirs] = [await createUser({ role: "instructor" }), await createUser({ role: "instructor" })];
    const [myGroup, theirGroup] = [await createGroup({ instructorId: mine.id }), await createGroup({ instructorId: theirs.id })];
    const token = `Bearer ${(await signIn(theirs)).accessToken}`;
    const lecture = (await (await call(`/api/lectures/group/${theirGroup.id}`, { token, body: { title: "Theirs", body: "x", published: true } })).json()) as { slug: string; _id: string };
    const task = (await (await call(`/api/lectures/${lecture._id}/tasks`, { token, body: { title: "Their task", body: "x", maxScore: 10 } })).json()) as { slug: string };
    await addMember(await createUser(), theirGroup);
    const grader = (group: string) => `/instructor/group/${group}/lecture/${lecture.slug}/tasks/${task.slug}/submissions`;
    const { cookie } = await signIn(mine);
    for (let round = 0; round < 3; round++) {
      // The group is read first: unknown, 404, whatever the task's answer (403: another instructor's) would be.
      expect((await call(grader(`no-such-group-${round}`), { cookie })).status).toBe(404);
      expect((await call(grader(theirGroup.slug), { cookie })).status).toBe(403);
      expect((await call(grader(myGroup.slug), { cookie })).status).toBe(403);
    }
  });
});
