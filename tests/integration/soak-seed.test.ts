/** The development-only soak seeding behind bench/soak.mjs: a group of approved students who can really sign in. */
import { describe, expect, it } from "vitest";
import { api } from "../../worker/api";
import { call, login } from "./factories";
import { callHandler, productionEnv } from "./helpers";

type Soak = { group: { _id: string; slug: string }; password: string; emails: string[] };

describe("POST /api/dev/seed with { soak }", () => {
  it("creates a group with N approved students who sign in through the real login and may join its room", async () => {
    const res = await call("/api/dev/seed", { body: { soak: { users: 3 } } });
    expect(res.status).toBe(200);
    const { soak } = (await res.json()) as { soak: Soak };
    expect(soak.emails).toHaveLength(3);
    expect(new Set(soak.emails).size).toBe(3);

    const signedIn = await login({ email: soak.emails[2]!, password: soak.password });
    expect(signedIn.status).toBe(200);
    const { accessToken } = (await signedIn.json()) as { accessToken: string };
    const ticket = await call("/api/realtime/ticket", { body: { party: "group-room", room: soak.group._id }, token: accessToken });
    expect(ticket.status).toBe(200);
    expect((await login({ email: soak.emails[0]!, password: "not-the-password" })).status).toBe(401);
  });

  it("refuses a size out of bounds", async () => {
    expect((await call("/api/dev/seed", { body: { soak: { users: 0 } } })).status).toBe(400);
    expect((await call("/api/dev/seed", { body: { soak: { users: 100_000 } } })).status).toBe(400);
  });

  it("answers 404 outside development", async () => {
    const req = new Request("http://localhost/api/dev/seed", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ soak: { users: 2 } }) });
    expect((await callHandler(api, req, productionEnv())).status).toBe(404);
  });
});
