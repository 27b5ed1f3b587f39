/**
 * The one Worker's entry. Its module scope is kept to what every isolate needs: the Durable Object classes (static
 * exports, so the runtime finds them) and a router. Each kind of request imports its own part on first use, so an
 * isolate pays only for what it serves: pages load Remix (worker/pages.ts), /api loads the Hono API, /parties the
 * realtime router, code runs load the QuickJS engine (docs/decisions/0025-lean-cold-start.md). Public pages for
 * visitors come from the edge cache when they can (worker/http/page-cache.ts, docs/decisions/0024-fast-at-the-edge.md).
 */
import type { Bindings } from "./env";
import { openSession, READS } from "./http/d1-session";
import { anonymousRequest, buildOf, cacheable, forgetContentVersion, servePublic } from "./http/page-cache";
import { withSecurityHeaders } from "./http/security-headers";
import { registerRunner } from "./sandbox/registry";

// The code runner (QuickJS in WebAssembly) is bundled here only (see worker/sandbox/registry.ts), and loaded the
// first time code runs in this Worker (the development fallback when no RUNNER service answers).
registerRunner((language, code, tests, limits) => import("./sandbox").then((sandbox) => sandbox.runInSandbox(language, code, tests, limits)));

export { GroupRoom, StaffInbox, UserHub } from "./realtime/rooms";
/** The server's clock of each quiz: closes and grades attempts nobody hands in, at their deadline + 5 s. */
export { QuizClock } from "./realtime/quiz-clock";
export { Publisher } from "./realtime/publisher";

/** The daily housekeeping trigger (wrangler.toml); the other one publishes scheduled work. */
const DAILY_CRON = "17 3 * * *";

/**
 * The one Worker: /api/* goes to Hono, /media/* to the image bucket, /parties/* to the realtime Durable
 * Objects, everything else to Remix. Static files never reach this code (see wrangler.toml [assets]).
 */
export default {
  async fetch(request, bindings, ctx) {
    const url = new URL(request.url);
    const { pathname } = url;
    if (pathname.startsWith("/parties/")) {
      const { routeRealtime } = await import("./realtime/router");
      return withSecurityHeaders(await routeRealtime(request, bindings));
    }
    if (pathname.startsWith("/media/")) {
      const { serveMedia } = await import("./http/media");
      return withSecurityHeaders(await serveMedia(request, bindings));
    }
    // Everything below reads and writes D1 through this request's session (reads near the visitor).
    const session = openSession(request, bindings);
    const isApi = pathname === "/api" || pathname.startsWith("/api/");
    const shared = cacheable(request, url);
    if (shared) {
      const pages = isApi ? null : await import("./pages");
      return servePublic(request, url, shared, {
        // One read (the content version) before a hit: nothing to wait for company. The same session as the render's.
        db: session.alone,
        build: buildOf(bindings.CF_VERSION_METADATA, pages?.BUILD_VERSION ?? "api"),
        waitUntil: (p) => ctx.waitUntil(p),
        // Rendered for nobody in particular, from the request without its sender's cookies and credentials, with a
        // throwaway nonce (a page's scripts are trusted by their hashes).
        render: async (nonce) => {
          const anonymous = anonymousRequest(request, shared);
          return pages ? pages.renderShared(anonymous, session.env, ctx, nonce) : (await import("./api")).api.fetch(anonymous, session.env, ctx);
        },
        secure: (res, policy) => withSecurityHeaders(res, policy ? { policy } : undefined),
      });
    }
    const env = session.env;
    const response = isApi
      ? withSecurityHeaders(await (await import("./api")).api.fetch(request, env, ctx))
      : await (await import("./pages")).handlePage(request, env, ctx);
    // What a write changed, a public page of this isolate shows at once (page-cache.ts, ADR 0029).
    if (!READS.has(request.method)) forgetContentVersion();
    return session.finish(response);
  },

  /**
   * Cron Triggers (wrangler.toml [triggers]). Every five minutes: publishing whatever is scheduled and due (each
   * group's Publisher alarm does it on time; this is its safety net). Daily: housekeeping of old sessions, codes,
   * rate limits and mails, and closing quiz attempts left open past their deadline: each quiz's clock (QuizClock's
   * alarm) closes them at deadline + 5 s and reads close any they meet; this is the safety net for what both missed.
   */
  async scheduled(controller, env, ctx) {
    const [{ createServiceContext }, { publishDue }] = await Promise.all([import("./context"), import("./services/schedule")]);
    const svc = createServiceContext(env, ctx);
    const published = await publishDue(svc, null, Date.now());
    if (controller.cron !== DAILY_CRON) {
      if (published.lectures + published.tasks + published.quizzes > 0) console.log("publish", JSON.stringify(published));
      return;
    }
    const [{ cleanUp }, { settleExpiredAttempts }] = await Promise.all([import("./services/cleanup"), import("./services/quizzes")]);
    const result = await cleanUp(svc);
    const attempts = await settleExpiredAttempts(svc);
    console.log("cleanup", JSON.stringify({ ...result, quizAttemptsClosed: attempts }));
  },
} satisfies ExportedHandler<Bindings>;
