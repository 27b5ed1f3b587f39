/**
 * Public pages from the edge cache (issue 23, worker/http/page-cache.ts): what is stored, for whom, under which
 * policy, and that a change to what they show is seen at once (made through the Worker) or within a second (made
 * anywhere else).
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { anonymousRequest, buildOf, cacheable, forgetContentVersion, servePublic } from "../../worker/http/page-cache";
import { renderShared } from "../../worker/pages";
import { addCourseContent, addMember, call, createGroup, createUser, signIn } from "./factories";
import { aSecondLater, db, insertFeedback, unique } from "./helpers";

const ORIGIN = "http://localhost";

function get(path: string, headers: Record<string, string> = {}) {
  return SELF.fetch(`${ORIGIN}${path}`, { headers, redirect: "manual" });
}

/** Reads the whole answer and what the cache said about it. */
async function fetchPage(path: string, headers: Record<string, string> = {}) {
  const res = await get(path, headers);
  return { res, status: res.status, state: res.headers.get("x-cohort-cache"), body: await res.text() };
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest));
}

/** A published group with one outline part, and its public paths. */
async function publicCourse(title = `Cached ${unique("c")}`) {
  const instructor = await createUser({ role: "instructor", name: `Instructor ${unique("n")}` });
  const group = await createGroup({ title, instructorId: instructor.id });
  const part = await addCourseContent(group, 0, `Part ${unique("p")}`);
  return { group, part, instructor, details: `/content/${group.slug}`, content: `/content/${group.slug}/course/${part.id}` };
}

