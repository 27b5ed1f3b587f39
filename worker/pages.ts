/**
 * Page requests: everything that is not /api, /media or /parties goes to Remix here. The Worker's entry
 * (worker/index.ts) imports this module on the first page request, so an isolate that only answers the API never
 * loads React or the page routes (docs/decisions/0025-lean-cold-start.md).
 */
// server-runtime (ESM) rather than @remix-run/cloudflare (CJS with an import cycle that breaks under vitest)
import type { AppLoadContext } from "@remix-run/cloudflare";
import { createRequestHandler, type ServerBuild } from "@remix-run/server-runtime";
// @ts-ignore -- produced by `remix vite:build` (npm run build) before the Worker is bundled
import * as remixBuild from "../build/server";
import { refreshTokenFrom } from "./auth/cookies";
import { hasViewerHint, sameViewer, viewerHint, viewerHintCookie } from "./auth/viewer-hint";
import { assumeViewer, readSession } from "./services/sessions";
import { createServiceContext } from "./context";
import type { Bindings } from "./env";
import { checkPageSubmission, isSubmission, NO_FORM_HERE, REFUSED_PAGE_PATH, type HandInAllowance, type Refusal } from "./http/page-submissions";
import { getViewer } from "./auth/viewer";
import { AppError } from "./http/errors";
import { fileHandInTask, fileTooLargeMessage, taskInGroup } from "./services/tasks";
import { readAhead } from "./http/read-ahead";
import { watchFailures } from "./http/d1-session";
import { NOT_FOR_SHARING } from "./http/page-cache";
import { pageNonce, withSecurityHeaders, type PageScripts } from "./http/security-headers";

const remix = createRequestHandler(remixBuild as unknown as ServerBuild);
/** Remix, told whether the request is one of its own data requests (`.data`: a fetcher's or a navigation's). */
const handleRemix = (request: Request, context: Omit<AppLoadContext, "dataRequest">) =>
  remix(request, { ...context, dataRequest: new URL(request.url).pathname.endsWith(".data") } as AppLoadContext);
/** Changes with every build: cached pages of an older build (other asset names) are never served (page-cache.ts). */
export const BUILD_VERSION: string = (remixBuild as unknown as ServerBuild).assets.version;

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
 * A page's answer as it leaves: the security headers with the page's nonce, the viewer hint's cookie when it
 * changed, and for someone signed in `private, no-store`: a page rendered for them is theirs alone, never stored by
 * the browser or a shared cache, so after Log out the Back button loads the page afresh (signed out) instead of
 * showing a stale signed-in copy. The same goes for a page's data (`.data`, what a navigation in the app reads) and
 * anything else a route answers them without a caching rule of its own. One copy of the answer carries all of it.
 */
function pageAnswer(request: Request, response: Response, scripts: PageScripts, hintCookie?: string): Response {
  return withSecurityHeaders(response, scripts, (headers) => {
    if (hintCookie) headers.append("Set-Cookie", hintCookie);
    if (refreshTokenFrom(request) && ((headers.get("content-type") ?? "").includes("text/html") || !headers.has("Cache-Control"))) headers.set("Cache-Control", "private, no-store");
  });
}

/**
 * The task page's file allowance (worker/http/page-submissions.ts): the same rule as the API's upload route, asked of
 * the session the page's cookies name. Someone who may not hand a file in gets no allowance, not an error: their
 * small form still reaches the action, which answers in the page's words.
 */
function handInAllowance(svc: ReturnType<typeof createServiceContext>, request: Request): HandInAllowance {
  return async (keys, declaredBytes) => {
    const viewer = await getViewer(svc, request);
    if (!viewer) return null;
    try {
      const task = await fileHandInTask(svc, viewer, keys.lecture, keys.task, declaredBytes);
      if (!taskInGroup(task, keys.group)) return null;
      return { bytes: task.maxFileMb * 1024 * 1024, tooLarge: { status: 413, code: "payload_too_large", message: fileTooLargeMessage(task.maxFileMb) } };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return error.status === 413 ? { status: 413, code: error.code, message: error.message } : null;
    }
  };
}

