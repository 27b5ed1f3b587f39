import type { ContactInput } from "../../app/lib/schemas";
import { contactMessages } from "../../db/schema";
import type { ServiceContext } from "../context";
import { publishToStaff } from "../realtime/publish";
import { newId } from "./ids";
import { adminIds, notifyUsers } from "./notifications";
import { hitRateLimit } from "./rate-limit";

/** 5 messages per 10 minutes per IP: enough for a person, useless for a spammer. */
export const CONTACT_LIMIT = { max: 5, windowMs: 10 * 60_000 };

/**
 * Stores a contact-form message, tells the admins (notification + live inbox) and returns its id.
 * Input is already validated by the caller's schema (`contactInput`).
 */
export async function createContactMessage(ctx: ServiceContext, input: ContactInput): Promise<{ _id: string }> {
  await hitRateLimit(ctx, `contact:ip:${ctx.ip}`, CONTACT_LIMIT, "Too many messages. Please try again later.");
  const id = newId();
  const createdAt = new Date();
  await ctx.db.insert(contactMessages).values({ id, name: input.name, email: input.email.toLowerCase(), message: input.message, createdAt });
  const admins = await adminIds(ctx);
  await notifyUsers(ctx, admins, { kind: "contact-message", title: `New message from ${input.name}`, link: "/dashboard/admin/get-all-message-by-admin" });
  ctx.waitUntil(
    publishToStaff(ctx.env, {
      type: "contact.created",
      message: { _id: id, name: input.name, email: input.email.toLowerCase(), message: input.message, createdAt: createdAt.toISOString(), readAt: null },
    }),
  );
  return { _id: id };
}
