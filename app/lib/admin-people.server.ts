/**
 * The admin's people list at /dashboard/admin/allStudent (the spec's "admin/allStudent"; the API is GET /api/users).
 * The page is named for what it shows: students by default, and a role filter in the address (`?role=user`,
 * `instructor`, `admin` or `all`) with the heading, the counts and the total following it. The query is validated
 * (400 for a value that is not one of these); the statements do not depend on the number of accounts.
 */
import { z } from "zod";
import type { ServiceContext } from "../../worker/context";
import type { Viewer } from "../../worker/services/sessions";
import { listUsers } from "../../worker/services/users";
import { PEOPLE_FILTERS } from "./admin-people";
import { listUsersQuery, USER_ROLES } from "./schemas";


export const peopleQuery = listUsersQuery.omit({ role: true, pageSize: true }).extend({
  role: z.enum(PEOPLE_FILTERS, "Choose user, instructor, admin or all.").default("user"),
});

/** A hand-edited address the list cannot show (the page answers 400 and says what to choose). */
export class PeopleQueryError extends Error {}

export async function loadPeople(ctx: ServiceContext, viewer: Viewer, url: URL) {
  const params = url.searchParams;
  // Empty fields (the search form sends `search=`) count as absent.
  const raw = Object.fromEntries(["search", "page", "role"].flatMap((k) => (params.get(k) ? [[k, params.get(k)]] : [])));
  const parsed = peopleQuery.safeParse(raw);
  if (!parsed.success) throw new PeopleQueryError(parsed.error.issues[0]?.message ?? "Invalid query");
  const { role, search, page } = parsed.data;
  const result = await listUsers(ctx, viewer, listUsersQuery.parse({ search, page, role: role === "all" ? undefined : role }));
  return { ...result, search: search ?? "", role, roles: USER_ROLES };
}
