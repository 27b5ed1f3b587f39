import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/server-runtime";
import { clientInfo, refreshTokenFrom } from "../../worker/auth/cookies";
import { logout } from "../../worker/services/sessions";

/**
 * POST /auth/logout (the header's "Log out" form): revokes this device's session, clears the refresh cookie and the
 * viewer hint (`signedOutCookies`) and goes home. The form also clears the browser's markers (session-client) before
 * it is sent.
 * SameSite=Lax keeps the cookie off cross-site POSTs, so another site cannot sign anyone out.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { setCookies } = await logout(context.svc, refreshTokenFrom(request), clientInfo(request));
  return redirect("/", { headers: setCookies.map((cookie): [string, string] => ["Set-Cookie", cookie]) });
}

/** Someone typed the address: nothing to show, and a GET never signs anyone out. */
export function loader() {
  return redirect("/");
}
