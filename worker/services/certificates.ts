/**
 * Graduation (issue 22, ADR 0023): a group's completion rule (Overall and attendance thresholds of the one progress
 * definition, app/lib/progress.ts), certificates issued to every member who meets it or to members chosen by hand,
 * revoked with a reason, and each certificate's public view and signed statement: an Open Badges 3.0 credential
 * (a W3C Verifiable Credential) secured as a JWT with the site's RS256 key, checkable against the issuer's public key.
 */
import { and, count, desc, eq, gt, inArray, isNotNull, isNull, lte, max, min, or, sql } from "drizzle-orm";
import { calculateJwkThumbprint, importJWK, SignJWT, type JWK } from "jose";
import { can } from "../../app/lib/permissions";
import { canonicalCertificateCode, type CompletionRuleInput, type IssueCertificatesInput, type RevokeCertificateInput } from "../../app/lib/lifecycle-schemas";
import { ar } from "../../app/i18n/ar";
import { en } from "../../app/i18n/en";
import { format } from "../../app/i18n/translate";
import { certificates, groups, lectures, users } from "../../db/schema";
import type { ServiceContext } from "../context";
import { AppError, forbidden, notFound } from "../http/errors";
import { groupForUser, requireManagedGroup } from "./group-access";
import { base64url, newId } from "./ids";
import { escapeHtml, sendMails } from "./mail";
import { notifyUsers } from "./notifications";
import { chunked } from "./chunks";
import { computeProgress } from "./progress";
import type { Viewer } from "./sessions";
import { zonedDay } from "./time-shift";

export type Language = "en" | "ar";

export interface CompletionRule {
  overall: number | null;
  attendance: number | null;
}

export interface CertificateSummary {
  _id: string;
  code: string;
  issuedAt: string;
  language: Language;
  revokedAt: string | null;
  revokedReason: string | null;
}

/** A certificate of someone no longer in the group (left, removed): staff still see it and may revoke it. */
export interface FormerHolder {
  /** The holder's user id. */
  _id: string;
  /** Their name as the certificate states it. */
  name: string;
  certificate: CertificateSummary;
}

export interface RosterRow {
  _id: string;
  name: string;
  slug: string;
  overall: number | null;
  attendance: number | null;
  meetsRule: boolean;
  certificate: CertificateSummary | null;
}

/** Whether a member's numbers meet the rule: each threshold set must be reached by a figure that exists. */
export function meetsRule(rule: CompletionRule, figures: { overall: number | null; attendance: number | null }): boolean {
  if (rule.overall === null && rule.attendance === null) return false;
  const ok = (threshold: number | null, value: number | null) => threshold === null || (value !== null && value >= threshold);
  return ok(rule.overall, figures.overall) && ok(rule.attendance, figures.attendance);
}

/* ------------------------------------------------------------------------------------------------------------- */
/* Codes                                                                                                          */

/** 32 letters and digits without look-alikes (no I, O, 0, 1): 5 bits each, so 16 of them are 80 random bits. */
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export function newCertificateCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const chars = [...bytes].map((b) => ALPHABET[b % 32]!).join("");
  return chars.match(/.{4}/g)!.join("-");
}

const toSummary = (r: Pick<typeof certificates.$inferSelect, "id" | "code" | "issuedAt" | "language" | "revokedAt" | "revokedReason">): CertificateSummary => ({
  _id: r.id,
  code: r.code,
  issuedAt: r.issuedAt.toISOString(),
  language: r.language,
  revokedAt: r.revokedAt ? r.revokedAt.toISOString() : null,
  revokedReason: r.revokedReason,
});

/* ------------------------------------------------------------------------------------------------------------- */
/* Staff                                                                                                          */

/** PUT /api/groups/{id}/completion-rule (staff). */
export async function setCompletionRule(ctx: ServiceContext, viewer: Viewer, groupKey: string, input: CompletionRuleInput): Promise<CompletionRule> {
  const group = await requireManagedGroup(ctx, viewer, groupKey);
  await ctx.db.update(groups).set({ completionOverall: input.overall, completionAttendance: input.attendance }).where(eq(groups.id, group.id));
  return { overall: input.overall, attendance: input.attendance };
}

/**
 * GET /api/groups/{id}/certificates (staff): the rule, and every current member with their Overall and attendance
 * (the one progress definition), whether they meet the rule and their certificate; then the certificates of people
 * no longer in the group (`former`). A constant number of statements.
 */
