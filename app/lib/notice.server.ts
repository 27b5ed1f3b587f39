/**
 * A one-time notice from an action to the page it redirects to ("Sara Mahmoud was deleted.", "The group was
 * created."), carried in a short-lived cookie the next page's loader reads and clears. Not in the address: a link or
 * a bookmark could then show an admin a success that never happened, with a name of the sender's choosing (ADR 0071).
 * HttpOnly and SameSite=Lax: no page script and no other site can set or read it.
 */
import { z } from "zod";
import { isSecureOrigin, readCookie, serializeCookie } from "../../worker/auth/cookies";

const notice = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("userDeleted"), name: z.string().max(200) }),
  z.object({ kind: z.literal("groupCreated"), slug: z.string().max(200) }),
]);
export type Notice = z.infer<typeof notice>;

/** Long enough for the redirect it rides on; a notice never read is gone within the minute. */
const NOTICE_MAX_AGE_SECONDS = 60;

/** The cookie's name and flags for this request's origin (`__Host-` where it is served over HTTPS). */
function jar(request: Request) {
  const secure = isSecureOrigin(new URL(request.url));
  return { name: secure ? "__Host-cohort_notice" : "cohort_notice", secure };
}

/** The Set-Cookie header value that carries `value` to the next page. */
export function noticeCookie(request: Request, value: Notice): string {
  const { name, secure } = jar(request);
  return serializeCookie(name, encodeURIComponent(JSON.stringify(value)), { secure, maxAge: NOTICE_MAX_AGE_SECONDS });
}

/** The notice this request carries, if any and well formed, and the headers that clear it (empty when none came). */
export function takeNotice(request: Request): { notice: Notice | null; headers: Headers } {
  const { name, secure } = jar(request);
  const headers = new Headers();
  const raw = readCookie(request, name);
  if (!raw) return { notice: null, headers };
  headers.append("Set-Cookie", serializeCookie(name, "", { secure, maxAge: 0 }));
  try {
    const parsed = notice.safeParse(JSON.parse(decodeURIComponent(raw)));
    return { notice: parsed.success ? parsed.data : null, headers };
  } catch {
    return { notice: null, headers };
  }
}
