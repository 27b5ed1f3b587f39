import { env } from "cloudflare:test";
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