export async function certificateRoster(
  ctx: ServiceContext,
  viewer: Viewer,
  groupKey: string,
  now = Date.now(),
): Promise<{ rule: CompletionRule; opensOn: string | null; stillToCome: StillToCome | null; members: RosterRow[]; former: FormerHolder[] }> {
  const { rule, days, ahead, members, former } = await rosterOf(ctx, await requireManagedGroup(ctx, viewer, groupKey), now);
  // Certificates wait for the course's first day: the screen says from when, instead of refusing each click. Once it
  // has started, lectures still to come are named: a certificate issued now says the course ended at the last held.
  const opensOn = started(days) ? null : days.startsOn;
  return { rule, opensOn, stillToCome: opensOn === null && ahead.lectures > 0 ? { ...ahead, endsOn: days.endsOn } : null, members, former };
}

/**
 * Published lectures dated after now, the day of the last of them, and the day a certificate issued now gives as the
 * course's last (YYYY-MM-DD in the group's zone).
 */
export interface StillToCome {
  lectures: number;
  lastOn: string;
  endsOn: string;
}

/** The roster with the course's days (what the certificates issued now would say). */
async function rosterOf(ctx: ServiceContext, group: { id: string }, now: number) {
  const [[ruleRow], span, progress, issued] = await Promise.all([
    ctx.db
      .select({ overall: groups.completionOverall, attendance: groups.completionAttendance, timeZone: groups.timeZone, startDate: groups.startDate })
      .from(groups)
      .where(eq(groups.id, group.id)),
    courseSpan(ctx, group.id, now),
    computeProgress(ctx, { groups: ctx.db.select({ id: groups.id }).from(groups).where(eq(groups.id, group.id)), one: { groupId: group.id } }, now),
    ctx.db.select().from(certificates).where(eq(certificates.groupId, group.id)),
  ]);
  const days = courseDays(span, ruleRow!.timeZone, ruleRow!.startDate, now);
  const ahead = { lectures: span.ahead, lastOn: span.planned ? zonedDay(new Date(span.planned).getTime(), ruleRow!.timeZone) : "" };
  const rule: CompletionRule = { overall: ruleRow?.overall ?? null, attendance: ruleRow?.attendance ?? null };
  const byUser = new Map(issued.map((c) => [c.userId, c]));
  const members = progress.members
    .map((m) => {
      const figures = { overall: m.progress.overall, attendance: m.progress.lectures.rate };
      const cert = byUser.get(m._id);
      return { _id: m._id, name: m.name, slug: m.slug, ...figures, meetsRule: meetsRule(rule, figures), certificate: cert ? toSummary(cert) : null };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a._id.localeCompare(b._id));
  // A certificate outlives its holder's membership (a student who left, or was removed): it stays listed, so staff can
  // still find and revoke it.
  const memberIds = new Set(members.map((m) => m._id));
  const former = issued
    .filter((c) => !memberIds.has(c.userId))
    .map((c) => ({ _id: c.userId, name: c.recipientName, certificate: toSummary(c) }))
    .sort((a, b) => a.name.localeCompare(b.name) || a._id.localeCompare(b._id));
  return { rule, days, ahead, members, former };
}

function certificateMail(lang: Language, name: string, course: string, url: string) {
  const dict = lang === "ar" ? ar : en;
  const body = format(dict, "mail.certificate.body", { name, course });
  const open = format(dict, "mail.certificate.open");
  return {
    subject: format(dict, "mail.certificate.subject", { course }),
    text: `${body}\n\n${url}`,
    html: `<div dir="${lang === "ar" ? "rtl" : "ltr"}" lang="${lang}"><p>${escapeHtml(body)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(open)}</a></p></div>`,
  };
}

/**
 * When the course's first published lecture starts, its last one held by now, and how many are still to come with the
 * last of them (three statements, one D1 call).
 */
async function courseSpan(ctx: ServiceContext, groupId: string, now: number) {
  const published = and(eq(lectures.groupId, groupId), eq(lectures.published, true));
  const [[first], [last], [later]] = await ctx.db.batch([
    ctx.db.select({ at: min(lectures.startsAt) }).from(lectures).where(and(published, isNotNull(lectures.startsAt))),
    ctx.db.select({ at: max(lectures.startsAt) }).from(lectures).where(and(published, lte(lectures.startsAt, new Date(now)))),
    ctx.db.select({ count: count(), at: max(lectures.startsAt) }).from(lectures).where(and(published, gt(lectures.startsAt, new Date(now)))),
  ]);
  return { first: first?.at ?? null, last: last?.at ?? null, ahead: later?.count ?? 0, planned: later?.at ?? null };
}

/**
 * The course's first and last day (YYYY-MM-DD in the group's zone): its first published lecture's (else the group's
 * start date) and its last one held by now (else today). A course whose first day is still to come has not started:
 * a signed credential must never say a course ended before it began, so issuing waits for its first day (409).
 */
function courseDays(span: { first: Date | null; last: Date | null }, timeZone: string, startDate: string | null, now: number) {
  const day = (at: Date | null) => (at ? zonedDay(new Date(at).getTime(), timeZone) : null);
  return { startsOn: day(span.first) ?? startDate?.slice(0, 10) ?? null, endsOn: day(span.last) ?? zonedDay(now, timeZone) };
}

const started = (days: { startsOn: string | null; endsOn: string }) => days.startsOn === null || days.startsOn <= days.endsOn;

/**
 * POST /api/groups/{id}/certificates (staff): to the members named (by hand, rule or not), or else to every member
 * who meets the rule. Members who hold one are skipped; a revoked one is issued again under the same address when its
 * member is named, and left revoked by the rule.
 * Each new graduate is told in the bell and by e-mail in their language.
 */
export async function issueCertificates(ctx: ServiceContext, viewer: Viewer, groupKey: string, input: IssueCertificatesInput, now = Date.now()) {
  const group = await requireManagedGroup(ctx, viewer, groupKey);
  const roster = await rosterOf(ctx, group, now);
  const { days } = roster;
  if (!started(days)) throw new AppError(409, "course_not_started", `This course starts on ${days.startsOn}: certificates can be issued from that day.`);
  let chosen: RosterRow[];
  if (input.userIds) {
    const byId = new Map(roster.members.map((m) => [m._id, m]));
    const strangers = input.userIds.filter((id) => !byId.has(id));
    if (strangers.length > 0) throw new AppError(400, "validation_failed", "Certificates go to the group's current members only.", { userIds: "Certificates go to the group's current members only." });
    chosen = [...new Set(input.userIds)].map((id) => byId.get(id)!);
  } else {
    if (roster.rule.overall === null && roster.rule.attendance === null) {
      throw new AppError(400, "no_completion_rule", "Set the group's completion rule first, or choose the members by hand.");
    }
    chosen = roster.members.filter((m) => m.meetsRule);
  }
  // Named by hand, a member whose certificate was revoked gets it again (the staff chose that person). By the rule, a
  // revoked certificate stays revoked: it was taken back on purpose, with a reason, and "everyone who meets the rule"
  // must not quietly undo that.
  const targets = chosen.filter((m) => !m.certificate || (input.userIds !== undefined && m.certificate.revokedAt));
  if (targets.length === 0) return { issued: 0, certificates: [] as CertificateSummary[] };

  const [[info], people] = await Promise.all([
    ctx.db
      .select({ title: groups.title, slug: groups.slug, instructor: users.name })
      .from(groups)
      .leftJoin(users, eq(users.id, groups.instructorId))
      .where(eq(groups.id, group.id)),
    chunked(targets.map((t) => t._id), (ids) => ctx.db.select({ id: users.id, name: users.name, email: users.email, locale: users.locale }).from(users).where(inArray(users.id, ids))),
  ]);
  const person = new Map(people.map((p) => [p.id, p]));
  const issuedAt = new Date(now);
  const rows = targets.map((t) => {
    const p = person.get(t._id)!;
    return {
      id: t.certificate?._id ?? newId(),
      code: t.certificate?.code ?? newCertificateCode(),
      groupId: group.id,
      userId: t._id,
      recipientName: p.name,
      courseTitle: info!.title,
      instructorName: info!.instructor ?? null,
      startsOn: days.startsOn,
      endsOn: days.endsOn,
      language: (p.locale === "ar" ? "ar" : "en") as Language,
      issuedAt,
      issuedBy: viewer.userId,
      revokedAt: null,
      revokedReason: null,
      revokedBy: null,
    };
  });
  // One statement per certificate at most 100 values each: slices of 6 rows (15 columns), all in one batch. Each
  // returns the rows it wrote: a new certificate, or a revoked one issued again. A holder's certificate, or one a
  // concurrent run issued a moment earlier (its WHERE no longer holds), is not returned, so it is not told again:
  // which rows this run wrote is said by the write itself, not by the issue time (two runs may share a millisecond).
  const statements = [];
  for (let i = 0; i < rows.length; i += 6) {
    statements.push(
      ctx.db
        .insert(certificates)
        .values(rows.slice(i, i + 6))
        .onConflictDoUpdate({
          target: [certificates.groupId, certificates.userId],
          // Only a revoked certificate is issued again; a holder's stays as it is.
          setWhere: isNotNull(certificates.revokedAt),
          set: { issuedAt, issuedBy: viewer.userId, revokedAt: null, revokedReason: null, revokedBy: null, recipientName: sqlExcluded("recipient_name"), courseTitle: sqlExcluded("course_title"), instructorName: sqlExcluded("instructor_name"), startsOn: sqlExcluded("starts_on"), endsOn: sqlExcluded("ends_on") },
        })
        .returning(),
    );
  }
  const saved = (await ctx.db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]])).flat();
  const origin = ctx.settings.publicOrigin;
  for (const c of saved) {
    await notifyUsers(ctx, [c.userId], { kind: "certificate-issued", params: { course: c.courseTitle }, link: `/certificates/${c.code}` });
  }
  ctx.waitUntil(
    sendMails(
      ctx,
      saved.map((c) => ({ to: person.get(c.userId)!.email, ...certificateMail(c.language, c.recipientName, c.courseTitle, `${origin}/certificates/${c.code}`) })),
    ),
  );
  return { issued: saved.length, certificates: saved.map(toSummary) };
}

