import { SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { db, insertUser, randomIp, unique } from "./helpers";

type ErrorBody = { message: string; code: string; fields?: Record<string, string> };

function postContact(body: unknown, ip = randomIp(), headers: Record<string, string> = {}) {
  return SELF.fetch("http://localhost/api/contact", {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": ip, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const valid = () => ({ name: "Mariam", email: `${unique("c")}@Test.Example`, message: "Do you have weekend groups?" });

describe("POST /api/contact", () => {
  it("stores the message and answers 201 with its id", async () => {
    const input = valid();
    const res = await postContact({ ...input, name: "  Mariam  " });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { _id: string; message: string };
    expect(body._id).toEqual(expect.any(String));
    expect(body.message).toBe("Thank you for contacting us! We'll get back to you soon.");

    const [row] = await db().select().from(s.contactMessages).where(eq(s.contactMessages.id, body._id));
    expect(row).toMatchObject({ name: "Mariam", email: input.email.toLowerCase(), message: input.message, readAt: null });
    expect(row!.createdAt).toBeInstanceOf(Date);
  });

  it("notifies every admin with a contact-message notification", async () => {
    const admin = await insertUser({ role: "admin" });
    const student = await insertUser({ role: "user" });
    const res = await postContact({ ...valid(), name: "Notify Me" });
    expect(res.status).toBe(201);

    const forAdmin = await db()
      .select()
      .from(s.notifications)
      .where(and(eq(s.notifications.userId, admin.id), eq(s.notifications.kind, "contact-message")));
    expect(forAdmin).toHaveLength(1);
    expect(forAdmin[0]!.title).toContain("Notify Me");
    expect(forAdmin[0]!.link).toBe("/dashboard/admin/get-all-message-by-admin");
    const forStudent = await db().select().from(s.notifications).where(eq(s.notifications.userId, student.id));
    expect(forStudent).toHaveLength(0);
  });

  it.each([
    ["a missing name", { name: undefined }, "name"],
    ["a blank name", { name: "   " }, "name"],
    ["an invalid e-mail", { email: "not-an-email" }, "email"],
    ["a whitespace-only message", { message: " \n\t " }, "message"],
    ["a too long name", { name: "n".repeat(101) }, "name"],
    ["a too long message", { message: "m".repeat(5001) }, "message"],
  ])("refuses %s with 400 validation_failed and a field message", async (_label, patch, field) => {
    const before = await db().$count(s.contactMessages);
    const res = await postContact({ ...valid(), ...patch });
    expect(res.status).toBe(400);
    const body = (await res.json()) as ErrorBody;
    expect(body.code).toBe("validation_failed");
    expect(Object.keys(body.fields ?? {})).toEqual([field]);
    expect(body.fields![field]!.length).toBeGreaterThan(0);
    expect(body.message).toBe(body.fields![field]);
    expect(await db().$count(s.contactMessages)).toBe(before);
  });

  it("answers malformed JSON with 400, not 500", async () => {
    const res = await postContact('{"name": "Mariam", ');
    expect(res.status).toBe(400);
    const body = (await res.json()) as ErrorBody;
    expect(body.code).toBe("bad_request");
    expect(body.message.length).toBeGreaterThan(0);
  });

  it("answers a body sent as text/plain with 415 JSON, not 500", async () => {
    const before = await db().$count(s.contactMessages);
    const res = await postContact(JSON.stringify(valid()), randomIp(), { "content-type": "text/plain" });
    expect(res.status).toBe(415);
    const body = (await res.json()) as ErrorBody;
    expect(body.code).toBe("bad_request");
    expect(body.message.length).toBeGreaterThan(0);
    expect(await db().$count(s.contactMessages)).toBe(before);
  });

  it("accepts a JSON content type with a charset", async () => {
    const res = await postContact(valid(), randomIp(), { "content-type": "application/json; charset=utf-8" });
    expect(res.status).toBe(201);
  });

  it.each([["null", "null"], ["an array", "[]"], ["a string", '"hello"']])("refuses %s as the body with 400", async (_label, body) => {
    const res = await postContact(body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).code).toBe("validation_failed");
  });

  it("refuses a body over 64 KB with 413", async () => {
    const res = await postContact({ ...valid(), message: "x".repeat(70 * 1024) });
    expect(res.status).toBe(413);
    const body = (await res.json()) as ErrorBody;
    expect(body.code).toBe("payload_too_large");
  });

  it("refuses a streamed body over 64 KB (no content-length) with 413", async () => {
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 5) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await SELF.fetch("http://localhost/api/contact", {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": randomIp() },
      body: stream,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as ErrorBody).code).toBe("payload_too_large");
  });

  it("rate-limits the sixth message in ten minutes from one IP with 429 and Retry-After", async () => {
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      expect((await postContact(valid(), ip)).status).toBe(201);
    }
    const before = await db().$count(s.contactMessages);
    const limited = await postContact(valid(), ip);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(10 * 60);
    const body = (await limited.json()) as ErrorBody;
    expect(body.code).toBe("rate_limited");
    expect(body.message).toBe("Too many messages. Please try again later.");
    expect(await db().$count(s.contactMessages)).toBe(before);

    // Someone else is unaffected.
    expect((await postContact(valid(), randomIp())).status).toBe(201);
  });
});
