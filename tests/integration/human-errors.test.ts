/**
 * A refused request says what is wrong in words a person reads, naming the field, even where a schema gave no
 * message of its own: never Zod's "Too small: expected number to be >0" (worker/http/human-issue.ts).
 */
import { describe, expect, it } from "vitest";
import { addMember, call, createGroup, createUser, signIn } from "./factories";

const ZOD_WORDS = /^(Too small|Too big|Invalid input|Invalid option|Invalid string|Unrecognized key)/;

async function refusal(path: string, token: string, init: { method?: string; body?: unknown } = {}) {
  const res = await call(path, { token, method: init.method, body: init.body });
  const body = (await res.json()) as { message: string; code: string; fields?: Record<string, string> };
  return { status: res.status, ...body };
}

describe("validation refusals in a person's words", () => {
  it("name the field and the rule for queries, parameters and bodies whose schema has no message of its own", async () => {
    const teacher = await createUser({ role: "instructor" });
    const group = await createGroup({ instructorId: teacher.id });
    const student = await createUser();
    await addMember(student, group);
    const s = (await signIn(student)).accessToken;
    const staff = (await signIn(teacher)).accessToken;

    const cases = [
      { got: await refusal("/api/notifications?limit=-5", s), says: "limit must be 1 or more." },
      { got: await refusal(`/api/messages/group/${group.slug}?before=-1`, s), says: "before must be more than 0." },
      { got: await refusal(`/api/groups/${group.slug}/content/order`, staff, { method: "PUT", body: {} }), says: "ids is required." },
    ];
    for (const { got, says } of cases) {
      expect(got.status).toBe(400);
      expect(got.code).toBe("validation_failed");
      expect(got.message).toBe(says);
    }
    // Whatever the rule, nothing answers in Zod's own words.
    const more = [
      await refusal(`/api/quizzes/${"q".repeat(5000)}`, s),
      await refusal(`/api/groups/${group.slug}/question-bank`, staff, { method: "POST", body: {} }),
      await refusal(`/api/groups/${group.slug}/question-bank`, staff, { method: "POST", body: { question: { type: "nonsense" } } }),
    ];
    for (const got of more) {
      expect(got.status).toBe(400);
      expect(got.message).not.toMatch(ZOD_WORDS);
      for (const text of Object.values(got.fields ?? {})) expect(text).not.toMatch(ZOD_WORDS);
    }
  });
});