/** The value an upsert tried to insert (SQLite's `excluded` row). */
const sqlExcluded = (column: string) => sql.raw(`excluded.${column}`);

async function findCertificate(ctx: ServiceContext, id: string) {
  const [row] = await ctx.db
    .select({ c: certificates, instructorId: groups.instructorId })
    .from(certificates)
    .leftJoin(groups, eq(groups.id, certificates.groupId))
    .where(or(eq(certificates.id, id), eq(certificates.code, id)))
    .limit(1);
  if (!row) throw notFound("No such certificate.");
  return row;
}

/** POST /api/certificates/{id}/revoke (the group's staff): the page and the signed statement say so from now on. */
export async function revokeCertificate(ctx: ServiceContext, viewer: Viewer, id: string, input: RevokeCertificateInput): Promise<CertificateSummary> {
  const row = await findCertificate(ctx, id);
  if (!can(viewer, "group.manage", { group: { instructorId: row.instructorId } })) throw forbidden("Only the group's instructor or an admin can revoke a certificate.");
  if (row.c.revokedAt) throw new AppError(409, "conflict", "This certificate is already revoked.");
  const [updated] = await ctx.db
    .update(certificates)
    .set({ revokedAt: new Date(), revokedReason: input.reason, revokedBy: viewer.userId })
    .where(and(eq(certificates.id, row.c.id), isNull(certificates.revokedAt)))
    .returning();
  if (!updated) throw new AppError(409, "conflict", "This certificate is already revoked.");
  await notifyUsers(ctx, [updated.userId], { kind: "certificate-revoked", params: { course: updated.courseTitle }, link: `/certificates/${updated.code}` });
  return toSummary(updated);
}

