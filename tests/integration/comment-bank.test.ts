/**
 * The comment bank (issue 21): each grader's own feedback snippets, at most 50, that the grader inserts with Alt+1 to
 * Alt+9. Nobody else reads or deletes them; students have none; the grader page carries the owner's list.
 */
import { describe, expect, it } from "vitest";
import { snippetKey } from "../../app/lib/snippet-key";
import { call, createUser, signIn } from "./factories";

describe("comment bank", () => {
  it("keeps a grader's snippets in order, for them alone", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const other = await signIn(await createUser({ role: "instructor" }));
    for (const text of ["Add alt text to every image.", "Great use of landmarks."]) {
      expect((await call("/api/comment-bank", { body: { text }, token: teacher.accessToken })).status).toBe(201);
    }
    const mine = (await (await call("/api/comment-bank", { token: teacher.accessToken })).json()) as { _id: string; text: string }[];
    expect(mine.map((s) => s.text)).toEqual(["Add alt text to every image.", "Great use of landmarks."]);
    expect(await (await call("/api/comment-bank", { token: other.accessToken })).json()).toEqual([]);
    // Another grader cannot delete it (not found for them); the owner can.
    expect((await call(`/api/comment-bank/${mine[0]!._id}`, { method: "DELETE", token: other.accessToken })).status).toBe(404);
    expect((await call(`/api/comment-bank/${mine[0]!._id}`, { method: "DELETE", token: teacher.accessToken })).status).toBe(200);
    expect(((await (await call("/api/comment-bank", { token: teacher.accessToken })).json()) as unknown[]).length).toBe(1);
  });

  it("holds at most 50 snippets, refuses empty ones, and has none for students", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    for (let i = 1; i <= 50; i++) expect((await call("/api/comment-bank", { body: { text: `Snippet ${i}` }, token: teacher.accessToken })).status).toBe(201);
    const full = await call("/api/comment-bank", { body: { text: "One more" }, token: teacher.accessToken });
    expect(full.status).toBe(409);
    expect(((await full.json()) as { message: string }).message).toContain("at most 50");
    expect((await call("/api/comment-bank", { body: { text: "   " }, token: teacher.accessToken })).status).toBe(400);
    const student = await signIn(await createUser());
    expect((await call("/api/comment-bank", { token: student.accessToken })).status).toBe(403);
  });

  it("keeps to 50 when snippets are sent at once", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    for (let i = 1; i <= 45; i++) expect((await call("/api/comment-bank", { body: { text: `Snippet ${i}` }, token: teacher.accessToken })).status).toBe(201);
    const sent = await Promise.all(Array.from({ length: 12 }, (_, i) => call("/api/comment-bank", { body: { text: `At once ${i}` }, token: teacher.accessToken })));
    expect(sent.filter((r) => r.status === 201)).toHaveLength(5);
    expect(sent.filter((r) => r.status === 409)).toHaveLength(7);
    expect(((await (await call("/api/comment-bank", { token: teacher.accessToken })).json()) as unknown[]).length).toBe(50);
  });

  it("reads Alt+digit by the physical key, so an Arabic layout inserts the same snippet", () => {
    expect(snippetKey({ altKey: true, ctrlKey: false, metaKey: false, code: "Digit1" })).toBe(1);
    expect(snippetKey({ altKey: true, ctrlKey: false, metaKey: false, code: "Numpad9" })).toBe(9);
    expect(snippetKey({ altKey: true, ctrlKey: false, metaKey: false, code: "Digit0" })).toBeNull();
    expect(snippetKey({ altKey: false, ctrlKey: false, metaKey: false, code: "Digit1" })).toBeNull();
    expect(snippetKey({ altKey: true, ctrlKey: true, metaKey: false, code: "Digit1" })).toBeNull();
  });
});
