import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import staticHeadersFile from "../../public/_headers?raw";
import { pageNonce, SECURITY_HEADERS } from "../../worker/http/security-headers";
import { call, createUser, signIn } from "./factories";

/** The headers every response must carry, whatever produced it. */
function expectSecurityHeaders(res: Response) {
  const csp = res.headers.get("content-security-policy");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("object-src 'none'");
  const maxAge = Number(/max-age=(\d+)/.exec(res.headers.get("strict-transport-security") ?? "")?.[1]);
  expect(maxAge).toBeGreaterThanOrEqual(31_536_000);
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  expect(res.headers.get("x-frame-options")).toBe("DENY");
}

/** The `/*` block of public/_headers as a map of header name to value. */
function staticHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  let inAll = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || line.trim() === "") continue;
    if (!/^\s/.test(line)) {
      inAll = line.trim() === "/*";
      continue;
    }
    if (!inAll) continue;
    const i = line.indexOf(":");
    out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return out;
}

describe("security headers", () => {
  it("are on an API response", async () => {
    const res = await SELF.fetch("http://localhost/api/health");
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self';");
  });

  it("are on an API 404", async () => {
    const res = await SELF.fetch("http://localhost/api/no-such-route");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: expect.any(String), code: "not_found" });
    expectSecurityHeaders(res);
  });

  it("are on an HTML page rendered per request, with a per-request script nonce that the page's scripts carry", async () => {
    // (The public pages served from the edge cache trust their scripts by hash instead: edge-cache.test.ts.)
    const first = await SELF.fetch("http://localhost/auth/login");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^text\/html/);
    expectSecurityHeaders(first);
    const nonce = /script-src 'self' 'nonce-([A-Za-z0-9_-]+)'/.exec(first.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeDefined();
    expect(nonce!.length).toBeGreaterThanOrEqual(16);

    const html = await first.text();
    const scriptNonces = [...html.matchAll(/<script\b[^>]*\bnonce="([^"]*)"/g)].map((m) => m[1]);
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
    const inlineScripts = [...html.matchAll(/<script\b([^>]*)>/g)].filter((m) => !/\bsrc=/.test(m[1]!));
    for (const m of inlineScripts) expect(m[1]).toContain(`nonce="${nonce}"`);

    const second = await SELF.fetch("http://localhost/auth/login");
    await second.text();
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
  });

  it("give every page its own nonce of 128 random bits, never one twice, however many pages an isolate renders", () => {
    // Drawn from a buffer filled many nonces at a time: 1,000 take it through several fills.
    const nonces = Array.from({ length: 1_000 }, () => pageNonce());
    expect(new Set(nonces).size).toBe(1_000);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // Not a counter in disguise: the bits vary everywhere (each of the first 21 characters takes many of its 64 values;
    // the 22nd holds the last 2 bits).
    for (let i = 0; i < 21; i++) expect(new Set(nonces.map((n) => n[i])).size).toBeGreaterThan(40);
    expect(new Set(nonces.map((n) => n[21])).size).toBe(4);
  });

  it("are on a page rendered for someone signed in, which no cache may keep", async () => {
    const { cookie } = await signIn(await createUser());
    for (let visit = 0; visit < 2; visit++) {
      const res = await call("/my-courses", { cookie });
      expect(res.status).toBe(200);
      expectSecurityHeaders(res);
      expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9_-]{22}' 'strict-dynamic'/);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      await res.text();
    }
    // And so is the page's data, what a navigation inside the app reads instead of the HTML.
    const data = await call("/my-courses.data", { cookie });
    expect(data.status).toBe(200);
    expect(data.headers.get("cache-control")).toBe("private, no-store");
    await data.text();
  });

  it("are on a Remix 404 page", async () => {
    const res = await SELF.fetch("http://localhost/no-such-page-anywhere");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expectSecurityHeaders(res);
    expect(await res.text()).toContain("<html");
  });

  it("frame exactly the site's own (sandboxed) hand-in files, Google sign-in and the lecture videos' privacy-enhanced players, nothing else (issues 20, 21)", async () => {
    const FRAMES = ["'self'", "https://accounts.google.com", "https://www.youtube-nocookie.com", "https://player.vimeo.com"];
    const frameSrc = (csp: string | null) => {
      const directives = (csp ?? "").split(";").map((d) => d.trim().split(/\s+/));
      // No child-src either (it would decide for frames where frame-src is missing).
      expect(directives.filter((d) => d[0] === "child-src")).toEqual([]);
      const found = directives.filter((d) => d[0] === "frame-src");
      expect(found).toHaveLength(1);
      return found[0]!.slice(1);
    };
    const page = await SELF.fetch("http://localhost/");
    await page.text();
    const api = await SELF.fetch("http://localhost/api/health");
    for (const csp of [page.headers.get("content-security-policy"), api.headers.get("content-security-policy"), staticHeaders(staticHeadersFile)["Content-Security-Policy"]!]) {
      expect(frameSrc(csp)).toEqual(FRAMES);
    }
  });

  it("match public/_headers, which static files get without running the Worker", () => {
    expect(staticHeaders(staticHeadersFile)).toEqual(SECURITY_HEADERS);
  });
});
