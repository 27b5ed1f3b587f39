/**
 * A stale link inside a course (a quiz deleted since, a mistyped lecture) leads back to the course, not only home.
 */
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { addMember, call, createGroup, createUser, signIn } from "./factories";
import { db, unique } from "./helpers";

describe("a course item that is not there", () => {
  it("answers 404 with the way back to its course first, and home after it; elsewhere only home", async () => {
    const group = await createGroup();
    const student = await signIn(await createUser());
    await addMember(student.user, group);
    const lecture = { id: newId(), groupId: group.id, slug: unique("nf-lecture"), title: "Week 1", body: "", order: 1, published: true };
    await db().insert(s.lectures).values(lecture);
    const page = async (path: string, cookie = student.cookie) => {
      const res = await call(path, { cookie, headers: { accept: "text/html" } });
      return { status: res.status, text: await res.text() };
    };
    for (const path of [`/course/${group.slug}/lecture/${lecture.slug}/quiz/gone-quiz`, `/course/${group.slug}/lecture/no-such-lecture`]) {
      const gone = await page(path);
      expect(gone.status, path).toBe(404);
      const actions = gone.text.slice(gone.text.indexOf('class="error-actions"'));
      expect(actions.indexOf(`href="/course/${group.slug}"`), path).toBeGreaterThan(-1);
      expect(actions.indexOf(`href="/course/${group.slug}"`)).toBeLessThan(actions.indexOf('href="/"'));
      expect(gone.text).toContain("Back to the course");
    }
    const arabic = await page(`/course/${group.slug}/lecture/no-such-lecture`, `${student.cookie}; lang=ar`);
    expect(arabic.text).toContain("العودة إلى الكورس");
    // Outside a course there is no course to go back to.
    const elsewhere = await page("/no-such-page-at-all", "");
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.text).not.toContain("Back to the course");
  });
});
