/**
 * Reads near the visitor (issue 23, worker/http/d1-session.ts): each request runs in one D1 session, writes start on
 * the primary, and a visitor carries the bookmark of what they wrote to their next requests, so they always read
 * their own writes whichever replica answers.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../worker/env";
import { BOOKMARK_COOKIE, openSession } from "../../worker/http/d1-session";
import { call, createUser, signIn } from "./factories";
import { unique } from "./helpers";

function bookmarkSet(res: Response): string | null {
  for (const c of res.headers.getSetCookie()) {
    const m = new RegExp(`^${BOOKMARK_COOKIE}=([^;]*)`).exec(c);
    if (m) return m[1]!;
  }
  return null;
}

/** A stand-in D1 binding that records how each session was opened and answers with a chosen bookmark. */
function recordingDb(next: string | null) {
  const opened: string[] = [];
  const DB = {
    withSession(constraint: string) {
      opened.push(constraint);
      return { getBookmark: () => next, prepare: () => ({}), batch: async () => [] };
    },
  };
  return { bindings: { ...env, DB } as unknown as Bindings, opened };
}

const request = (method: string, cookie?: string) => new Request("http://localhost/api/x", { method, headers: cookie ? { cookie } : {} });

describe("D1 sessions", () => {
  it("open reads anywhere, writes on the primary, and a visitor's bookmark wherever it is", () => {
    const cases: [Request, string][] = [
      [request("GET"), "first-unconstrained"],
      [request("POST"), "first-primary"],
      [request("PUT"), "first-primary"],
      [request("DELETE"), "first-primary"],
      [request("GET", `${BOOKMARK_COOKIE}=0000002a-00000001-4f2c`), "0000002a-00000001-4f2c"],
      [request("POST", `lang=ar; ${BOOKMARK_COOKIE}=0000002a-00000001-4f2c`), "0000002a-00000001-4f2c"],
      // Not a bookmark: ignored, never passed to D1.
      [request("GET", `${BOOKMARK_COOKIE}=<script>`), "first-unconstrained"],
    ];
    for (const [req, constraint] of cases) {
      const { bindings, opened } = recordingDb(null);
      openSession(req, bindings);
      expect(opened, `${req.method} ${req.headers.get("cookie")}`).toEqual([constraint]);
    }
  });

  it("hand the bookmark back after a write and to signed-in readers, only forwards, and never to anonymous readers", () => {
    const answer = (req: Request, bookmark: string | null, status = 200) => {
      const { bindings } = recordingDb(bookmark);
      return bookmarkSet(openSession(req, bindings).finish(new Response("ok", { status })));
    };
    expect(answer(request("POST"), "00000005-00000001-aa")).toBe("00000005-00000001-aa");
    expect(answer(request("GET", "cohort_refresh=abc"), "00000005-00000001-aa")).toBe("00000005-00000001-aa");
    expect(answer(request("GET"), "00000005-00000001-aa")).toBeNull();
    // A reader who carries a bookmark keeps the newer one.
    expect(answer(request("GET", `${BOOKMARK_COOKIE}=00000004-00000001-aa`), "00000005-00000001-aa")).toBe("00000005-00000001-aa");
    expect(answer(request("GET", `${BOOKMARK_COOKIE}=00000006-00000001-aa`), "00000005-00000001-aa")).toBeNull();
    expect(answer(request("POST", `${BOOKMARK_COOKIE}=00000005-00000001-aa`), "00000005-00000001-aa")).toBeNull();
    // A refused request sets nothing: a wrong password answers exactly as an unknown address does.
    expect(answer(request("POST"), "00000005-00000001-aa", 401)).toBeNull();
    expect(answer(request("POST"), "00000005-00000001-aa", 429)).toBeNull();
  });

  it("let a visitor read their own write on their next request, through the real Worker", async () => {
    const me = await signIn(await createUser());
    const name = `Renamed ${unique("n")}`;
    const put = await call("/api/users", { method: "PUT", token: `Bearer ${me.accessToken}`, body: { name } });
    expect(put.status).toBe(200);
    const bookmark = bookmarkSet(put);
    expect(bookmark).toMatch(/^[A-Za-z0-9._:-]+$/);
    const cookie = put.headers.getSetCookie().find((c) => c.startsWith(`${BOOKMARK_COOKIE}=`))!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");

    const read = await call("/api/users/profile", { token: `Bearer ${me.accessToken}`, cookie: `${BOOKMARK_COOKIE}=${bookmark}` });
    expect(read.status).toBe(200);
    expect(JSON.stringify(await read.json())).toContain(name);
    // Reading moved nothing: no newer bookmark to hand back.
    const next = bookmarkSet(read);
    if (next !== null) expect(next >= bookmark!).toBe(true);

    // A bookmark that is not one is ignored rather than failing the request.
    const odd = await call("/api/users/profile", { token: `Bearer ${me.accessToken}`, cookie: `${BOOKMARK_COOKIE}=%3Cscript%3E` });
    expect(odd.status).toBe(200);
  });

  it("set no bookmark on an anonymous read", async () => {
    const res = await call("/courses?x=1");
    await res.text();
    expect(res.status).toBe(200);
    expect(bookmarkSet(res)).toBeNull();
  });
});
