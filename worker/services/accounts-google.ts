/**
 * Finding or creating the Cohort account behind a verified Google identity (PRODUCT.md §3 "Google sign-in").
 * 1. An account already linked to this Google subject signs in.
 * 2. Otherwise an account with the same (Google-verified) e-mail is linked. If that account had never verified
 *    its e-mail, its password is dropped: it was never proven to belong to the mailbox owner, and keeping it
 *    would let whoever registered the address first sign in to the owner's account.
 * 3. Otherwise a new, verified `user` account without a password is created.
 */
import { cleanName, hasVisibleText } from "../../app/lib/text";
import { NAME_MAX_LENGTH } from "../../app/lib/schemas";
import { and, eq, isNull } from "drizzle-orm";
import { users, type Role } from "../../db/schema";
import type { GoogleIdentity } from "../auth/google";
import type { ClientInfo } from "../auth/cookies";
import type { ServiceContext } from "../context";
import { AppError } from "../http/errors";
import { insertUser } from "./accounts";
import { openSession, type OpenedSession } from "./sessions";

export async function signInWithGoogle(
  ctx: ServiceContext,
  identity: GoogleIdentity,
  client: ClientInfo,
): Promise<OpenedSession & { role: Role }> {
  const user = await findOrCreate(ctx, identity);
  return { ...(await openSession(ctx, user, client)), role: user.role };
}

async function findOrCreate(ctx: ServiceContext, identity: GoogleIdentity): Promise<{ id: string; role: Role }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const [linked] = await ctx.db.select({ id: users.id, role: users.role }).from(users).where(eq(users.googleSub, identity.sub)).limit(1);
    if (linked) return linked;

    const [sameEmail] = await ctx.db
      .select({ id: users.id, role: users.role, googleSub: users.googleSub, emailVerifiedAt: users.emailVerifiedAt })
      .from(users)
      .where(eq(users.email, identity.email))
      .limit(1);
    if (sameEmail) {
      if (sameEmail.googleSub) throw new AppError(409, "conflict", "This e-mail address is linked to another Google account.");
      const verified = sameEmail.emailVerifiedAt !== null;
      const [row] = await ctx.db
        .update(users)
        .set(verified ? { googleSub: identity.sub } : { googleSub: identity.sub, emailVerifiedAt: new Date(), passwordHash: null })
        .where(and(eq(users.id, sameEmail.id), isNull(users.googleSub)))
        .returning({ id: users.id, role: users.role });
      if (row) return row;
      continue; // linked by a parallel sign-in in the meantime: look again
    }

    const created = await insertUser(ctx, {
      // Google's display name is free text like any other: no controls, no bidi overrides, never blank.
      name: googleName(identity.name, identity.email),
      email: identity.email,
      passwordHash: null,
      phoneNumber: null,
      country: null,
      fingerprint: null,
      emailVerifiedAt: new Date(),
      googleSub: identity.sub,
    });
    if (created) return created;
    // Created by a parallel sign-in in the meantime: look again.
  }
  throw new AppError(409, "conflict", "Please try signing in with Google again.");
}

function googleName(name: string | null | undefined, email: string): string {
  const clean = cleanName(name ?? "").trim().slice(0, NAME_MAX_LENGTH);
  return hasVisibleText(clean) ? clean : email.split("@")[0]!;
}
