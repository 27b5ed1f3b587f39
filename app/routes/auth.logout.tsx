import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/server-runtime";
import { clientInfo, refreshTokenFrom } from "../../worker/auth/cookies";
import { clearViewerHintCookie } from "../../worker/auth/viewer-hint";
import { logout } from "../../worker/services/sessions";

/**
 * POST /auth/logout (the header's "Log out" form): revokes this device's session, clears the refresh cookie and the
 * viewer hint (a signed name and e-mail the next person at this browser must not carry) and goes home. The form also clears the browser's markers (session-client) before it is sent.
 * SameSite=Lax keeps the cookie off cross-site POSTs, so another site cannot sign anyone out.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { setCookie } = await logout(context.svc, refreshTokenFrom(request), clientInfo(request));
  const headers = new Headers({ "Set-Cookie": setCookie });
  headers.append("Set-Cookie", clearViewerHintCookie(new URL(request.url)));
  return redirect("/", { headers });
}

/** Someone typed the address: nothing to show, and a GET never signs anyone out. */
export function loader() {
  return redirect("/");
}
