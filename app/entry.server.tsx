import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { NonceProvider } from "./lib/nonce";
// Both dictionaries, in memory: every page renders in its language without loading anything (i18n/store.ts).
import "./i18n/index.server";

const STREAM_TIMEOUT_MS = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), STREAM_TIMEOUT_MS);
  let status = responseStatusCode;
  // A page cached for every visitor is rendered with a throwaway nonce, taken out afterwards (worker/http/page-cache.ts:
  // its scripts are trusted by hash instead).
  const nonce = loadContext.nonce || undefined;
  const body = await renderToReadableStream(
    <NonceProvider value={loadContext.nonce}>
      <RemixServer context={remixContext} url={request.url} abortDelay={STREAM_TIMEOUT_MS} nonce={nonce} />
    </NonceProvider>,
    {
      nonce,
      signal: controller.signal,
      onError(error: unknown) {
        // A client that went away mid-stream is not a server error; nor is a render that read ahead and will be
        // dropped if its assumptions failed (logged later if it is sent; worker/http/read-ahead.ts).
        if (!controller.signal.aborted && !request.signal.aborted && !loadContext.svc?.readAhead?.defer(error)) console.error("render failed", error);
        status = 500;
      },
    },
  );
  body.allReady.then(
    () => clearTimeout(timer),
    () => clearTimeout(timer),
  );
  // Crawlers get the whole page at once; people get streaming (loading states for deferred data). A page rendered for
  // the edge cache is whole before it is judged: a render that failed or ran out of time says so in its status, and
  // is not stored (worker/pages.ts renderShared).
  if (loadContext.shared || isbot(request.headers.get("user-agent") ?? "")) await body.allReady.catch(() => {});
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status });
}

/**
 * Logs real server errors only: not aborted requests, not 404s for unknown paths, and not yet those of a render that
 * read ahead (logged by worker/pages.ts if that render is the one sent; ADR 0033).
 */
export function handleError(error: unknown, { request, context }: { request: Request; context?: AppLoadContext }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  if (context?.svc?.readAhead?.defer(error)) return;
  console.error(error);
}
