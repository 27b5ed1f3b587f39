// server-runtime (ESM) rather than @remix-run/cloudflare (CJS with an import cycle that breaks under vitest)
import { createRequestHandler, type ServerBuild } from "@remix-run/server-runtime";
// @ts-ignore -- produced by `remix vite:build` (npm run build) before the Worker is bundled
import * as remixBuild from "../build/server";
import { api } from "./api";
import { createServiceContext } from "./context";
import type { Bindings } from "./env";
import { serveMedia } from "./http/media";
import { withSecurityHeaders } from "./http/security-headers";
import { routeRealtime } from "./realtime/router";
import { base64url } from "./services/ids";

export { GroupRoom, StaffInbox, UserHub } from "./realtime/rooms";

const handleRemix = createRequestHandler(remixBuild as unknown as ServerBuild);

/**
 * The one Worker: /api/* goes to Hono, /media/* to the image bucket, /parties/* to the realtime Durable
 * Objects, everything else to Remix. Static files never reach this code (see wrangler.toml [assets]).
 */
export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname === "/api" || pathname.startsWith("/api/")) {
      return withSecurityHeaders(await api.fetch(request, env, ctx));
    }
    if (pathname.startsWith("/media/")) {
      return withSecurityHeaders(await serveMedia(request, env));
    }
    if (pathname.startsWith("/parties/")) {
      return withSecurityHeaders(await routeRealtime(request, env));
    }
    const nonce = base64url(crypto.getRandomValues(new Uint8Array(16)));
    const svc = createServiceContext(env, ctx, request);
    return withSecurityHeaders(await handleRemix(request, { env, svc, nonce }), nonce);
  },
} satisfies ExportedHandler<Bindings>;
