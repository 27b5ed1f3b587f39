/**
 * Accounts after sign-in (PRODUCT.md §3 "Accounts"): one's own profile, password and account, and the admins'
 * user management. Every function takes the acting `Viewer` and checks permission itself, so a Remix action
 * calling it directly is exactly as safe as the API.
 */
import { and, count, desc, eq, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { can } from "../../app/lib/permissions";
import type { ChangePasswordInput, ChangeRoleInput, DeleteAccountInput, ListUsersQuery, UpdateProfileInput } from "../../app/lib/schemas";
import { groups, memberships, users, type MembershipStatus, type Role } from "../../db/schema";
import type { ClientInfo } from "../auth/cookies";
import { hashPassword } from "../auth/password";
import type { ServiceContext } from "../context";
import { AppError, forbidden, notFound } from "../http/errors";
import { mailLang, passwordChangedMail } from "./accounts-mail";
import { matchesAny } from "./group-access";
import { checkPassword, requirePhoneOfCountry } from "./accounts";
import { sendMail } from "./mail";
import { CLOSE } from "../../app/lib/realtime-limits";
import { closeSocketsOf, groupRoomsOf } from "./realtime-access";
import { revokeAllSessions, signedOutCookies, type Viewer } from "./sessions";

export interface UserDto {
  _id: string;
  slug: string;
  name: string;
  email: string;
  role: Role;
  phone_number: string | null;
  country: string | null;
  emailVerified: boolean;
  createdAt: string;
}

export interface ProfileDto extends UserDto {
  /** False for accounts made with Google that never set a password. */
  hasPassword: boolean;
  googleLinked: boolean;
  /** Every group the user asked to join, with the membership status (approved, special, pending, ...). */
  groups: { _id: string; title: string; slug: string; status: MembershipStatus }[];
}

const userColumns = {
  id: users.id,
  slug: users.slug,
  name: users.name,
  email: users.email,
  role: users.role,
  phoneNumber: users.phoneNumber,
  country: users.country,
  emailVerifiedAt: users.emailVerifiedAt,
  createdAt: users.createdAt,
};
type UserRow = { [K in keyof typeof userColumns]: (typeof users.$inferSelect)[K] };

function toDto(u: UserRow): UserDto {
  return {
    _id: u.id,
    slug: u.slug,
    name: u.name,
    email: u.email,
    role: u.role,
    phone_number: u.phoneNumber,
    country: u.country,
    emailVerified: u.emailVerifiedAt !== null,
    createdAt: u.createdAt.toISOString(),
  };
}

const LAST_ADMIN = "The last admin cannot be removed or demoted. Make someone else an admin first.";
const RUNS_GROUPS = "This instructor runs groups. Give their groups to another instructor first, then change the role.";
const RUNS_GROUPS_DELETE = "This instructor runs groups. Give their groups to another instructor first, then delete the account.";
const RUNS_GROUPS_SELF = "You run groups: ask an admin to give them to another instructor before you delete your account.";

/** True unless the user is a group's instructor: only an instructor may be one (the group forms list instructors). */
const runsNoGroup = sql`not exists (select 1 from ${groups} where ${groups.instructorId} = ${users.id})`;

/** True unless the statement would leave no admin: the guard runs inside the same UPDATE/DELETE, so it is atomic. */
const keepsAnAdmin = sql`(${users.role} <> 'admin' OR (SELECT count(*) FROM users WHERE role = 'admin') > 1)`;

/** GET /api/users/profile: the viewer with their groups and membership statuses. */
export async function getProfile(ctx: ServiceContext, viewer: Viewer): Promise<ProfileDto> {
  const [[user], rows] = await ctx.db.batch([
    ctx.db
      .select({ ...userColumns, passwordHash: users.passwordHash, googleSub: users.googleSub })
      .from(users)
      .where(eq(users.id, viewer.userId)),
    ctx.db
      .select({ _id: groups.id, title: groups.title, slug: groups.slug, status: memberships.status })
      .from(memberships)
      .innerJoin(groups, eq(groups.id, memberships.groupId))
      // A group back in draft is unknown to everyone outside its staff (its requests are kept for when it is published).
      .where(and(eq(memberships.userId, viewer.userId), ne(groups.status, "draft")))
      .orderBy(desc(memberships.createdAt)),
  ]);
  if (!user) throw notFound("No such user.");
  return { ...toDto(user), hasPassword: user.passwordHash !== null, googleLinked: user.googleSub !== null, groups: rows };
}

/** PUT /api/users: edits the viewer's own name, phone number and country. */
export async function updateProfile(ctx: ServiceContext, viewer: Viewer, input: UpdateProfileInput): Promise<ProfileDto> {
  const changes = { name: input.name, phoneNumber: input.phone_number, country: input.country };
  if (input.phone_number !== undefined || input.country !== undefined) {
    // The number and the country stay a pair: one changed alone is checked against the other as stored.
    const stored = input.phone_number === undefined || input.country === undefined ? (await ctx.db.select({ phone: users.phoneNumber, country: users.country }).from(users).where(eq(users.id, viewer.userId)))[0] : undefined;
    requirePhoneOfCountry(input.country ?? stored?.country ?? null, input.phone_number ?? stored?.phone ?? null);
  }
  if (Object.values(changes).some((v) => v !== undefined)) {
    await ctx.db.update(users).set(changes).where(eq(users.id, viewer.userId));
  }
  return getProfile(ctx, viewer);
}

async function passwordOf(ctx: ServiceContext, viewer: Viewer) {
  const [row] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, viewer.userId));
  if (!row) throw notFound("No such user.");
  return row.passwordHash;
}

