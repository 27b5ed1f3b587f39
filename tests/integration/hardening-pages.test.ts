/**
 * Page requests an attacker (or a broken client) sends: open redirects after login and through the language
 * switch, bodies that are not forms, foreign or missing Origins and oversized forms. All go through the real
 * Worker into the built Remix app; none may answer 5xx or send anyone to another site.
 */
import { SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { safeRedirectPath } from "../../app/lib/safe-redirect";
import { call, createUser, DEFAULT_PASSWORD, ORIGIN, signIn } from "./factories";
import { db, randomIp } from "./helpers";

/** The redirect targets of the finding: tab, CR, LF, NUL and other invisible characters, raw, encoded and double-encoded. */
const HOSTILE_TARGETS = [
  "/%09/evil.example",
  "/\t/evil.example",
  "/%0d/evil.example",
  "/%0a/evil.example",
  "/%0D%0A/evil.example",
  "/%00/evil.example",
  "/\u0000/evil.example",
  "/%2509/evil.example",
  "/%20/evil.example",
  "/%E2%80%8B/evil.example",
  "/%E2%80%AE/evil.example",
  "/%5Cevil.example",
  "/%2F/evil.example",
  "/%2f%2fevil.example",
  "//evil.example",
  "/\\evil.example",
  "https://evil.example",
  "/%",
  // Dot segments that resolve to `//evil.example`.
  "/.//evil.example",
  "/x/..//evil.example",
  "/%2e//evil.example",
  "/./\\evil.example",
];

interface PostOptions {
  origin?: string | null;
  contentType?: string | null;
  cookie?: string;
  accept?: string;
}

function postPage(path: string, body: BodyInit | null, opts: PostOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { "cf-connecting-ip": randomIp(), accept: opts.accept ?? "text/html" };
  const origin = opts.origin === undefined ? ORIGIN : opts.origin;
  if (origin) headers.origin = origin;
  const type = opts.contentType === undefined ? "application/x-www-form-urlencoded" : opts.contentType;
  if (type) headers["content-type"] = type;
  if (opts.cookie) headers.cookie = opts.cookie;
  return SELF.fetch(`${ORIGIN}${path}`, { method: "POST", headers, body, redirect: "manual" });
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe("one redirect-safety rule", () => {
  it.each(HOSTILE_TARGETS)("refuses %j", (target) => {
    expect(safeRedirectPath(target)).toBe("/");
  });

  it.each([
    ["/my-courses", "/my-courses"],
    ["/course/x?tab=1#top", "/course/x?tab=1#top"],
    ["/course/%D8%B9%D8%B1%D8%A8%D9%8A", "/course/%D8%B9%D8%B1%D8%A8%D9%8A"],
    ["/a/../profile", "/profile"],
  ])("keeps the same-site path %j", (target, expected) => {
    expect(safeRedirectPath(target)).toBe(expected);
  });
});

describe("login never redirects off the site", () => {
  it.each(HOSTILE_TARGETS)("the login form with redirectTo=%j lands on a path of this site", async (target) => {
    const user = await createUser();
    const before = await db().select({ id: s.sessions.id }).from(s.sessions).where(eq(s.sessions.userId, user.id));
    const res = await postPage("/auth/login", form({ email: user.email, password: DEFAULT_PASSWORD, redirectTo: target }));
    expect(res.status).toBe(302);
    // A student without a group goes to My Courses (issue 20), never to the target.
    expect(res.headers.get("location")).toBe("/my-courses");
    const after = await db().select({ id: s.sessions.id }).from(s.sessions).where(eq(s.sessions.userId, user.id));
    expect(after.length - before.length).toBe(1);
  });

  it.each(HOSTILE_TARGETS)("a signed-in visitor of /auth/login?redirectTo=%j stays on the site", async (target) => {
    const session = await signIn(await createUser());
    const res = await SELF.fetch(`${ORIGIN}/auth/login?redirectTo=${encodeURIComponent(target)}`, { headers: { cookie: session.cookie }, redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/my-courses");
  });

  it("keeps a plain same-site redirectTo", async () => {
    const user = await createUser();
    const res = await postPage("/auth/login", form({ email: user.email, password: DEFAULT_PASSWORD, redirectTo: "/my-courses" }));
    expect(res.headers.get("location")).toBe("/my-courses");
  });

  it.each(HOSTILE_TARGETS)("the language switch with redirectTo=%j goes home", async (target) => {
    const res = await postPage("/set-language", form({ lang: "ar", redirectTo: target }));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
  });
});

/** Every page that has an action (each answers the same gate before its action runs). */
const ACTION_PAGES = [
  "/auth/login",
  "/auth/register",
  "/auth/verif-email",
  "/auth/forget-password",
  "/auth/logout",
  "/set-language",
  "/contact",
  "/add-feedback",
  "/my-courses",
  "/profile",
  "/dashboard/admin/newGroup",
  "/dashboard/admin/email-request",
  "/dashboard/admin/get-all-message-by-admin",
  "/dashboard/admin/get-all-feedback-by-admin",
  "/instructor/email-request",
  "/instructor/setting",
];

const BAD_BODIES: [string, string | null, string, number][] = [
  ["JSON", "application/json", '{"email":"a@b.c"}', 415],
  ["text/plain", "text/plain", "email=a@b.c", 415],
  ["no content type", null, "email=a@b.c", 415],
  ["multipart without a boundary", "multipart/form-data", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--x--\r\n", 415],
  ["truncated multipart", "multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue-without-an-end", 400],
];

describe("pages asked Remix's old way (?_data=)", () => {
  it("answer 400 with a human message, not a 403 'Unexpected Server Error', signed in or not", async () => {
    const student = await signIn(await createUser());
    for (const [path, cookie] of [["/courses?_data=x", undefined], ["/my-courses?_data=routes%2Fmy-courses", student.cookie], ["/?_data=root", undefined]] as const) {
      const res = await call(path, { cookie });
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toEqual({ code: "bad_request", message: "Pages do not take a _data parameter: open the address without it." });
    }
  });
});

describe("page actions refuse what is not a form", () => {
  for (const [label, type, body, status] of BAD_BODIES) {
    it(`answers ${status} to a ${label} body on every page with an action`, async () => {
      const admin = await signIn(await createUser({ role: "admin" }));
      for (const path of ACTION_PAGES) {
        const res = await postPage(path, body, { contentType: type, cookie: admin.cookie });
        expect(res.status, `${path}`).toBe(status);
        // The page's normal error screen, in the site's layout.
        const html = await res.text();
        expect(html, path).toContain('class="error-screen"');
        expect(html, path).toContain(`>${status}<`);
      }
    });
  }

  it("answers a script's data request with the JSON error", async () => {
    const res = await postPage("/contact.data", '{"x":1}', { contentType: "application/json", accept: "*/*" });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { code: string }).code).toBe("unsupported_media_type");
  });

  it("still accepts a real form", async () => {
    const res = await postPage("/set-language", form({ lang: "ar", redirectTo: "/courses" }));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/courses");
  });
});

describe("page actions refuse foreign and missing Origins", () => {
  it.each([
    ["a foreign Origin", "https://evil.example"],
    ["the null Origin", "null"],
    ["no Origin", null],
  ])("answers 403 to %s on every page with an action, before the action runs", async (_label, origin) => {
    const session = await signIn(await createUser());
    for (const path of ACTION_PAGES) {
      const res = await postPage(path, form({ lang: "ar", redirectTo: "/" }), { origin, cookie: session.cookie });
      expect(res.status, path).toBe(403);
      expect(await res.text(), path).toContain('class="error-screen"');
    }
    // /auth/logout did not run: the session is still live.
    const [row] = await db().select({ revokedAt: s.sessions.revokedAt }).from(s.sessions).where(eq(s.sessions.id, session.sessionId));
    expect(row?.revokedAt).toBeNull();
  });

  it("a foreign-Origin language switch sets no cookie", async () => {
    const res = await postPage("/set-language", form({ lang: "ar", redirectTo: "/" }), { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});

describe("page bodies have the API's size cap", () => {
  it("refuses a form above 64 KB with 413, whatever its Content-Length says", async () => {
    const big = form({ name: "x".repeat(64 * 1024), email: "a@b.example", message: "hi" });
    const declared = await postPage("/contact", big);
    expect(declared.status).toBe(413);
    // A streamed body without a Content-Length is cut off at the limit too.
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 40; i++) c.enqueue(new TextEncoder().encode(`a${i}=${"y".repeat(4096)}&`));
        c.close();
      },
    });
    const streamed = await SELF.fetch(`${ORIGIN}/contact`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body: stream,
      redirect: "manual",
    });
    expect(streamed.status).toBe(413);
  });

  it("accepts a form just under 64 KB", async () => {
    const res = await postPage("/set-language", form({ lang: "ar", redirectTo: "/", pad: "z".repeat(60 * 1024) }));
    expect(res.status).toBe(302);
  });

  it("lets the group form carry an image larger than 64 KB, and no larger than the 2 MB image limit", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const body = new FormData();
    body.set("intent", "save");
    body.set("title", "");
    body.set("file", new File([new Uint8Array(200 * 1024)], "cover.png", { type: "image/png" }));
    const ok = await SELF.fetch(`${ORIGIN}/dashboard/admin/newGroup`, { method: "POST", headers: { origin: ORIGIN, cookie: admin.cookie }, body, redirect: "manual" });
    expect(ok.status).not.toBe(413);
    expect(ok.status).toBeLessThan(500);
    body.set("file", new File([new Uint8Array(3 * 1024 * 1024)], "cover.png", { type: "image/png" }));
    const tooBig = await SELF.fetch(`${ORIGIN}/dashboard/admin/newGroup`, { method: "POST", headers: { origin: ORIGIN, cookie: admin.cookie, accept: "text/html" }, body, redirect: "manual" });
    expect(tooBig.status).toBe(413);
  });

  it("a form sent to a page that takes none is refused in the site's words, naming no route module", async () => {
    for (const path of ["/courses", "/", "/no-such-page"]) {
      const page = await postPage(path, form({ a: "1" }));
      expect(page.status).toBe(405);
      const html = await page.text();
      expect(html).toContain("<title>That form could not be read | Cohort</title>");
      expect(html).not.toContain("did not provide an");
      expect(html).not.toContain("routes/_public.courses");
    }
    const data = await postPage("/courses.data", form({ a: "1" }), { accept: "*/*" });
    expect(data.status).toBe(405);
    expect(await data.json()).toEqual({ code: "method_not_allowed", message: "This page does not take forms." });
    // In Arabic, the screen and its title in Arabic.
    const ar = await postPage("/courses", form({ a: "1" }), { cookie: "lang=ar" });
    const arHtml = await ar.text();
    expect(arHtml).toContain("تعذّرت قراءة النموذج");
    expect(arHtml).not.toContain("That form could not be read");
  });

  it("OPTIONS on a page is answered with what it takes, not with Remix's error", async () => {
    for (const path of ["/courses", "/courses.data", "/course/x/lecture/y/Add-Task/z"]) {
      const res = await SELF.fetch(`${ORIGIN}${path}`, { method: "OPTIONS", headers: { origin: ORIGIN } });
      expect(res.status).toBe(204);
      expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
      expect(await res.text()).toBe("");
    }
  });

  it("the refusal page's title says what its screen says: too large is not unreadable", async () => {
    const res = await postPage("/contact", form({ name: "x".repeat(64 * 1024), email: "a@b.example", message: "hi" }));
    expect(res.status).toBe(413);
    const html = await res.text();
    expect(html).toContain("<title>That was too much to send | Cohort</title>");
    expect(html).toContain("<h1>That was too much to send</h1>");
  });

  it("the refusal page does not exist on its own", async () => {
    const res = await SELF.fetch(`${ORIGIN}/request-refused`);
    expect(res.status).toBe(404);
  });

  it("leaves no session behind for a refused login", async () => {
    const user = await createUser();
    const res = await postPage("/auth/login", JSON.stringify({ email: user.email, password: DEFAULT_PASSWORD }), { contentType: "application/json" });
    expect(res.status).toBe(415);
    expect(await db().select().from(s.sessions).where(and(eq(s.sessions.userId, user.id)))).toEqual([]);
  });
});

describe("CSP", () => {
  it("lets a page open websockets to its own site only", async () => {
    const res = await SELF.fetch(`${ORIGIN}/`);
    const csp = res.headers.get("content-security-policy")!;
    const connect = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("connect-src"));
    expect(connect).toBe("connect-src 'self' ws://localhost");
  });

  it("lets API answers connect nowhere but their own origin", async () => {
    const res = await SELF.fetch(`${ORIGIN}/api/health`);
    const connect = res.headers.get("content-security-policy")!.split(";").map((d) => d.trim()).find((d) => d.startsWith("connect-src"));
    expect(connect).toBe("connect-src 'self'");
  });
});
