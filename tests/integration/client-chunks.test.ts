/**
 * The browser's code comes in a few shell chunks (vite.config.ts, `shellChunks`; ADR 49): what a page loads is the
 * same as before, in fewer files. Each `modulepreload` link is a request for the browser and an element the server
 * renders into every page: the landing page had 22 of them, and a member's course home 32.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createUser, signIn } from "./factories";

/** The script files a page asks the browser to preload, by file name (without the hash). */
async function preloads(path: string, cookie?: string): Promise<string[]> {
  const res = await SELF.fetch(`http://localhost${path}`, { headers: cookie ? { cookie } : {} });
  expect(res.status, path).toBe(200);
  const html = await res.text();
  return [...html.matchAll(/<link rel="modulepreload" href="\/assets\/([^"]+)-[\w-]{8}\.js"/g)].map((m) => m[1]!);
}

describe("the browser's code", () => {
  it("reaches the landing page in at most 12 files (it was 22), the root's modules in one", async () => {
    const files = await preloads("/");
    expect(files).toContain("shell");
    expect(files.length).toBeGreaterThan(2);
    expect(files.length).toBeLessThanOrEqual(12);
    // Each file once.
    expect(new Set(files).size).toBe(files.length);
  });

  it("gives a public page only chunks its layout needs, and a staff page none of the public site's", async () => {
    const publicShells = (await preloads("/courses")).filter((f) => f.startsWith("shell-"));
    expect(publicShells.length).toBeGreaterThan(0);
    for (const chunk of publicShells) expect(chunk.split("-"), chunk).toContain("public");

    const instructor = await signIn(await createUser({ role: "instructor" }));
    const staffShells = (await preloads("/instructor", instructor.cookie)).filter((f) => f.startsWith("shell-"));
    expect(staffShells.length).toBeGreaterThan(0);
    for (const chunk of staffShells) expect(chunk.split("-"), chunk).toContain("instructor");
  });
});
