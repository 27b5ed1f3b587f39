import { desc, eq } from "drizzle-orm";
import { Resend } from "resend";
import { mails } from "../../db/schema";
import type { ServiceContext } from "../context";
import { newId } from "./ids";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
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
  await ctx.db.insert(mails).values({ id, to, subject: mail.subject, text: mail.text, html: mail.html, createdAt: new Date() });
  if (!ctx.settings.resend) return { id, delivered: false };

  const resend = new Resend(ctx.settings.resend.apiKey, { baseUrl: ctx.settings.resend.baseUrl });
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

/** The local outbox for one address, newest first (development only; the routes check the environment). */
export async function listOutbox(ctx: ServiceContext, to?: string, limit = 50) {
  return ctx.db
    .select({ id: mails.id, to: mails.to, subject: mails.subject, text: mails.text, html: mails.html, createdAt: mails.createdAt })
    .from(mails)
    .where(to ? eq(mails.to, to.toLowerCase()) : undefined)
    .orderBy(desc(mails.createdAt), desc(mails.id))
    .limit(limit);
}

/** Escapes text for the HTML part of an e-mail. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
