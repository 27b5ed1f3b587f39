// server-runtime (ESM) rather than @remix-run/cloudflare (CJS with an import cycle that breaks under vitest)
import { createRequestHandler, type ServerBuild } from "@remix-run/server-runtime";
// @ts-ignore -- produced by `remix vite:build` (npm run build) before the Worker is bundled
import * as remixBuild from "../build/server";
import { api } from "./api";
import { refreshTokenFrom } from "./auth/cookies";
import { createServiceContext } from "./context";
import type { Bindings } from "./env";
import { serveMedia } from "./http/media";
import { checkPageSubmission, isSubmission, REFUSED_PAGE_PATH, type Refusal } from "./http/page-submissions";
import { openSession } from "./http/d1-session";
import { cacheable, servePublic } from "./http/page-cache";
import { withSecurityHeaders } from "./http/security-headers";
import { routeRealtime } from "./realtime/router";
import { cleanUp } from "./services/cleanup";
import { settleExpiredAttempts } from "./services/quizzes";
import { base64url } from "./services/ids";
import { runInSandbox } from "./sandbox";
import { registerRunner } from "./sandbox/registry";
import { publishDue } from "./services/schedule";

// The code runner (QuickJS in WebAssembly) is bundled here only: see worker/sandbox/registry.ts.
registerRunner(runInSandbox);

export { GroupRoom, StaffInbox, UserHub } from "./realtime/rooms";
/** The server's clock of each quiz: closes and grades attempts nobody hands in, at their deadline + 5 s. */
export { QuizClock } from "./realtime/quiz-clock";
export { Publisher } from "./realtime/publisher";

/** The daily housekeeping trigger (wrangler.toml); the other one publishes scheduled work. */
const DAILY_CRON = "17 3 * * *";

const handleRemix = createRequestHandler(remixBuild as unknown as ServerBuild);
/** Changes with every build: cached pages of an older build (other asset names) are never served. */
const BUILD_VERSION = (remixBuild as unknown as ServerBuild).assets.version;

/**
 * A submission the gate refused: a browser navigation gets the error screen with the refusal's status (rendered
 * as a GET of the refusal page, so no action and no other page's loader runs); a script's data request gets JSON.
 */
async function refusePage(request: Request, refusal: Refusal, context: { env: Bindings; svc: ReturnType<typeof createServiceContext>; nonce: string }) {
  const url = new URL(request.url);
  if (url.pathname.endsWith(".data") || !(request.headers.get("accept") ?? "").includes("text/html")) {
    return Response.json({ message: refusal.message, code: refusal.code }, { status: refusal.status });
  }
  const headers = new Headers();
  for (const name of ["cookie", "accept", "accept-language", "user-agent"]) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  return handleRemix(new Request(new URL(REFUSED_PAGE_PATH, url), { headers }), { ...context, refusal });
}

/**
 * A page rendered for someone signed in is theirs alone: it is never stored by the browser or a shared cache, so
 * after Log out the Back button loads the page afresh (signed out) instead of showing a stale signed-in copy.
 */
function privatePage(request: Request, response: Response): Response {
  if (!refreshTokenFrom(request) || !(response.headers.get("content-type") ?? "").includes("text/html")) return response;
  const res = new Response(response.body, response);
  res.headers.set("Cache-Control", "private, no-store");
  return res;
}

/**
 * The one Worker: /api/* goes to Hono, /media/* to the image bucket, /parties/* to the realtime Durable
 * Objects, everything else to Remix. Static files never reach this code (see wrangler.toml [assets]).
 */
export default {
  async fetch(request, bindings, ctx) {
    const url = new URL(request.url);
    const { pathname } = url;
    if (pathname.startsWith("/parties/")) {
      return withSecurityHeaders(await routeRealtime(request, bindings));
    }
    if (pathname.startsWith("/media/")) {
      return withSecurityHeaders(await serveMedia(request, bindings));
    }
    // Everything below reads and writes D1 through this request's session (reads near the visitor).
    const session = openSession(request, bindings);
    const env = session.env;
    const isApi = pathname === "/api" || pathname.startsWith("/api/");
    const shared = cacheable(request, url);
    if (shared) {
      return servePublic(request, url, shared, {
        db: env.DB,
        build: BUILD_VERSION,
        waitUntil: (p) => ctx.waitUntil(p),
        // Rendered for nobody in particular: no nonce (the page's scripts are trusted by their hashes).
        render: async () => (isApi ? api.fetch(request, env, ctx) : handleRemix(request, { env, svc: createServiceContext(env, ctx, request), nonce: "" })),
        secure: (res, policy) => withSecurityHeaders(res, policy ? { policy } : undefined),
      });
    }
    if (isApi) {
      return session.finish(withSecurityHeaders(await api.fetch(request, env, ctx)));
    }
    const nonce = base64url(crypto.getRandomValues(new Uint8Array(16)));
    const svc = createServiceContext(env, ctx, request);
    const scripts = { nonce, origin: url.origin };
    let page = request;
    if (isSubmission(request)) {
      const checked = await checkPageSubmission(request, svc.settings);
      if (!checked.ok) return session.finish(withSecurityHeaders(await refusePage(request, checked.refusal, { env, svc, nonce }), scripts));
      page = checked.request;
    }
    return session.finish(withSecurityHeaders(privatePage(request, await handleRemix(page, { env, svc, nonce })), scripts));
  },

  /**
   * Cron Triggers (wrangler.toml [triggers]). Every five minutes: publishing whatever is scheduled and due (each
   * group's Publisher alarm does it on time; this is its safety net). Daily: housekeeping of old sessions, codes,
   * rate limits and mails, and closing quiz attempts left open past their deadline: each quiz's clock (QuizClock's
   * alarm) closes them at deadline + 5 s and reads close any they meet; this is the safety net for what both missed.
   */
  async scheduled(controller, env, ctx) {
    const svc = createServiceContext(env, ctx);
    const published = await publishDue(svc, null, Date.now());
    if (controller.cron !== DAILY_CRON) {
      if (published.lectures + published.tasks + published.quizzes > 0) console.log("publish", JSON.stringify(published));
      return;
    }
    const result = await cleanUp(svc);
    const attempts = await settleExpiredAttempts(svc);
    console.log("cleanup", JSON.stringify({ ...result, quizAttemptsClosed: attempts }));
  },
} satisfies ExportedHandler<Bindings>;
