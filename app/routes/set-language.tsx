import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/server-runtime";
import { isLang, langCookie } from "~/i18n/config";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { getViewer } from "../../worker/auth/viewer";
import { setLocale } from "../../worker/services/users";

/** The language switcher's target: stores the choice in the `lang` cookie and returns to the page. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const lang = form.get("lang");
  const to = safeRedirectPath(form.get("redirectTo"));
  if (!isLang(lang)) return redirect(to);
  // Signed in, the choice is also the account's: e-mails and certificates are written in it (issue 22).
  const viewer = await getViewer(context.svc, request);
  if (viewer) await setLocale(context.svc, viewer.userId, lang);
  return redirect(to, {
    headers: { "Set-Cookie": langCookie(lang) },
  });
}

/** A GET (someone typed the address) just goes home. */
export function loader() {
  return redirect("/");
}
