/**
 * Test data for the account, session and permission tests. Rows are inserted directly with drizzle (fast);
 * sessions are opened by the real session service (`signIn`) or the real login endpoint (`login`), so tokens and
 * cookies are exactly what production issues. Every value is unique, so tests never collide or depend on order.
 */
import { env, SELF } from "cloudflare:test";
import { expect } from "vitest";
import * as s from "../../db/schema";
import { hashPassword } from "../../worker/auth/password";
import { getSettings } from "../../worker/env";
import { newId } from "../../worker/services/ids";
import { openSession, type Viewer } from "../../worker/services/sessions";
import { db, eventually, randomIp, serviceContext, unique } from "./helpers";

export const ORIGIN = "http://localhost";
/** The refresh cookie's name on http://localhost (no `__Host-` prefix without Secure). */
export const COOKIE = "cohort_refresh";
export const DEFAULT_PASSWORD = "correct-horse-battery";

// PBKDF2 at 100k iterations costs ~20 ms; one hash per distinct password is enough for test users.
const hashes = new Map<string, Promise<string>>();
export function passwordHash(password: string): Promise<string> {
  let h = hashes.get(password);
  if (!h) {
    h = hashPassword(password, getSettings(env).passwordPepper);
    hashes.set(password, h);
  }
  return h;
}

export interface TestUser {
  id: string;
  slug: string;
  name: string;
  email: string;
  role: s.Role;
  password: string;
}

export async function createUser(
  opts: { role?: s.Role; verified?: boolean; password?: string | null; name?: string; email?: string; googleSub?: string; createdAt?: Date } = {},
): Promise<TestUser> {
  const slug = unique("u");
  const password = opts.password === undefined ? DEFAULT_PASSWORD : opts.password;
  const user = {
    id: newId(),
    slug,
    name: opts.name ?? `Test ${slug}`,
    email: (opts.email ?? `${slug}@test.example`).toLowerCase(),
    role: opts.role ?? "user",
  };
  await db()
    .insert(s.users)
    .values({
      ...user,
      passwordHash: password === null ? null : await passwordHash(password),
      phoneNumber: "+201001234567",
      emailVerifiedAt: opts.verified === false ? null : new Date(),
      googleSub: opts.googleSub ?? null,
      createdAt: opts.createdAt ?? new Date(),
    });
  return { ...user, password: password ?? "" };
}

export interface SignedIn {
  user: TestUser;
  accessToken: string;
  refreshToken: string;
  sessionId: string;
  /** `Cookie` request header carrying the refresh token. */
  cookie: string;
}

function tokenFromSetCookie(setCookie: string): string {
  const match = new RegExp(`^${COOKIE}=([^;]*)`).exec(setCookie);
  if (!match?.[1]) throw new Error(`no ${COOKIE} in ${setCookie}`);
  return match[1];
}

/** The viewer hint's cookie on http://localhost (no `__Host-` prefix without Secure; worker/auth/viewer-hint.ts). */
export const HINT_COOKIE = "cohort_who";

/** The viewer hint's Set-Cookie line an answer carries, whole (attributes included), or null. */
export function hintSetBy(res: Response): string | null {
  return res.headers.getSetCookie().find((c) => c.startsWith(`${HINT_COOKIE}=`)) ?? null;
}

/** Opens a session through the real session service (no password hashing, no rate limits). */
export async function signIn(user: TestUser, userAgent = "vitest"): Promise<SignedIn> {
  const { ctx } = serviceContext();
  const opened = await openSession(ctx, user, { userAgent, secure: false });
  const refreshToken = tokenFromSetCookie(opened.setCookie);
  return { user, accessToken: opened.accessToken, refreshToken, sessionId: opened.sessionId, cookie: `${COOKIE}=${refreshToken}` };
}

/**
 * The Viewer a service sees for this person: a signed-in session's (its id), or, for tests that call services
 * directly without one, a user with a session id that names the test.
 */
export function viewerOf(who: SignedIn | Pick<TestUser, "id" | "role" | "name" | "email">, sessionId = "test"): Viewer {
  const user = "user" in who ? who.user : who;
  return { userId: user.id, role: user.role, sessionId: "sessionId" in who ? who.sessionId : sessionId, name: user.name, email: user.email };
}

export async function createGroup(opts: { instructorId?: string | null; status?: s.GroupStatus; capacity?: number | null; title?: string } = {}) {
  const slug = unique("g");
  const row = {
    id: newId(),
    slug,
    title: opts.title ?? `Group ${slug}`,
    status: opts.status ?? ("published" as const),
    startDate: "2027-01-01",
    instructorId: opts.instructorId ?? null,
    capacity: opts.capacity ?? null,
  };
  await db().insert(s.groups).values(row);
  return row;
}