/** PUT /api/users/password: needs the current password; signs the viewer's other devices out. */
export async function changePassword(ctx: ServiceContext, viewer: Viewer, input: ChangePasswordInput): Promise<{ message: string }> {
  const stored = await passwordOf(ctx, viewer);
  const { ok } = await checkPassword(ctx, viewer.email, stored, input.currentPassword);
  if (!ok) {
    const message = stored ? "The current password is incorrect." : "Your account has no password yet: use \"Forgot password\" to set one.";
    throw new AppError(400, "invalid_credentials", message, { currentPassword: message });
  }
  // Checked after the current password, so it says nothing about a password the sender does not know. "Changing" to
  // the same password would sign every other device out and mail a warning for a change that did not happen.
  if (input.newPassword === input.currentPassword) {
    const message = "Choose a new password that differs from the current one.";
    throw new AppError(400, "validation_failed", message, { newPassword: message });
  }
  const passwordHash = await hashPassword(input.newPassword, ctx.settings.passwordPepper);
  // Only over the password just checked: of two changes sent at once with the same current password, one lands and
  // the other is told (it would otherwise replace the first one's new password, unchecked).
  const [changed] = await ctx.db
    .update(users)
    .set({ passwordHash })
    .where(and(eq(users.id, viewer.userId), stored === null ? isNull(users.passwordHash) : eq(users.passwordHash, stored)))
    .returning({ id: users.id, locale: users.locale });
  if (!changed) {
    const message = "Your password was changed a moment ago. Use the new one.";
    throw new AppError(409, "conflict", message, { currentPassword: message });
  }
  await revokeAllSessions(ctx, viewer.userId, viewer.sessionId);
  ctx.waitUntil(sendMail(ctx, { to: viewer.email, ...passwordChangedMail(viewer.name, mailLang(changed.locale)) }));
  return { message: "Your password was changed. Your other devices were signed out." };
}

/**
 * DELETE /api/user: deletes the viewer's own account (password required). Sessions, memberships, submissions
 * and the rest go with it (ON DELETE CASCADE), so every device is signed out at once.
 */
export async function deleteAccount(
  ctx: ServiceContext,
  viewer: Viewer,
  input: DeleteAccountInput,
  client: ClientInfo,
): Promise<{ message: string; setCookies: string[] }> {
  const stored = await passwordOf(ctx, viewer);
  const { ok } = await checkPassword(ctx, viewer.email, stored, input.password);
  if (!ok) {
    const message = stored ? "The password is incorrect." : "Your account has no password yet: use \"Forgot password\" to set one first.";
    throw new AppError(400, "invalid_credentials", message, { password: message });
  }
  const rooms = await groupRoomsOf(ctx, viewer);
  await deleteWhere(ctx, eq(users.id, viewer.userId), RUNS_GROUPS_SELF);
  closeSocketsOf(ctx, viewer.userId, rooms, "Your account was deleted.", CLOSE.sessionEnded);
  return { message: "Your account was deleted.", setCookies: signedOutCookies(client) };
}

/**
 * Deletes the user `target` names, unless they are the last admin or run a group (asked by the DELETE itself): a
 * group whose instructor was deleted would be left with nobody to teach it, as a demotion would leave it (changeRole).
 */
async function deleteWhere(ctx: ServiceContext, target: SQL | undefined, runsGroups: string): Promise<void> {
  const deleted = await ctx.db.delete(users).where(and(target, keepsAnAdmin, runsNoGroup)).returning({ id: users.id });
  if (deleted.length > 0) return;
  const [exists] = await ctx.db.select({ id: users.id }).from(users).where(target).limit(1);
  if (!exists) throw notFound("No such user.");
  const [runs] = await ctx.db.select({ id: groups.id }).from(groups).where(eq(groups.instructorId, exists.id)).limit(1);
  if (runs) throw new AppError(409, "runs_groups", runsGroups);
  throw new AppError(409, "last_admin", LAST_ADMIN);
}

