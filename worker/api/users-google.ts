/** Google sign-in: GET /api/users/google (start) and GET /api/users/google/callback (finish, in the popup). */
import { createRoute, z } from "@hono/zod-openapi";
import { clientInfo, readCookie } from "../auth/cookies";
import { clearGoogleStateCookie, completeGoogleSignIn, GOOGLE_STATE_COOKIE, startGoogleSignIn } from "../auth/google";
import { AppError } from "../http/errors";
import { withSecurityHeaders } from "../http/security-headers";
import { signInWithGoogle } from "../services/accounts-google";
import { base64url } from "../services/ids";
import { createApi, errorResponse } from "./app";

const tags = ["Accounts"];

const startRoute = createRoute({
  method: "get",
  path: "/google",
  tags,
  summary: "Start Google sign-in (open it in a popup): redirects to Google with state, nonce and PKCE",
  responses: { 302: { description: "To Google's consent screen" }, 404: errorResponse("google_not_configured: Google sign-in is not set up.") },
});

const param = z.string().max(2048).optional();
const callbackRoute = createRoute({
  method: "get",
  path: "/google/callback",
  tags,
  summary: "Google's redirect back: verifies the ID token, signs in and posts the access token to the opener",
  description:
    'Answers a small page that calls `window.opener.postMessage({type: "cohort:google", accessToken}, <this origin>)` and closes; on failure it posts `{type: "cohort:google", error}` instead.',
  request: { query: z.object({ code: param, state: param, error: param }) },
  responses: {
    200: { description: "Signed in (HTML page for the popup)", content: { "text/html": { schema: z.string() } } },
    400: { description: "Refused (HTML page for the popup)", content: { "text/html": { schema: z.string() } } },
    404: errorResponse("google_not_configured: Google sign-in is not set up."),
  },
});

type PopupMessage = { type: "cohort:google"; accessToken: string } | { type: "cohort:google"; error: string };

/** JSON that is safe inside an inline <script> (no "</script>", no U+2028/2029 surprises). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function popupPage(nonce: string, targetOrigin: string, message: PopupMessage, text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Cohort</title></head>
<body><p>${escaped}</p>
<script nonce="${nonce}">
(function () {
  var message = ${scriptJson(message)};
  if (window.opener) {
    window.opener.postMessage(message, ${scriptJson(targetOrigin)});
    window.close();
  }
})();
</script></body></html>`;
}

export const usersGoogleApi = createApi()
  .openapi(startRoute, async (c) => {
    const { location, setCookie } = await startGoogleSignIn(c.var.svc.settings, new URL(c.req.url));
    c.header("Set-Cookie", setCookie);
    return c.redirect(location, 302);
  })
  .openapi(callbackRoute, async (c) => {
    const svc = c.var.svc;
    const url = new URL(c.req.url);
    const nonce = base64url(crypto.getRandomValues(new Uint8Array(16)));
    c.header("Set-Cookie", clearGoogleStateCookie(url), { append: true });
    // The popup's opener must stay reachable: this page relaxes the site-wide opener policy.
    c.header("Cross-Origin-Opener-Policy", "unsafe-none");
    let page: { status: 200 | 400 | 409; message: PopupMessage; text: string };
    try {
      const identity = await completeGoogleSignIn(svc.settings, url, readCookie(c.req.raw, GOOGLE_STATE_COOKIE), c.req.valid("query"));
      const session = await signInWithGoogle(svc, identity, clientInfo(c.req.raw));
      c.header("Set-Cookie", session.setCookie, { append: true });
      page = { status: 200, message: { type: "cohort:google", accessToken: session.accessToken }, text: "You are signed in. You can close this window." };
    } catch (e) {
      if (!(e instanceof AppError) || (e.status !== 400 && e.status !== 409)) throw e;
      page = { status: e.status, message: { type: "cohort:google", error: e.message }, text: e.message };
    }
    return withSecurityHeaders(c.html(popupPage(nonce, url.origin, page.message, page.text), page.status), { nonce });
  });
