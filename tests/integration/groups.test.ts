import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("smoke", () => {
  it("lists groups", async () => {
    const res = await SELF.fetch("http://localhost/api/groups");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });
});