describe("public pages from the edge cache", () => {
  it("are rendered once per language and then served from the cache: landing, catalogue, course details and content, feedback", async () => {
    const course = await publicCourse();
    for (const path of ["/", "/courses", course.details, course.content, "/api/feedback"]) {
      const first = await fetchPage(path);
      expect(first.status, path).toBe(200);
      expect(first.state, path).toBe("miss");
      const second = await fetchPage(path);
      expect(second.state, path).toBe("hit");
      expect(second.body, path).toBe(first.body);
    }
    // The language is part of the key: Arabic is rendered once (right to left), then served from the cache too.
    const ar = await fetchPage("/courses", { cookie: "lang=ar" });
    expect(ar.state).toBe("miss");
    expect(ar.body.includes('dir="rtl"')).toBe(true);
    expect((await fetchPage("/courses", { "accept-language": "ar-EG,ar;q=0.9" })).state).toBe("hit");
    const en = await fetchPage("/courses", { cookie: "lang=en", "accept-language": "ar" });
    expect(en.state).toBe("hit");
    expect(en.body.includes('dir="ltr"')).toBe(true);
  });

  it("carry a policy that trusts exactly their inline scripts by SHA-256, with no nonce", async () => {
    for (const path of ["/courses", "/courses"]) {
      const { res, body } = await fetchPage(path);
      const policy = res.headers.get("content-security-policy") ?? "";
      expect(policy).not.toContain("nonce-");
      expect(body).not.toMatch(/\bnonce=/);
      const scriptSrc = /script-src ([^;]*)/.exec(policy)?.[1]?.split(" ") ?? [];
      expect(scriptSrc).toContain("'strict-dynamic'");
      const listed = scriptSrc.filter((src) => src.startsWith("'sha256-")).map((src) => src.slice(8, -1));
      const inline = [...body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter((m) => !/\bsrc=/.test(m[1]!)).map((m) => m[2]!);
      expect(inline.length).toBeGreaterThan(1);
      expect(new Set(listed)).toEqual(new Set(await Promise.all(inline.map(sha256))));
      // One more script (an injected one) would not match any of them.
      expect(listed).not.toContain(await sha256("alert(1)"));
    }
  });

  it("never store or show anything personal: no cookie, token, name, e-mail or CSRF value, and a signed-in render is never stored", async () => {
    const course = await publicCourse();
    const student = await createUser({ name: `Zainab ${unique("private")}` });
    const session = await signIn(student);
    // The new course moved the version: nothing is stored under it yet.
    await aSecondLater();
    for (const path of ["/courses", course.details, course.content]) {
      // Signed in: rendered for them alone, never from or into the cache.
      const own = await fetchPage(path, { cookie: session.cookie });
      expect(own.status, path).toBe(200);
      expect(own.state, path).toBeNull();
      expect(own.res.headers.get("cache-control"), path).toBe("private, no-store");
      expect(own.body.includes(student.name), path).toBe(true);
      // The next visitor gets a fresh render (nothing of the signed-in one was stored), then the cached copy.
      const visitor = await fetchPage(path);
      expect(visitor.state, path).toBe("miss");
      const cached = await fetchPage(path);
      expect(cached.state, path).toBe("hit");
      for (const answer of [visitor, cached]) {
        expect(answer.res.headers.get("set-cookie"), path).toBeNull();
        // (Booleans, not the bodies: a failure should not print a whole page.)
        for (const secret of [student.name, student.email, session.refreshToken, session.accessToken, session.sessionId]) {
          expect(answer.body.includes(secret), `${path} carries ${secret}`).toBe(false);
        }
        expect(/csrf/i.test(answer.body), `${path} carries a CSRF value`).toBe(false);
        expect(answer.body.includes('href="/auth/login"'), `${path} offers to log in`).toBe(true);
      }
    }
    // An API client with a token is never answered from the cache either.
    const withToken = await get("/api/feedback", { authorization: `Bearer ${session.accessToken}` });
    expect(withToken.headers.get("x-cohort-cache")).toBeNull();
  });

  it("take a session cookie for a session however it is spelled: rendered for its owner alone, never into the shared copy", async () => {
    const course = await publicCourse();
    const student = await createUser({ name: `Odd ${unique("spelling")}` });
    const session = await signIn(student);
    await aSecondLater();
    // Spellings the session itself reads (cookie names and values are trimmed): each is someone signed in.
    const [name, token] = session.cookie.split("=") as [string, string];
    const spellings = [`${name} =${token}`, `theme=dark; ${name} = ${token}`, `theme=dark;${name}=${token}`];
    for (const cookie of spellings) {
      for (const path of ["/courses", course.details]) {
        const own = await fetchPage(path, { cookie });
        expect(own.state, `${cookie} on ${path}`).toBeNull();
        expect(own.body.includes(student.name), `${cookie} on ${path}: rendered for them`).toBe(true);
        const visitor = await fetchPage(path);
        for (const secret of [student.name, student.email, session.refreshToken]) {
          expect(visitor.body.includes(secret), `${path} after ${cookie} carries ${secret}`).toBe(false);
        }
      }
    }
  });

  it("are rendered from the request without its sender's cookies or credentials, keeping only the language", () => {
    const request = new Request(`${ORIGIN}/courses`, {
      headers: { cookie: "cohort_refresh =abc; cohort_who=def; lang=ar", authorization: "Bearer xyz", "accept-language": "ar-EG" },
    });
    const page = anonymousRequest(request, { kind: "page", lang: "ar" });
    expect(page.url).toBe(`${ORIGIN}/courses`);
    expect(page.method).toBe("GET");
    expect(page.headers.get("cookie")).toBe("lang=ar");
    expect(page.headers.has("authorization")).toBe(false);
    expect(page.headers.get("accept-language")).toBe("ar-EG");
    // An API answer has no language of its own: no cookie at all.
    const api = anonymousRequest(new Request(`${ORIGIN}/api/feedback`, { headers: { cookie: "cohort_refresh=abc" } }), { kind: "api", lang: null });
    expect(api.headers.has("cookie")).toBe(false);
  });

  it("are never stored for a query string, another method, an error or an answer that sets a cookie", async () => {
    const course = await publicCourse();
    for (let i = 0; i < 2; i++) expect((await fetchPage(`${course.details}?utm=x`)).state).toBeNull();
    for (let i = 0; i < 2; i++) {
      const missing = await fetchPage(`/content/no-such-course-${unique("x")}`);
      expect(missing.status).toBe(404);
      expect(missing.state).toBe("bypass");
    }
    const head = await SELF.fetch(`${ORIGIN}/courses`, { method: "HEAD" });
    expect(head.headers.get("x-cohort-cache")).toBeNull();
    // The same page spelled another way (a letter or a hyphen percent-encoded, lower-case hex) is rendered for its
    // sender, not stored as another copy.
    const slug = course.group.slug;
    for (const variant of [`/content/%${slug.charCodeAt(0).toString(16)}${slug.slice(1)}`, `/content/${slug.replace("-", "%2d")}`, `/content/${slug.replace("-", "%2D")}`]) {
      for (let i = 0; i < 2; i++) {
        const page = await fetchPage(variant);
        expect([page.status, page.state], variant).toEqual([200, null]);
        expect(page.body).toContain(course.group.title);
      }
    }
    // Written plainly, it is stored.
    expect((await fetchPage(course.details)).state).toBe("miss");
    expect((await fetchPage(course.details)).state).toBe("hit");
  });

  it("show a change made elsewhere within a second, whatever made it: the group, its outline, its instructor's name, feedback", async () => {
    const course = await publicCourse();
    const warm = async (path: string) => {
      await fetchPage(path);
      expect((await fetchPage(path)).state).toBe("hit");
    };

    await warm("/courses");
    const renamed = `Renamed ${unique("t")}`;
    await db().update(s.groups).set({ title: renamed }).where(eq(s.groups.id, course.group.id));
    await aSecondLater();
    const afterTitle = await fetchPage("/courses");
    expect(afterTitle.state).toBe("miss");
    expect(afterTitle.body.includes(renamed)).toBe(true);

    await warm(course.details);
    const added = await addCourseContent(course.group, 1, `New part ${unique("p")}`);
    await aSecondLater();
    expect((await fetchPage(course.details)).body.includes(added.title)).toBe(true);

    await warm(course.content);
    await db().update(s.courseContents).set({ body: "A **changed** body" }).where(eq(s.courseContents.id, course.part.id));
    await aSecondLater();
    expect((await fetchPage(course.content)).body.includes("<strong>changed</strong>")).toBe(true);

    await warm(course.details);
    const newName = `Renamed Instructor ${unique("n")}`;
    await db().update(s.users).set({ name: newName }).where(eq(s.users.id, course.instructor.id));
    await aSecondLater();
    expect((await fetchPage(course.details)).body.includes(newName)).toBe(true);

    await warm("/api/feedback");
    const fb = await insertFeedback({ groupSlug: course.group.slug });
    await aSecondLater();
    expect((await fetchPage("/api/feedback")).body.includes(fb.userFeedback)).toBe(true);
    await db().update(s.feedback).set({ hidden: true }).where(eq(s.feedback.id, fb.id));
    await aSecondLater();
    expect((await fetchPage("/api/feedback")).body.includes(fb.userFeedback)).toBe(false);
  });

  it("show a change made through the Worker at once: renaming and unpublishing a course", async () => {
    const course = await publicCourse();
    const admin = await signIn(await createUser({ role: "admin" }));
    const put = (body: Record<string, unknown>) =>
      call(`/api/groups/${course.group.id}`, { method: "PUT", token: `Bearer ${admin.accessToken}`, body });
    for (const path of ["/courses", course.details]) {
      await fetchPage(path);
      expect((await fetchPage(path)).state).toBe("hit");
    }
    const renamed = `Renamed ${unique("t")}`;
    expect((await put({ title: renamed })).status).toBe(200);
    // No waiting: the isolate that made the change reads the new version for its next public page.
    const catalogue = await fetchPage("/courses");
    expect(catalogue.state).toBe("miss");
    expect(catalogue.body.includes(renamed)).toBe(true);
    expect((await fetchPage(course.details)).body.includes(renamed)).toBe(true);

    expect((await put({ status: "draft" })).status).toBe(200);
    expect((await fetchPage(course.details)).status).toBe(404);
    expect((await fetchPage("/courses")).body.includes(renamed)).toBe(false);
  });

  it("never store a page a failed read left short: the catalogue's empty state is answered, not kept for everyone", async () => {
    const { group } = await publicCourse();
    const url = new URL(`${ORIGIN}/courses`);
    const request = new Request(url, { headers: { accept: "text/html" } });
    const page = cacheable(request, url)!;
    // The catalogue's read of the groups fails (as a D1 hiccup would); every other statement runs.
    const failing = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "prepare") return (query: string) => target.prepare(/from "groups"/.test(query) ? "select * from no_such_table" : query);
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    // Its own build name: nothing another test stored answers it.
    const build = unique("build");
    const serve = async (db: D1Database) => {
      const ctx = createExecutionContext();
      const res = await servePublic(request, url, page, {
        db: env.DB,
        build,
        waitUntil: (p) => ctx.waitUntil(p),
        render: (nonce) => renderShared(anonymousRequest(request, page), { ...env, DB: db }, ctx, nonce),
        secure: (r) => r,
      });
      const body = await res.text();
      await waitOnExecutionContext(ctx);
      return { state: res.headers.get("x-cohort-cache"), body, marked: res.headers.has("x-cohort-not-for-sharing") };
    };
    const short = await serve(failing);
    expect(short.state).toBe("bypass");
    expect(short.body).toContain("No Courses Available");
    expect(short.marked).toBe(false);
    // The next visitor gets a fresh render with the courses, which is stored.
    const whole = await serve(env.DB);
    expect(whole.state).toBe("miss");
    expect(whole.body).toContain(group.title);
    expect((await serve(env.DB)).state).toBe("hit");
  });

  it("a change elsewhere (a membership, a message) does not empty the cache", async () => {
    const course = await publicCourse();
    await fetchPage("/courses");
    const student = await createUser();
    await addMember(student, course.group);
    expect((await fetchPage("/courses")).state).toBe("hit");
  });

  it("trust only the scripts the renderer marked with a nonce of that render: a script that got in otherwise matches no hash", async () => {
    const url = new URL(`${ORIGIN}/courses`);
    const request = new Request(url);
    const page = cacheable(request, url)!;
    const nonces: string[] = [];
    const serve = async () => {
      const ctx = createExecutionContext();
      let policy = "";
      const res = await servePublic(request, url, page, {
        db: env.DB,
        build: unique("build"),
        waitUntil: (p) => ctx.waitUntil(p),
        render: async (nonce) => {
          nonces.push(nonce);
          const html = `<!DOCTYPE html><html><head><script nonce="${nonce}">window.ours = 1</script></head><body><p>x</p><script>alert(1)</script><script nonce="${nonce}" src="/app.js"></script></body></html>`;
          return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
        },
        secure: (r, p) => ((policy = p ?? ""), r),
      });
      const body = await res.text();
      await waitOnExecutionContext(ctx);
      return { body, policy };
    };
    const first = await serve();
    expect(first.policy).toContain(`'sha256-${await sha256("window.ours = 1")}'`);
    expect(first.policy).not.toContain(`'sha256-${await sha256("alert(1)")}'`);
    expect(first.body).not.toMatch(/\bnonce=/);
    expect(first.body).toContain('<script src="/app.js"></script>');
    await serve();
    // A nonce for each render, not one a page could be written to carry.
    expect(nonces[0]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(nonces[1]).not.toBe(nonces[0]);
  });

  it("store a page rendered on a miss under the version its own reads saw, not one remembered from a replica ahead of them", async () => {
    const epoch = unique("epoch");
    /** The database as a replica at `version` answers the content version (every other statement as it is). */
    const replicaAt = (version: number) =>
      new Proxy(env.DB, {
        get(target, prop) {
          if (prop === "prepare") return (query: string) => (/from content_version/.test(query) ? { first: async () => ({ version, epoch }) } : target.prepare(query));
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    const build = unique("build");
    const serve = async (path: string, db: D1Database) => {
      const url = new URL(`${ORIGIN}${path}`);
      const request = new Request(url);
      const ctx = createExecutionContext();
      const res = await servePublic(request, url, cacheable(request, url)!, {
        db,
        build,
        waitUntil: (p) => ctx.waitUntil(p),
        render: async () => new Response(`<!DOCTYPE html><p>${path}</p>`, { headers: { "content-type": "text/html; charset=utf-8" } }),
        secure: (r) => r,
      });
      await res.text();
      await waitOnExecutionContext(ctx);
      return { state: res.headers.get("x-cohort-cache"), etag: res.headers.get("etag") ?? "" };
    };
    forgetContentVersion();
    // One visitor's request reads version 9 from an up-to-date replica; the isolate remembers it for a second.
    expect((await serve("/courses", replicaAt(9))).etag).toContain(`-${epoch}.9-`);
    // The next one, within that second, is a miss whose session reads from a replica still at version 8: what it
    // renders is version 8's, and it is stored under 8 (stored under 9, version 8's page would stay until the next change).
    const lagging = await serve("/", replicaAt(8));
    expect(lagging.state).toBe("miss");
    expect(lagging.etag).toContain(`-${epoch}.8-`);
    // A hit within the second still answers from the remembered version (ADR 29's bound), without a read.
    expect(await serve("/courses", replicaAt(8))).toEqual({ state: "hit", etag: expect.stringContaining(`-${epoch}.9-`) });
  });

  it("are keyed by the deployed version of the Worker: another deploy renders afresh and answers another ETag", async () => {
    const deployed = (env as { CF_VERSION_METADATA?: { id: string } }).CF_VERSION_METADATA;
    expect(deployed?.id).toMatch(/^[0-9a-f-]{36}$/);
    const url = new URL(`${ORIGIN}/api/feedback`);
    const request = new Request(url);
    const serve = async (build: string) => {
      const ctx = createExecutionContext();
      const res = await servePublic(request, url, cacheable(request, url)!, {
        db: env.DB,
        build,
        waitUntil: (p) => ctx.waitUntil(p),
        render: async () => new Response("[]", { headers: { "content-type": "application/json" } }),
        secure: (r) => r,
      });
      await res.text();
      await waitOnExecutionContext(ctx);
      return { state: res.headers.get("x-cohort-cache"), etag: res.headers.get("etag") };
    };
    forgetContentVersion();
    // The Worker keys the public API by the deployed version too (its answer's ETag is the one that build gives).
    const viaWorker = await get("/api/feedback");
    await viaWorker.text();
    expect((await serve(buildOf(deployed, "api"))).etag).toBe(viaWorker.headers.get("etag"));
    const next = await serve(buildOf({ id: crypto.randomUUID() }, "api"));
    expect(next.state).toBe("miss");
    expect(next.etag).not.toBe(viaWorker.headers.get("etag"));
  });

  it("never give a content version twice, even after the database was put back to an earlier copy", async () => {
    const course = await publicCourse();
    const read = async () => (await db().select().from(s.contentVersion).where(eq(s.contentVersion.id, 1)))[0]!.version;
    const before = await read();
    // Two changes in a row (the same millisecond, perhaps) move it twice.
    await db().update(s.groups).set({ description: unique("a") }).where(eq(s.groups.id, course.group.id));
    const once = await read();
    await db().update(s.groups).set({ description: unique("b") }).where(eq(s.groups.id, course.group.id));
    const twice = await read();
    expect(once).toBeGreaterThan(before);
    expect(twice).toBeGreaterThan(once);
    // A restore to a copy from before both changes, then one more change: the number it gets is new.
    await db().update(s.contentVersion).set({ version: before }).where(eq(s.contentVersion.id, 1));
    await db().update(s.groups).set({ description: unique("c") }).where(eq(s.groups.id, course.group.id));
    expect(await read()).toBeGreaterThan(twice);
  });

  it("answer a browser that holds the current copy with 304, and a changed page with a new ETag", async () => {
    const course = await publicCourse();
    const first = await get(course.details);
    await first.text();
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    const same = await get(course.details, { "if-none-match": etag });
    expect(same.status).toBe(304);
    await db().update(s.groups).set({ description: `Changed ${unique("d")}` }).where(eq(s.groups.id, course.group.id));
    await aSecondLater();
    const changed = await get(course.details, { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    await changed.text();
  });
});
