import { redirect } from "@remix-run/server-runtime";

/** The admin area's own address is its overview, at /dashboard (which checks who is asking). */
export function loader() {
  throw redirect("/dashboard");
}
