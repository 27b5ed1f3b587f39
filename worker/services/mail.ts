import { desc, eq } from "drizzle-orm";
import type { Resend as ResendClient } from "resend";
import { mails } from "../../db/schema";
import { seal, unseal } from "../auth/sealed";
import type { ServiceContext } from "../context";
import { newId } from "./ids";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * A one-time code the mail carries. The outbox keeps the mail with the code masked; the code itself is kept only
   * where the outbox is the mailbox (no mail provider: development), sealed, so the dev mailbox can show it.
   */
  secret?: string;
}

/** What a one-time code reads as in the outbox's copy of its mail. */
export const MASKED_CODE = "••••••";

/** A mail's subject, text and html with every `from` replaced by `to` (a code masked, or put back). */
const swapped = <M extends Pick<OutgoingMail, "subject" | "text" | "html">>(mail: M, from: string, to: string) => ({
  ...mail,
  subject: mail.subject.replaceAll(from, to),
  text: mail.text.replaceAll(from, to),
  html: mail.html.replaceAll(from, to),
});

/**
 * A Resend client. Its library (with its MIME parser) is imported by the first mail that goes out through Resend,
 * not by every isolate that loads this module (docs/decisions/0025-lean-cold-start.md).
 */
async function resendFor(settings: { apiKey: string; baseUrl?: string }): Promise<ResendClient> {
  const { Resend } = await import("resend");
  return new Resend(settings.apiKey, { baseUrl: settings.baseUrl });
}

/**
 * Sends one e-mail. It is always recorded in the outbox first (so nothing is lost and the dev mailbox
 * can show it); with RESEND_API_KEY set it then goes through Resend and the delivery result is stored.
 */
export async function sendMail(ctx: ServiceContext, mail: OutgoingMail): Promise<{ id: string; delivered: boolean }> {
  const id = newId();
  const to = mail.to.toLowerCase();
  // Millisecond time set here: the column default (unixepoch() * 1000) has whole seconds only, which
  // makes "newest first" a coin toss for mails sent in the same second (register, then resend a code).
  const { secret } = mail;
  const kept = secret ? swapped(mail, secret, MASKED_CODE) : mail;
  const secretSealed = secret && !ctx.settings.resend ? await seal(ctx.settings, secret) : null;
  await ctx.db.insert(mails).values({ id, to, subject: kept.subject, text: kept.text, html: kept.html, secretSealed, createdAt: new Date() });
  if (!ctx.settings.resend) return { id, delivered: false };

  const resend = await resendFor(ctx.settings.resend);
  try {
    const { data, error } = await resend.emails.send({ from: ctx.settings.mailFrom, to, subject: mail.subject, text: mail.text, html: mail.html });
    if (error) {
      await ctx.db.update(mails).set({ error: `${error.name}: ${error.message}` }).where(eq(mails.id, id));
      return { id, delivered: false };
    }
    await ctx.db.update(mails).set({ sentAt: new Date(), providerId: data?.id ?? null }).where(eq(mails.id, id));
    return { id, delivered: true };
  } catch (e) {
    await ctx.db.update(mails).set({ error: e instanceof Error ? e.message : String(e) }).where(eq(mails.id, id));
    return { id, delivered: false };
  }
}

/** Resend takes at most 100 messages per batch call; D1 binds at most 100 values per statement (6 per mail row). */
const RESEND_BATCH = 100;
const MAIL_ROWS_PER_INSERT = 16;

/**
 * Sends many e-mails (an announcement to a group): recorded in the outbox in one D1 batch, then through Resend's
 * batch call, 100 at a time, each delivery result stored. Call it after the answer (`waitUntil`).
 */
export async function sendMails(ctx: ServiceContext, list: OutgoingMail[]): Promise<void> {
  if (list.length === 0) return;
  const now = Date.now();
  const rows = list.map((m, i) => ({ id: newId(), to: m.to.toLowerCase(), subject: m.subject, text: m.text, html: m.html, createdAt: new Date(now + i) }));
  const inserts = [];
  for (let i = 0; i < rows.length; i += MAIL_ROWS_PER_INSERT) inserts.push(ctx.db.insert(mails).values(rows.slice(i, i + MAIL_ROWS_PER_INSERT)));
  await ctx.db.batch(inserts as [(typeof inserts)[number], ...(typeof inserts)[number][]]);
  if (!ctx.settings.resend) return;
  const resend = await resendFor(ctx.settings.resend);
  for (let i = 0; i < rows.length; i += RESEND_BATCH) {
    const part = rows.slice(i, i + RESEND_BATCH);
    try {
      const { data, error } = await resend.batch.send(part.map((r) => ({ from: ctx.settings.mailFrom, to: r.to, subject: r.subject, text: r.text, html: r.html })));
      const sentAt = new Date();
      await ctx.db.batch(
        part.map((r, j) =>
          ctx.db
            .update(mails)
            .set(error ? { error: `${error.name}: ${error.message}` } : { sentAt, providerId: data?.data[j]?.id ?? null })
            .where(eq(mails.id, r.id)),
        ) as never,
      );
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      await ctx.db.batch(part.map((r) => ctx.db.update(mails).set({ error: message }).where(eq(mails.id, r.id))) as never);
    }
  }
}

/** The local outbox for one address, newest first (development only; the routes check the environment). */
export async function listOutbox(ctx: ServiceContext, to?: string, limit = 50) {
  const rows = await ctx.db
    .select({ id: mails.id, to: mails.to, subject: mails.subject, text: mails.text, html: mails.html, createdAt: mails.createdAt, secretSealed: mails.secretSealed })
    .from(mails)
    .where(to ? eq(mails.to, to.toLowerCase()) : undefined)
    .orderBy(desc(mails.createdAt), desc(mails.id))
    .limit(limit);
  // The mailbox shows each mail as it was sent: a sealed code goes back where it was masked.
  return Promise.all(
    rows.map(async ({ secretSealed, ...row }) => {
      const code = secretSealed ? await unseal(ctx.settings, secretSealed) : null;
      return code ? swapped(row, MASKED_CODE, code) : row;
    }),
  );
}

/** Escapes text for the HTML part of an e-mail. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
