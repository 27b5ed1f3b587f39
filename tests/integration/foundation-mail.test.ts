import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import * as s from "../../db/schema";
import type { Bindings } from "../../worker/env";
import { sendMail } from "../../worker/services/mail";
import { db, serviceContext, unique } from "./helpers";

const RESEND_BASE_URL = "https://resend.test";
const withResend: Bindings = { ...env, RESEND_API_KEY: "re_test_key", RESEND_BASE_URL };

/** Replaces outbound fetch (what the Resend SDK uses) and records every request. */
function stubProvider(respond: (req: Request) => Response) {
  const seen: { url: string; method: string; headers: Headers; body: unknown }[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input, init);
    seen.push({ url: req.url, method: req.method, headers: req.headers, body: await req.clone().json() });
    return respond(req);
  });
  return seen;
}

async function outboxRow(id: string) {
  const [row] = await db().select().from(s.mails).where(eq(s.mails.id, id));
  return row!;
}

const mail = () => ({ to: `${unique("to")}@Test.Example`, subject: "Your code", text: "Code: 123456", html: "<p>Code: <b>123456</b></p>" });

describe("sendMail with RESEND_API_KEY", () => {
  it("posts to {RESEND_BASE_URL}/emails and records sentAt and the provider id", async () => {
    const seen = stubProvider(() => Response.json({ id: "re_msg_1" }));
    const m = mail();
    const { ctx } = serviceContext(withResend);
    const result = await sendMail(ctx, m);

    expect(result.delivered).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe(`${RESEND_BASE_URL}/emails`);
    expect(seen[0]!.method).toBe("POST");
    expect(seen[0]!.headers.get("authorization")).toBe("Bearer re_test_key");
    expect(seen[0]!.body).toMatchObject({ from: env.MAIL_FROM, to: m.to.toLowerCase(), subject: m.subject, text: m.text, html: m.html });

    const row = await outboxRow(result.id);
    expect(row.to).toBe(m.to.toLowerCase());
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.providerId).toBe("re_msg_1");
    expect(row.error).toBeNull();
  });

  it("records the provider's error and no sentAt when Resend refuses", async () => {
    stubProvider(() => Response.json({ name: "validation_error", message: "Invalid `to` field.", statusCode: 422 }, { status: 422 }));
    const { ctx } = serviceContext(withResend);
    const result = await sendMail(ctx, mail());

    expect(result.delivered).toBe(false);
    const row = await outboxRow(result.id);
    expect(row.sentAt).toBeNull();
    expect(row.providerId).toBeNull();
    expect(row.error).toBe("validation_error: Invalid `to` field.");
  });

  it("records an error when the provider cannot be reached", async () => {
    stubProvider(() => {
      throw new TypeError("network down");
    });
    const { ctx } = serviceContext(withResend);
    const result = await sendMail(ctx, mail());

    expect(result.delivered).toBe(false);
    const row = await outboxRow(result.id);
    expect(row.sentAt).toBeNull();
    expect(row.error).toEqual(expect.any(String));
    expect(row.error!.length).toBeGreaterThan(0);
  });
});

describe("sendMail without RESEND_API_KEY", () => {
  it("only records the mail in the outbox", async () => {
    const seen = stubProvider(() => Response.json({ id: "never" }));
    const { ctx } = serviceContext();
    const result = await sendMail(ctx, mail());

    expect(result.delivered).toBe(false);
    expect(seen).toHaveLength(0);
    const row = await outboxRow(result.id);
    expect(row).toMatchObject({ subject: "Your code", sentAt: null, providerId: null, error: null });
  });
});

describe("a mail carrying a one-time code", () => {
  const codeMail = () => ({ to: `${unique("to")}@test.example`, subject: "Your Cohort verification code: 482913", text: "Hello,\n\nYour verification code is 482913.", html: "<p>Your verification code is 482913.</p>", secret: "482913" });
  const stored = (row: typeof s.mails.$inferSelect) => JSON.stringify(row);

  it("goes out whole through the provider, and its outbox copy keeps no trace of the code", async () => {
    const seen = stubProvider(() => Response.json({ id: "re_code" }));
    const m = codeMail();
    const { ctx } = serviceContext(withResend);
    const result = await sendMail(ctx, m);

    expect(result.delivered).toBe(true);
    expect(seen[0]!.body).toMatchObject({ subject: m.subject, text: m.text, html: m.html });
    const row = await outboxRow(result.id);
    expect(stored(row)).not.toContain("482913");
    expect(row.subject).toBe("Your Cohort verification code: ••••••");
    expect(row.text).toBe("Hello,\n\nYour verification code is ••••••.");
    expect(row.secretSealed).toBeNull();
  });

  it("is kept sealed in the development outbox, and the dev mailbox shows it as sent", async () => {
    const m = codeMail();
    const { ctx } = serviceContext();
    const result = await sendMail(ctx, m);

    const row = await outboxRow(result.id);
    expect(stored(row)).not.toContain("482913");
    expect(row.secretSealed).toEqual(expect.any(String));
    const res = await SELF.fetch(`http://localhost/api/dev/mailbox?to=${encodeURIComponent(m.to)}`);
    const [shown] = (await res.json()) as { subject: string; text: string; html: string }[];
    expect(shown).toMatchObject({ subject: m.subject, text: m.text, html: m.html });
  });

  it("cannot be opened under another AUTH_SECRET: the mailbox then shows the mask", async () => {
    const m = codeMail();
    const { ctx } = serviceContext({ ...env, AUTH_SECRET: "another-secret-".repeat(3) });
    await sendMail(ctx, m);
    const res = await SELF.fetch(`http://localhost/api/dev/mailbox?to=${encodeURIComponent(m.to)}`);
    const [shown] = (await res.json()) as { subject: string }[];
    expect(shown!.subject).toBe("Your Cohort verification code: ••••••");
  });

  it("from sign-up and forgot-password: no row of the outbox holds a live code", async () => {
    const email = `${unique("sealed")}@test.example`;
    const res = await SELF.fetch("http://localhost/api/users/register", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost", "cf-connecting-ip": "203.0.113.77" },
      body: JSON.stringify({ name: "Sealed Person", email, password: "a-long-enough-password", phone_number: "+201001234567" }),
    });
    expect(res.status).toBe(201);
    let shown: { subject: string }[] = [];
    for (let i = 0; i < 50 && shown.length === 0; i++) {
      shown = (await (await SELF.fetch(`http://localhost/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as { subject: string }[];
      if (shown.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    const code = /(\d{6})$/.exec(shown[0]!.subject)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const rows = await db().select().from(s.mails).where(eq(s.mails.to, email));
    expect(rows).toHaveLength(1);
    expect(stored(rows[0]!)).not.toContain(code!);
  });
});
