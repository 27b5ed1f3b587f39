/**
 * Load-test data for bench/soak.mjs (development only: reached through POST /api/dev/seed, which answers 404
 * elsewhere): one published group with N approved students who share one fresh random password. The bench then
 * signs each of them in through the real login endpoint.
 */
import type { ServiceContext } from "../worker/context";
import { hashPassword } from "../worker/auth/password";
import { base64url, newId } from "../worker/services/ids";
import * as s from "./schema";

export const SOAK_MAX_USERS = 1000;

export interface SoakSeed {
  group: { _id: string; slug: string };
  password: string;
  emails: string[];
}

export async function seedSoakGroup(ctx: ServiceContext, count: number): Promise<SoakSeed> {
  const run = newId().slice(0, 8).toLowerCase().replace(/[^a-z0-9]/g, "x");
  const password = base64url(crypto.getRandomValues(new Uint8Array(18)));
  // One hash for everyone: the bench measures chat, not password hashing.
  const passwordHash = await hashPassword(password, ctx.settings.passwordPepper);
  const group = { id: newId(), slug: `soak-${run}`, title: `Soak test ${run}`, status: "published" as const };
  const now = new Date();
  const users = Array.from({ length: count }, (_, i) => ({
    id: newId(),
    slug: `soak-${run}-${i}`,
    name: `Soak ${i}`,
    email: `soak-${run}-${i}@soak.example`,
    passwordHash,
    role: "user" as const,
    emailVerifiedAt: now,
  }));
  const members = users.map((u) => ({ id: newId(), userId: u.id, groupId: group.id, status: "approved" as const }));
  // D1 binds at most 100 values per statement.
  const statements = [
    ctx.db.insert(s.groups).values(group),
    ...chunk(users, 14).map((part) => ctx.db.insert(s.users).values(part)),
    ...chunk(members, 25).map((part) => ctx.db.insert(s.memberships).values(part)),
  ] as const;
  await ctx.db.batch(statements);
  return { group: { _id: group.id, slug: group.slug }, password, emails: users.map((u) => u.email) };
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
