import type { AppLoadContext } from "@remix-run/cloudflare";
import { createServiceContext } from "./context";
import type { Bindings } from "./env";

/** Load context for `remix vite:dev` (hot reload), built the same way the Worker builds it. */
export function devLoadContext({ context, request }: { context: { cloudflare: { env: unknown; ctx: Pick<ExecutionContext, "waitUntil"> } }; request: Request }): AppLoadContext {
  const env = context.cloudflare.env as Bindings;
  return { env, svc: createServiceContext(env, context.cloudflare.ctx, request), nonce: "", dataRequest: new URL(request.url).pathname.endsWith(".data") };
}