/** PUT /api/certificates/{id}/language (the graduate): the language their certificate is written in. */
export async function setCertificateLanguage(ctx: ServiceContext, viewer: Viewer, id: string, language: Language): Promise<CertificateSummary> {
  const row = await findCertificate(ctx, id);
  if (row.c.userId !== viewer.userId) throw forbidden("Only the graduate chooses their certificate's language.");
  // A revoked certificate is no longer written out in any language (one revoked meanwhile is caught by the write).
  const revoked = () => new AppError(409, "conflict", "This certificate was revoked: its language can no longer be changed.");
  if (row.c.revokedAt) throw revoked();
  const [updated] = await ctx.db.update(certificates).set({ language }).where(and(eq(certificates.id, row.c.id), isNull(certificates.revokedAt))).returning();
  if (!updated) throw revoked();
  return toSummary(updated);
}

/** The viewer's own certificates, newest first (course home, My Courses). */
export async function myCertificates(ctx: ServiceContext, viewer: Pick<Viewer, "userId">) {
  const rows = await ctx.db.select().from(certificates).where(eq(certificates.userId, viewer.userId)).orderBy(desc(certificates.issuedAt));
  return rows.map((r) => ({ ...toSummary(r), groupId: r.groupId, courseTitle: r.courseTitle }));
}

