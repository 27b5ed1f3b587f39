/** The helpers Remix loaders and actions use to know the user (worker/auth/viewer.ts). */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { getViewer, requireRole, requireViewer, safeRedirectPath } from "../../worker/auth/viewer";
import { call, COOKIE, createUser, signIn } from "./factories";
import { db, serviceContext } from "./helpers";

const page = (path: string, cookie?: string) => new Request(`http://localhost${path}`, { headers: cookie ? { cookie: `theme=dark; ${cookie}; lang=ar` } : {} });
const svc = () => serviceContext().ctx;

async function thrown(p: Promise<unknown>): Promise<Response> {
  try {
    await p;
  } catch (e) {
    if (e instanceof Response) return e;
    throw e;
  }
  throw new Error("expected a thrown Response");
}

describe("getViewer", () => {
  it("reads the session from the refresh cookie, with the role from the database", async () => {
    const me = await signIn(await createUser({ role: "instructor", name: "Hoda Instructor" }));
    expect(await getViewer(svc(), page("/instructor", me.cookie))).toEqual({
      userId: me.user.id,
      role: "instructor",
      sessionId: me.sessionId,
      name: "Hoda Instructor",
      email: me.user.email,
    });
    await db().update(s.users).set({ role: "admin" }).where(eq(s.users.id, me.user.id));
    expect((await getViewer(svc(), page("/", me.cookie)))?.role).toBe("admin");
  });

  it("does not rotate the token (parallel loaders must not race)", async () => {
    const me = await signIn(await createUser());
    await getViewer(svc(), page("/", me.cookie));
    await getViewer(svc(), page("/", me.cookie));
    expect((await call("/api/users/refresh-token", { method: "POST", cookie: me.cookie })).status).toBe(200);
  });

  it("still knows the person for a page request sent with the token a refresh has just replaced", async () => {
    const me = await signIn(await createUser());
    expect((await call("/api/users/refresh-token", { method: "POST", cookie: me.cookie })).status).toBe(200);
    // A loader or action that left the browser while the refresh was in flight carries the old cookie.
    expect((await getViewer(svc(), page("/dashboard", me.cookie)))?.userId).toBe(me.user.id);
    // Not for long, and not once the session has ended.
    await db().update(s.sessionRotations).set({ rotatedAt: new Date(Date.now() - 30_000 - 1) }).where(eq(s.sessionRotations.sessionId, me.sessionId));
    expect(await getViewer(svc(), page("/dashboard", me.cookie))).toBeNull();
    const other = await signIn(await createUser());
    expect((await call("/api/users/refresh-token", { method: "POST", cookie: other.cookie })).status).toBe(200);
    await db().update(s.sessions).set({ revokedAt: new Date() }).where(eq(s.sessions.id, other.sessionId));
    expect(await getViewer(svc(), page("/dashboard", other.cookie))).toBeNull();
  });

  it("is null without a cookie, for an unknown token, a revoked or expired session", async () => {
    expect(await getViewer(svc(), page("/"))).toBeNull();
    expect(await getViewer(svc(), page("/", `${COOKIE}=${"a".repeat(43)}`))).toBeNull();
    const revoked = await signIn(await createUser());
    await db().update(s.sessions).set({ revokedAt: new Date() }).where(eq(s.sessions.id, revoked.sessionId));
    expect(await getViewer(svc(), page("/", revoked.cookie))).toBeNull();
    const expired = await signIn(await createUser());
    await db().update(s.sessions).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(s.sessions.id, expired.sessionId));
    expect(await getViewer(svc(), page("/", expired.cookie))).toBeNull();
  });

  it("reads the __Host- cookie on https, and ignores the plain one there", async () => {
    const me = await signIn(await createUser());
    const https = (cookie: string) => new Request("https://cohort.example/profile", { headers: { cookie } });
    expect((await getViewer(svc(), https(`__Host-cohort_refresh=${me.refreshToken}`)))?.userId).toBe(me.user.id);
    expect(await getViewer(svc(), https(me.cookie))).toBeNull();
  });
});

describe("requireViewer", () => {
  it("returns the viewer when signed in", async () => {
    const me = await signIn(await createUser());
    expect((await requireViewer(svc(), page("/profile", me.cookie))).userId).toBe(me.user.id);
  });

  it("redirects to the login page with the way back", async () => {
    const res = await thrown(requireViewer(svc(), page("/course/react?tab=tasks")));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/auth/login?redirectTo=${encodeURIComponent("/course/react?tab=tasks")}`);
  });
});

describe("requireRole", () => {
  it("returns the viewer for an allowed role", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    expect((await requireRole(svc(), page("/dashboard", admin.cookie), "admin")).role).toBe("admin");
    expect((await requireRole(svc(), page("/instructor", admin.cookie), ["admin", "instructor"])).role).toBe("admin");
  });

  it("answers 403 for another role and redirects when signed out", async () => {
    const student = await signIn(await createUser());
    const res = await thrown(requireRole(svc(), page("/dashboard", student.cookie), "admin"));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "You are not allowed to see this page.", code: "forbidden" });
    expect((await thrown(requireRole(svc(), page("/dashboard"), "admin"))).status).toBe(302);
  });
});

describe("safeRedirectPath", () => {
  it.each([
    ["/my-courses", "/my-courses"],
    ["/course/x?tab=1#top", "/course/x?tab=1#top"],
    ["//evil.example", "/"],
    ["/\\evil.example", "/"],
    ["https://evil.example", "/"],
    ["javascript:alert(1)", "/"],
    [null, "/"],
    ["", "/"],
  ])("%j -> %j", (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });
});
