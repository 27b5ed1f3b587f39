import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/server-runtime";

/**
 * A group's own address on the instructor's side opens its first tab. The tab checks who is asking and answers in
 * the page's language (sign in, not allowed, not found); this address has no page of its own to answer with, so it
 * checks nothing itself and its answer says nothing but the path the visitor typed.
 */
export function loader({ params }: LoaderFunctionArgs) {
  throw redirect(`/instructor/group/${encodeURIComponent(params.slug ?? "")}/students`);
}
