import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import worker from "../../worker";
import { api } from "../../worker/api";
import { sendMail } from "../../worker/services/mail";
import { callHandler, db, productionEnv, serviceContext, unique } from "./helpers";

type Mail = { id: string; to: string; subject: string; text: string; html: string; createdAt: string };

async function send(to: string, subject: string, text = `Body of ${subject}`) {
  const { ctx } = serviceContext();
  return sendMail(ctx, { to, subject, text, html: `<p>${text}</p>` });
}


describe("GET /api/dev/mailbox (development)", () => {
  it("answers the mails sent to one address, newest first, with to, subject and text", async () => {
    const to = `${unique("mb")}@test.example`;
    const other = `${unique("mb")}@test.example`;
    // Sent in this order, then dated explicitly (no sleeps): the answer must follow the dates, newest first.
    const first = await send(to, "First");
    await send(other, "Not yours");
    const second = await send(to.toUpperCase(), "Second", "Your code is 123456");
    const base = Date.now() - 60_000;
    await db().update(s.mails).set({ createdAt: new Date(base + 2_000) }).where(eq(s.mails.id, first.id));
    await db().update(s.mails).set({ createdAt: new Date(base + 1_000) }).where(eq(s.mails.id, second.id));

    const res = await SELF.fetch(`http://localhost/api/dev/mailbox?to=${encodeURIComponent(to)}`);
    expect(res.status).toBe(200);
    const mails = (await res.json()) as Mail[];
    expect(mails.map((m) => m.subject)).toEqual(["First", "Second"]);
    expect(mails[1]).toMatchObject({ to, subject: "Second", text: "Your code is 123456", html: "<p>Your code is 123456</p>" });
    expect(Date.parse(mails[0]!.createdAt)).toBeGreaterThan(Date.parse(mails[1]!.createdAt));
  });

  it("answers an empty list for an address that got no mail", async () => {
    const res = await SELF.fetch(`http://localhost/api/dev/mailbox?to=${unique("nobody")}@test.example`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  it.each([["without ?to", ""], ["with an invalid ?to", "?to=not-an-address"]])("answers 400 %s", async (_label, query) => {
    const res = await SELF.fetch(`http://localhost/api/dev/mailbox${query}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; fields: Record<string, string> };
    expect(body.code).toBe("validation_failed");
    expect(body.fields).toHaveProperty("to");
  });
});

describe("POST /api/dev/seed (development)", () => {
  // The only test in this file that seeds, so the first call finds an empty database.
  it("seeds the demo data once", async () => {
    const first = await SELF.fetch("http://localhost/api/dev/seed", { method: "POST" });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ seeded: true });

    const groups = (await (await SELF.fetch("http://localhost/api/groups")).json()) as { slug: string }[];
    expect(groups.map((g) => g.slug)).toEqual(expect.arrayContaining(["frontend-react", "backend-node", "mobile-flutter"]));

    const second = await SELF.fetch("http://localhost/api/dev/seed", { method: "POST" });
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ seeded: false });
  });
});

describe("development helpers in production", () => {
  it("answers 404 for the mailbox API", async () => {
    const to = `${unique("prod")}@test.example`;
    await send(to, "Secret code");
    const res = await callHandler(api, new Request(`http://localhost/api/dev/mailbox?to=${encodeURIComponent(to)}`), productionEnv());
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ code: "not_found" });
    expect(text).not.toContain("Secret code");
  });

  it("answers 404 for seeding", async () => {
    const res = await callHandler(api, new Request("http://localhost/api/dev/seed", { method: "POST" }), productionEnv());
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "not_found" });
  });

  it("answers 404 for the /dev/mailbox page, which development serves", async () => {
    const to = `${unique("page")}@test.example`;
    await send(to, "Page secret");
    const url = `http://localhost/dev/mailbox?to=${encodeURIComponent(to)}`;

    const dev = await SELF.fetch(url);
    expect(dev.status).toBe(200);
    expect(await dev.text()).toContain("Page secret");

    const prod = await callHandler(worker, new Request(url), productionEnv());
    expect(prod.status).toBe(404);
    const html = await prod.text();
    expect(html).not.toContain("Page secret");
    expect(prod.headers.get("x-frame-options")).toBe("DENY");
  });

  it("still serves the public API (the production env itself is valid)", async () => {
    const res = await callHandler(api, new Request("http://localhost/api/health"), productionEnv());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(env.ENVIRONMENT).toBe("development");
  });
});
