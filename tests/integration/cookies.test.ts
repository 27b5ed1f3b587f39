/**
 * Reading cookies (worker/auth/cookies.ts): a request's cookie header is parsed once however many places ask, and
 * what each asks for is what the header says: the first of two cookies of one name, an empty one as none, the refresh
 * token only under the name of the request's origin and only when it looks like a token.
 */
import { describe, expect, it } from "vitest";
import { readCookie, refreshTokenFrom, REFRESH_COOKIE, REFRESH_COOKIE_INSECURE } from "../../worker/auth/cookies";

const TOKEN = "abcdefghijklmnopqrstuvwxyz_-0123456789";
const withCookie = (url: string, cookie: string) => new Request(url, { headers: { cookie } });

describe("cookies", () => {
  it("reads each cookie of the header, the first of a repeated name, an empty one as none", () => {
    const request = withCookie("https://cohort.example/", " lang=ar ; empty= ; dup=first; dup=second; noequals; spaced = x=y ");
    for (let round = 0; round < 2; round++) {
      expect(readCookie(request, "lang")).toBe("ar");
      expect(readCookie(request, "dup")).toBe("first");
      expect(readCookie(request, "empty")).toBeNull();
      expect(readCookie(request, "noequals")).toBeNull();
      expect(readCookie(request, "spaced")).toBe("x=y");
      expect(readCookie(request, "missing")).toBeNull();
    }
    expect(readCookie(new Request("https://cohort.example/"), "lang")).toBeNull();
  });

  it("answers each request from its own header", () => {
    expect(readCookie(withCookie("https://cohort.example/", "lang=en"), "lang")).toBe("en");
    expect(readCookie(withCookie("https://cohort.example/", "lang=ar"), "lang")).toBe("ar");
  });

  it("finds the refresh token under the name the origin uses, only when it looks like a token", () => {
    expect(refreshTokenFrom(withCookie("https://cohort.example/", `${REFRESH_COOKIE}=${TOKEN}`))).toBe(TOKEN);
    // Plain-http localhost cannot keep a __Host- cookie: there the other name is read, and only it.
    expect(refreshTokenFrom(withCookie("http://localhost:8787/", `${REFRESH_COOKIE_INSECURE}=${TOKEN}`))).toBe(TOKEN);
    expect(refreshTokenFrom(withCookie("http://localhost:8787/", `${REFRESH_COOKIE}=${TOKEN}`))).toBeNull();
    expect(refreshTokenFrom(withCookie("https://cohort.example/", `${REFRESH_COOKIE_INSECURE}=${TOKEN}`))).toBeNull();
    const odd = withCookie("https://cohort.example/", `${REFRESH_COOKIE}=not a token!`);
    expect(refreshTokenFrom(odd)).toBeNull();
    expect(refreshTokenFrom(odd)).toBeNull();
    expect(refreshTokenFrom(withCookie("https://cohort.example/", `${REFRESH_COOKIE}=short`))).toBeNull();
  });
});