/* ------------------------------------------------------------------------------------------------------------- */
/* Public                                                                                                         */

export interface PublicCertificate {
  code: string;
  url: string;
  recipientName: string;
  courseTitle: string;
  instructorName: string | null;
  startsOn: string | null;
  endsOn: string | null;
  issuedAt: string;
  language: Language;
  revoked: { at: string; reason: string } | null;
}

/** A certificate as anyone with its address reads it (no account needed); 404 for an unknown code. */
export async function publicCertificate(ctx: ServiceContext, code: string): Promise<PublicCertificate> {
  const normal = canonicalCertificateCode(code);
  // A string that cannot be a code is no certificate either: the same 404, without a read.
  if (!normal) throw notFound("No such certificate.");
  const [c] = await ctx.db.select().from(certificates).where(eq(certificates.code, normal)).limit(1);
  if (!c) throw notFound("No such certificate.");
  return {
    code: c.code,
    url: `${ctx.settings.publicOrigin}/certificates/${c.code}`,
    recipientName: c.recipientName,
    courseTitle: c.courseTitle,
    instructorName: c.instructorName,
    startsOn: c.startsOn,
    endsOn: c.endsOn,
    issuedAt: c.issuedAt.toISOString(),
    language: c.language,
    revoked: c.revokedAt ? { at: c.revokedAt.toISOString(), reason: c.revokedReason ?? "" } : null,
  };
}

const keys = new Map<string, Promise<{ privateKey: CryptoKey; publicJwk: JWK; kid: string }>>();

/** The signing key (imported once per isolate) with its public half and its RFC 7638 thumbprint as `kid`. */
function signingKey(ctx: ServiceContext) {
  const jwk = ctx.settings.certificateKey;
  let key = keys.get(jwk.n!);
  if (!key) {
    key = (async () => {
      const publicJwk: JWK = { kty: "RSA", n: jwk.n, e: jwk.e };
      const kid = await calculateJwkThumbprint(publicJwk);
      const privateKey = (await importJWK({ ...jwk, alg: "RS256" } as JWK, "RS256")) as CryptoKey;
      return { privateKey, publicJwk: { ...publicJwk, kid, alg: "RS256", use: "sig" }, kid };
    })();
    keys.set(jwk.n!, key);
  }
  return key;
}

/** The issuer's id: the address of its profile. */
const issuerId = (origin: string) => `${origin}/api/certificates/issuer`;

/**
 * A credential secured as a JWT (RS256, `kid` = the key's thumbprint, published at /api/certificates/jwks), the
 * credential itself in `vc` and its claims, dated `validFrom`.
 */
async function signCredential(ctx: ServiceContext, credential: { id: string; validFrom: string }, issuer: string): Promise<string> {
  const { privateKey, kid } = await signingKey(ctx);
  const at = Math.floor(Date.parse(credential.validFrom) / 1000);
  return new SignJWT({ ...credential, vc: credential }).setProtectedHeader({ alg: "RS256", typ: "JWT", kid }).setIssuer(issuer).setJti(credential.id).setNotBefore(at).setIssuedAt(at).sign(privateKey);
}

/** The issuer's Open Badges profile, with the public key that checks its credentials. */
export async function issuerProfile(ctx: ServiceContext) {
  const origin = ctx.settings.publicOrigin;
  const { publicJwk } = await signingKey(ctx);
  return {
    "@context": ["https://www.w3.org/ns/credentials/v2", "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"],
    id: issuerId(origin),
    type: ["Profile"],
    name: "Cohort",
    url: origin,
    publicKey: publicJwk,
  };
}

/** GET /api/certificates/jwks: the key set employers' tools check the signatures with. */
export async function issuerKeys(ctx: ServiceContext) {
  const { publicJwk } = await signingKey(ctx);
  return { keys: [publicJwk] };
}

/**
 * The signed statement of a certificate: an OpenBadgeCredential (Open Badges 3.0, a W3C Verifiable Credential) and
 * the same credential secured as a JWT (RS256, `kid` = the key's thumbprint, published at /api/certificates/jwks).
 */