/** A page (or a page's data request or form submission), with the page's security headers. */
export async function handlePage(request: Request, env: Bindings, ctx: ExecutionContext): Promise<Response> {
  const url = new URL(request.url);
  const nonce = pageNonce();
  const svc = createServiceContext(env, ctx, request);
  const scripts = { nonce, origin: url.origin };
  // Pages take GET and HEAD, and forms by POST; Remix would answer OPTIONS with its own error, naming the route.
  if (request.method === "OPTIONS") return withSecurityHeaders(new Response(null, { status: 204, headers: { Allow: "GET, HEAD, POST" } }), scripts);
  // Remix's older data requests (`?_data=`) are not how this app asks for data (single fetch, `.data`): Remix would
  // refuse them with a 403 saying "Unexpected Server Error". Said plainly instead.
  if (url.searchParams.has("_data")) {
    return withSecurityHeaders(Response.json({ code: "bad_request", message: "Pages do not take a _data parameter: open the address without it." }, { status: 400, headers: { "Cache-Control": "no-store" } }), scripts);
  }
  if (isSubmission(request)) {
    const checked = await checkPageSubmission(request, svc.settings, handInAllowance(svc, request));
    if (!checked.ok) return withSecurityHeaders(await refusePage(request, checked.refusal, { env, svc, nonce }), scripts);
    const answered = await handleRemix(checked.request, { env, svc, nonce });
    if (answered.status === 405) {
      // Read to its end and dropped rather than cancelled: React reports a cancelled render as a failure.
      await answered.body?.pipeTo(new WritableStream());
      return withSecurityHeaders(await refusePage(request, NO_FORM_HERE, { env, svc, nonce }), scripts);
    }
    return pageAnswer(request, answered, scripts);
  }
  const token = refreshTokenFrom(request);
  if (!token || (request.method !== "GET" && request.method !== "HEAD")) {
    return pageAnswer(request, await handleRemix(request, { env, svc, nonce }), scripts);
  }

  // Signed in, reading: start the page as the viewer the hint names, and read the session in the same call to D1
  // as the page's own reads (worker/auth/viewer-hint.ts, ADR 0030).
  const claimed = await viewerHint(request, svc.settings);
  const reading = readSession(svc, token);
  // Awaited below; until then a failed read must not count as unhandled.
  reading.catch(() => {});
  assumeViewer(svc, token, claimed ?? reading.then((read) => read?.viewer ?? null), reading);
  // Rows this isolate saw for the same viewer (their group by slug) are assumed too, and checked the same way.
  svc.readAhead = readAhead();
  let response = await handleRemix(request, { env, svc, nonce });
  const read = await reading;
  const viewer = read?.viewer ?? null;
  const assumptionsHeld = await svc.readAhead.held();
  if ((claimed && !sameViewer(claimed, viewer)) || !assumptionsHeld) {
    // Not the viewer it was started for, or a row it assumed has changed: nothing of it is sent. Rendered again for
    // the viewer the session names, from the database (no assumption).
    // (Read to its end and dropped rather than cancelled: React reports a cancelled render as a failure.)
    await response.body?.pipeTo(new WritableStream());
    const again = createServiceContext(env, ctx, request);
    assumeViewer(again, token, viewer, Promise.resolve(read));
    response = await handleRemix(request, { env, svc: again, nonce });
  } else {
    for (const error of svc.readAhead.deferred()) console.error(error);
  }
  const hintCookie = !sameViewer(claimed, viewer) && (viewer || hasViewerHint(request)) ? await viewerHintCookie(url, svc.settings, viewer) : undefined;
  return pageAnswer(request, response, scripts, hintCookie);
}

/**
 * A public page rendered for the edge cache: for nobody in particular, with the throwaway `nonce` page-cache.ts gave
 * it (which takes the nonce out again and trusts the scripts it marked by their hashes).
 * Read to its end (every streamed section settled) before it is judged: a section whose read failed shows its empty
 * state, and such a page is marked never to be stored (`NOT_FOR_SHARING`), as is one whose render failed or timed out
 * (its status, entry.server.tsx).
 */
export async function renderShared(request: Request, env: Bindings, ctx: ExecutionContext, nonce: string): Promise<Response> {
  const reads = watchFailures(env.DB);
  const watched = { ...env, DB: reads.db };
  const rendered = await handleRemix(request, { env: watched, svc: createServiceContext(watched, ctx, request), nonce, shared: true });
  const body = await rendered.text();
  const page = new Response(body, rendered);
  if (reads.failed()) page.headers.set(NOT_FOR_SHARING, "1");
  return page;
}
