import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { aSecondLater, insertFeedback } from "./helpers";

type Feedback = { _id: string; name: string; groupSlug: string; userFeedback: string; rating: number };

/** The public list, asked for after the rows written straight into D1 can show in it (a cached answer). */
async function fetchFeedback(): Promise<{ text: string; list: Feedback[] }> {
  await aSecondLater();
  const res = await SELF.fetch("http://localhost/api/feedback");
  expect(res.status).toBe(200);
  const text = await res.text();
  const list = JSON.parse(text) as Feedback[];
  expect(Array.isArray(list)).toBe(true);
  return { text, list };
}

/** Every key at any depth of a JSON value. */
function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [k, ...allKeys(v)]);
  return [];
}

describe("GET /api/feedback", () => {
  it("answers the public fields and never an e-mail address", async () => {
    const fb = await insertFeedback({ name: "Hala", email: "hala.secret@test.example", groupSlug: "backend-node", userFeedback: "Loved it", rating: 5 });

    const { text, list } = await fetchFeedback();
    expect(list.find((x) => x._id === fb.id)).toEqual({ _id: fb.id, name: "Hala", groupSlug: "backend-node", userFeedback: "Loved it", rating: 5 });
    expect(allKeys(list)).not.toContain("email");
    expect(text).not.toContain("hala.secret@test.example");
  });

  it("leaves hidden feedback out", async () => {
    const visible = await insertFeedback();
    const hidden = await insertFeedback({ hidden: true });

    const ids = (await fetchFeedback()).list.map((x) => x._id);
    expect(ids).toContain(visible.id);
    expect(ids).not.toContain(hidden.id);
  });

  it("lists newest first", async () => {
    const now = Date.now();
    const old = await insertFeedback({ createdAt: new Date(now - 3 * 86_400_000) });
    const newest = await insertFeedback({ createdAt: new Date(now + 60_000) });
    const middle = await insertFeedback({ createdAt: new Date(now - 86_400_000) });

    const mine = (await fetchFeedback()).list.map((x) => x._id).filter((id) => [old.id, newest.id, middle.id].includes(id));
    expect(mine).toEqual([newest.id, middle.id, old.id]);
  });
});