export async function addMember(user: { id: string }, group: { id: string }, status: s.MembershipStatus = "approved") {
  const row = { id: newId(), userId: user.id, groupId: group.id, status };
  await db().insert(s.memberships).values(row);
  return row;
}

/** One item of a group's course outline. */
export async function addCourseContent(group: { id: string }, order = 0, title = `Part ${unique("c")}`) {
  const row = { id: newId(), groupId: group.id, title, body: `About ${title}`, order };
  await db().insert(s.courseContents).values(row);
  return row;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** A multipart/form-data body instead of JSON (uploads). */
  form?: FormData;
  /** Access token, sent raw in Authorization as the original client does. */
  token?: string;
  cookie?: string;
  /** Origin header; defaults to the site's own origin. Pass null to send none. */
  origin?: string | null;
  ip?: string;
  headers?: Record<string, string>;
}

/** One request to the real Worker. Each call gets its own random IP unless `ip` is given. */
export function call(path: string, opts: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { "cf-connecting-ip": opts.ip ?? randomIp(), ...opts.headers };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  if (opts.token) headers.authorization = opts.token;
  if (opts.cookie) headers.cookie = opts.cookie;
  const origin = opts.origin === undefined ? ORIGIN : opts.origin;
  if (origin) headers.origin = origin;
  return SELF.fetch(`${ORIGIN}${path}`, {
    method: opts.method ?? (opts.body === undefined && opts.form === undefined ? "GET" : "POST"),
    headers,
    body: opts.form ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
    redirect: "manual",
  });
}

/** POST /api/users/login with the user's password. */
export function login(user: { email: string; password: string }, opts: CallOptions = {}): Promise<Response> {
  return call("/api/users/login", { ...opts, body: { email: user.email, password: user.password } });
}

/** The refresh token a response set, or null. */
export function refreshTokenSet(res: Response): string | null {
  for (const c of res.headers.getSetCookie()) {
    const m = new RegExp(`^${COOKIE}=([^;]*)`).exec(c);
    if (m) return m[1] || null;
  }
  return null;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  createdAt: string;
}

/** The mails sent to an address (dev mailbox, newest first). */
export async function mailbox(to: string): Promise<Mail[]> {
  const res = await SELF.fetch(`${ORIGIN}/api/dev/mailbox?to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Mail[];
}

/** Waits until at least `count` mails whose subject matches have arrived (they are sent in the background); newest first. */
export async function waitForMails(to: string, subject: RegExp, count = 1): Promise<Mail[]> {
  return eventually(async () => {
    const matching = (await mailbox(to)).filter((m) => subject.test(m.subject));
    return matching.length >= count ? matching : undefined;
  }, 3_000, `${count} mail(s) "${subject}" to ${to}`);
}

/** The 6-digit code of the newest mail matching `subject`, once `count` such mails exist. */
export async function codeFromMail(to: string, subject: RegExp, count = 1): Promise<string> {
  const [mail] = await waitForMails(to, subject, count);
  const code = /\b(\d{6})\b/.exec(mail!.subject)?.[1];
  if (!code) throw new Error(`no code in "${mail!.subject}"`);
  expect(mail!.text).toContain(code);
  return code;
}

export const VERIFY_SUBJECT = /verification code/;
export const RESET_SUBJECT = /password reset code/;

export type ErrorBody = { message: string; code: string; fields?: Record<string, string> };

const MAGIC: Record<string, number[]> = {
  "image/png": [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  "image/jpeg": [0xff, 0xd8, 0xff, 0xe0],
  "image/webp": [0x52, 0x49, 0x46, 0x46, 0x00, 0x00, 0x00, 0x00, 0x57, 0x45, 0x42, 0x50],
};

/** A file of `size` bytes that starts with the magic bytes of `kind` (declared as `type`, default the same). */
export function imageFile(kind: "image/png" | "image/jpeg" | "image/webp" | "text/html", size = 256, type: string = kind, name = "cover.img"): File {
  const bytes = new Uint8Array(size);
  const head = MAGIC[kind] ?? [...new TextEncoder().encode("<!doctype html><script>alert(1)</script>")];
  bytes.set(head.slice(0, size));
  for (let i = head.length; i < size; i++) bytes[i] = i % 251;
  return new File([bytes], name, { type });
}

/** A multipart body with one `file` field. */
export function fileForm(file: File): FormData {
  const form = new FormData();
  form.append("file", file);
  return form;
}
