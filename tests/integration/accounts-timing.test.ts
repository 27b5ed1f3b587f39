/**
 * Timing equalization, tested structurally rather than with a clock: a login for an unknown address (or an
 * account without a password) must run the same PBKDF2 work as a real check, through `dummyVerify`.
 * Module mocks apply to the modules this file imports, not to the Worker behind SELF, so the login service is
 * called directly here (the API handler is a thin wrapper over it, covered by accounts-login.test.ts).
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createUser } from "./factories";
import { serviceContext, unique } from "./helpers";

const calls = vi.hoisted(() => ({ dummy: 0, verify: 0 }));
vi.mock("../../worker/auth/password", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../worker/auth/password")>();
  return {
    ...real,
    dummyVerify: async (...args: Parameters<typeof real.dummyVerify>) => {
      calls.dummy++;
      return real.dummyVerify(...args);
    },
    verifyPassword: async (...args: Parameters<typeof real.verifyPassword>) => {
      calls.verify++;
      return real.verifyPassword(...args);
    },
  };
});

function reset() {
  calls.dummy = 0;
  calls.verify = 0;
}

let accounts: typeof import("../../worker/services/accounts");
let errors: typeof import("../../worker/http/errors");
beforeAll(async () => {
  // The setup file imports cloudflare:test, which loads modules before the mock is registered
  // (cloudflare/workers-sdk#10201): import the service graph afresh so it sees the mock.
  vi.resetModules();
  accounts = await import("../../worker/services/accounts");
  errors = await import("../../worker/http/errors");
});

/** Logs in through the service and returns the HTTP status it maps to. */
async function login(input: { email: string; password: string }): Promise<number> {
  const { ctx } = serviceContext();
  try {
    await accounts.login(ctx, input, { userAgent: null, secure: false });
    return 200;
  } catch (e) {
    if (e instanceof errors.AppError) return e.status;
    throw e;
  }
}

describe("login work does not depend on whether the e-mail exists", () => {
  it("runs dummyVerify for an unknown e-mail", async () => {
    reset();
    expect(await login({ email: `${unique("ghost")}@test.example`, password: "whatever-password" })).toBe(401);
    expect(calls).toEqual({ dummy: 1, verify: 0 });
  });

  it("runs dummyVerify for an account without a password", async () => {
    const user = await createUser({ password: null, googleSub: unique("sub") });
    reset();
    expect(await login({ email: user.email, password: "whatever-password" })).toBe(401);
    expect(calls).toEqual({ dummy: 1, verify: 0 });
  });

  it("runs the real check (and no dummy) for a known e-mail", async () => {
    const user = await createUser();
    reset();
    expect(await login({ email: user.email, password: "wrong-password-here" })).toBe(401);
    expect(calls).toEqual({ dummy: 0, verify: 1 });
  });
});
