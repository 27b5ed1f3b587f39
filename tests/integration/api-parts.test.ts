/**
 * The API is loaded a part at a time (worker/api/index.ts, docs/decisions/0025-lean-cold-start.md): a request to
 * /api/<segment>/... is answered by an app built from the sub-apps whose routes sit under that segment. These tests
 * hold that each part answers exactly as the whole API does: it has every route and middleware of its segment, in
 * the whole API's order, and the same requests get the same answers from both.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, apiFor, fullApi } from "../../worker/api";
import { callHandler } from "./helpers";

type Route = { method: string; path: string };
const key = (r: Route) => `${r.method} ${r.path}`;
const segmentOf = (path: string) => path.split("/")[2] ?? "";

describe("the API in parts", () => {
  it("gives each segment every route of the whole API under it (middleware included), in the same order", async () => {
    const whole = (await fullApi()).routes as Route[];
    const segments = [...new Set(whole.map((r) => segmentOf(r.path)))].filter((s) => s !== "*" && s !== "openapi.json" && s !== "docs");
    expect(segments.length).toBeGreaterThan(20);
    for (const segment of segments) {
      const part = ((await apiFor(`/api/${segment}/x`)).routes as Route[]).map(key);
      const wholeKeys = whole.map(key);
      // Every route of the part is the whole API's, in the whole API's order (a subsequence of it).
      let at = 0;
      for (const k of part) {
        at = wholeKeys.indexOf(k, at);
        expect(at, `${segment}: ${k} out of order or not in the whole API`).toBeGreaterThanOrEqual(0);
        at++;
      }
      // Every route of the whole API that could answer a path of this segment is in the part.
      const needed = whole.filter((r) => r.path === "/api/*" || segmentOf(r.path) === segment).map(key);
      expect(needed.filter((k) => !part.includes(k)), `${segment}: routes missing from its part`).toEqual([]);
    }
  });

  it("answers every request as the whole API does", async () => {
    const whole = await fullApi();
    const json = (body: unknown, method = "POST") => ({ method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });
    const requests: [string, RequestInit?][] = [
      ["/api/health"],
      ["/api/%68ealth"],
      ["/api/health/"],
      ["/api/nope"],
      ["/api"],
      ["/api/groups"],
      ["/api/groups/%20"],
      ["/api/groups/no-such-group"],
      ["/api/groups/x/progress"],
      ["/api/users/groups/x/progress"],
      ["/api/users/login", json({})],
      ["/api/users/login", { method: "POST", body: "x".repeat(70 * 1024), headers: { "content-type": "application/json" } }],
      ["/api/contact", json({ name: "", email: "x", message: "" })],
      ["/api/contact", { method: "POST", body: "not json", headers: { "content-type": "application/json" } }],
      ["/api/quizzes/x"],
      ["/api/lectures/x/submit-task/y/file", { method: "POST", body: "x".repeat(70 * 1024) }],
      ["/api/certificates/x"],
      ["/api/groups", { method: "HEAD" }],
    ];
    for (const [path, init] of requests) {
      const [a, b] = [await callHandler(api, new Request(`http://localhost${path}`, init), env), await callHandler(whole, new Request(`http://localhost${path}`, init), env)];
      const answer = async (r: Response) => ({ status: r.status, type: r.headers.get("content-type"), retry: r.headers.get("retry-after"), body: await r.text() });
      expect(await answer(a), path).toEqual(await answer(b));
    }
  });
});
