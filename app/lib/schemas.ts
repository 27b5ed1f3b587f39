/**
 * Input schemas shared by the browser forms, the Remix actions and the Hono API (which also
 * turns them into the OpenAPI document). Client-safe: no server imports here.
 */
import { z } from "zod";

export const CONTACT_LIMITS = { name: 100, email: 254, message: 5000 } as const;

export const contactInput = z.object({
  name: z.string().trim().min(1, "Please enter your name.").max(CONTACT_LIMITS.name, `Name must be at most ${CONTACT_LIMITS.name} characters.`),
  email: z
    .string()
    .trim()
    .max(CONTACT_LIMITS.email, "E-mail address is too long.")
    .pipe(z.email("Please enter a valid e-mail address.")),
  message: z
    .string()
    .trim()
    .min(1, "Please write a message.")
    .max(CONTACT_LIMITS.message, `Message must be at most ${CONTACT_LIMITS.message} characters.`),
});
export type ContactInput = z.infer<typeof contactInput>;

/** `{id}` path parameters accept a record's id or its slug. */
export const idOrSlugParam = z.object({
  id: z.string().min(1).max(120).regex(/^[\p{L}\p{N}_-]+$/u, "Invalid id"),
});

export const mailboxQuery = z.object({
  to: z.email("Give the recipient as ?to=EMAIL"),
});