function requireAdmin(actor: Viewer): void {
  if (!can(actor, "site.admin")) throw forbidden();
}

const byIdOrSlug = (idOrSlug: string) => or(eq(users.id, idOrSlug), eq(users.slug, idOrSlug));

/** GET /api/users (admins): search by name or e-mail, filter by role, newest first, paged. */
export async function listUsers(
  ctx: ServiceContext,
  actor: Viewer,
  query: ListUsersQuery,
): Promise<{ users: UserDto[]; total: number; page: number; pageSize: number; counts: Record<Role, number> }> {
  requireAdmin(actor);
  const term = query.search;
  const matches = term ? matchesAny(term, users.name, users.email) : undefined;
  // Two statements whatever the filter: the page, and the search's matches counted per role (the filter's total is
  // one of them, the unfiltered total their sum), so the role filters can show their counts at no extra cost.
  const [rows, perRole] = await ctx.db.batch([
    ctx.db
      .select(userColumns)
      .from(users)
      .where(and(query.role ? eq(users.role, query.role) : undefined, matches))
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ role: users.role, n: count() }).from(users).where(matches).groupBy(users.role),
  ]);
  const counts: Record<Role, number> = { admin: 0, instructor: 0, user: 0 };
  for (const r of perRole) counts[r.role] = r.n;
  const total = query.role ? counts[query.role] : counts.admin + counts.instructor + counts.user;
  return { users: rows.map(toDto), total, page: query.page, pageSize: query.pageSize, counts };
}

/**
 * PUT /api/users/{id}/role (admins). Takes effect on the user's very next request (roles are read from the
 * database, never trusted from the token) and closes their open sockets, whose tickets named the old role.
 * The last admin cannot be demoted.
 */
export async function changeRole(ctx: ServiceContext, actor: Viewer, idOrSlug: string, input: ChangeRoleInput): Promise<UserDto> {
  requireAdmin(actor);
  const target = byIdOrSlug(idOrSlug);
  const [before] = await ctx.db.select({ userId: users.id, role: users.role }).from(users).where(target).limit(1);
  if (!before) throw notFound("No such user.");
  const rooms = before.role === input.role ? [] : await groupRoomsOf(ctx, before);
  // Both guards run inside the UPDATE: a group given to them meanwhile, or the last other admin leaving, wins.
  const [updated] = await ctx.db
    .update(users)
    .set({ role: input.role })
    .where(and(eq(users.id, before.userId), input.role === "admin" ? undefined : keepsAnAdmin, input.role === "instructor" ? undefined : runsNoGroup))
    .returning(userColumns);
  if (!updated) {
    // Which guard refused: a demoted instructor would stay the listed teacher of groups nobody of theirs runs.
    const [runs] = input.role === "instructor" ? [] : await ctx.db.select({ id: groups.id }).from(groups).where(eq(groups.instructorId, before.userId)).limit(1);
    if (runs) throw new AppError(409, "runs_groups", RUNS_GROUPS);
    throw new AppError(409, "last_admin", LAST_ADMIN);
  }
  if (before.role !== input.role) closeSocketsOf(ctx, before.userId, rooms, "Your role changed.", CLOSE.accessChanged);
  return toDto(updated);
}

/** DELETE /api/users (admins): deletes a user and everything of theirs. The last admin cannot be deleted. */
export async function deleteUser(ctx: ServiceContext, actor: Viewer, idOrSlug: string): Promise<{ message: string }> {
  requireAdmin(actor);
  const [user] = await ctx.db.select({ userId: users.id, role: users.role }).from(users).where(byIdOrSlug(idOrSlug)).limit(1);
  if (!user) throw notFound("No such user.");
  const rooms = await groupRoomsOf(ctx, user);
  await deleteWhere(ctx, eq(users.id, user.userId), RUNS_GROUPS_DELETE);
  closeSocketsOf(ctx, user.userId, rooms, "The account was deleted.", CLOSE.sessionEnded);
  return { message: "The user was deleted." };
}

/** The language a signed-in person chose (the language switch): their e-mails and certificates are written in it. */
export async function setLocale(ctx: ServiceContext, userId: string, locale: "en" | "ar"): Promise<void> {
  await ctx.db.update(users).set({ locale }).where(and(eq(users.id, userId), or(isNull(users.locale), ne(users.locale, locale))));
}
