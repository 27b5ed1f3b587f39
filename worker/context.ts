import { createDb, type Database } from "../db/client";
import { getSettings, type Bindings, type Settings } from "./env";

/**
 * What every service receives: the database, the parsed settings and the raw bindings.
 * Built once per request by the API and by the Remix load context alike, so both call the same services.
 */
export interface ServiceContext {
  db: Database;
  env: Bindings;
  settings: Settings;
  /** Keeps background work (e-mail, realtime fan-out) alive after the response is sent. */
  waitUntil: (promise: Promise<unknown>) => void;
  /** Client IP as Cloudflare reports it, for rate limits. */
  ip: string;
}

export function createServiceContext(env: Bindings, exec: Pick<ExecutionContext, "waitUntil">, request?: Request): ServiceContext {
  return {
    db: createDb(env.DB),
    env,
    settings: getSettings(env),
    waitUntil: (p) => exec.waitUntil(p.catch((e) => console.error("background task failed", e))),
    ip: request?.headers.get("cf-connecting-ip") ?? "127.0.0.1",
  };
}