export async function signedCertificate(ctx: ServiceContext, code: string) {
  const cert = await publicCertificate(ctx, code);
  const origin = ctx.settings.publicOrigin;
  const issuer = { id: issuerId(origin), type: ["Profile"], name: "Cohort", url: origin };
  const credential = {
    "@context": ["https://www.w3.org/ns/credentials/v2", "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"],
    id: cert.url,
    type: ["VerifiableCredential", "OpenBadgeCredential"],
    issuer,
    validFrom: cert.issuedAt,
    name: `${cert.courseTitle}: certificate of completion`,
    credentialSubject: {
      type: ["AchievementSubject"],
      identifier: [{ type: "IdentityObject", identityType: "name", hashed: false, identityHash: cert.recipientName }],
      achievement: {
        id: `${cert.url}#achievement`,
        type: ["Achievement"],
        achievementType: "Certificate",
        name: cert.courseTitle,
        description: `Completed the course ${cert.courseTitle}${cert.instructorName ? `, taught by ${cert.instructorName}` : ""}${cert.startsOn ? `, from ${cert.startsOn} to ${cert.endsOn}` : ""}.`,
        criteria: { narrative: "Met the course's completion rule (overall progress and attendance), as judged by its instructor." },
      },
    },
    // W3C Bitstring Status List: each certificate has a list of its own (its address is public already), bit 0.
    credentialStatus: {
      id: `${statusListUrl(origin, cert.code)}#0`,
      type: "BitstringStatusListEntry",
      statusPurpose: "revocation",
      statusListIndex: "0",
      statusListCredential: statusListUrl(origin, cert.code),
    },
  };
  const { kid } = await signingKey(ctx);
  const verification = { jwks: `${origin}/api/certificates/jwks`, kid, alg: "RS256" as const };
  // A revoked certificate is not signed again: the statement says it was revoked, and carries no credential to check.
  if (cert.revoked) return { certificate: cert, credential, jwt: null, verification };
  return { certificate: cert, credential, jwt: await signCredential(ctx, credential, issuer.id), verification };
}

const statusListUrl = (origin: string, code: string) => `${origin}/api/certificates/${code}/status`;

/** The smallest list the Bitstring Status List recommends (16 KB), so every list looks alike to whoever reads it. */
export const STATUS_LIST_BITS = 131_072;

/** A bitstring of STATUS_LIST_BITS with bit 0 (the left-most of the first byte) set or not, GZIP-compressed and Multibase base64url ("u"). */
async function encodedList(revoked: boolean): Promise<string> {
  const bits = new Uint8Array(STATUS_LIST_BITS / 8);
  if (revoked) bits[0] = 0x80;
  const gzipped = await new Response(new Blob([bits]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
  return `u${base64url(new Uint8Array(gzipped))}`;
}

/**
 * GET /api/certificates/{code}/status: the certificate's revocation status as a W3C Bitstring Status List credential
 * (its bit 0 set once revoked), also secured as a JWT with the certificates' key, so a verifier holding a credential
 * signed before its revocation learns of it.
 */
export async function certificateStatusList(ctx: ServiceContext, code: string) {
  const cert = await publicCertificate(ctx, code);
  const origin = ctx.settings.publicOrigin;
  const id = statusListUrl(origin, cert.code);
  const issuer = issuerId(origin);
  const validFrom = cert.revoked ? cert.revoked.at : cert.issuedAt;
  const credential = {
    "@context": ["https://www.w3.org/ns/credentials/v2"],
    id,
    type: ["VerifiableCredential", "BitstringStatusListCredential"],
    issuer,
    validFrom,
    credentialSubject: { id: `${id}#list`, type: "BitstringStatusList", statusPurpose: "revocation", encodedList: await encodedList(cert.revoked !== null) },
  };
  return { credential, jwt: await signCredential(ctx, credential, issuer) };
}

/** A member's certificate in one group (the course home's card), or null. */
export async function certificateInGroup(ctx: ServiceContext, groupId: string, userId: string) {
  // It comes with the group row every member page reads first (group-access.ts): no statement of its own.
  const row = (await groupForUser(ctx, userId, groupId))?.certificate;
  return row ? { ...toSummary(row), courseTitle: row.courseTitle } : null;
}
