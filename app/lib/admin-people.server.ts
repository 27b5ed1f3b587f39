/**
 * The admin's people list at /dashboard/admin/allStudent (the spec's "admin/allStudent"; the API is GET /api/users).
 * The page is named for what it shows: students by default, and a role filter in the address (`?role=user`,
 * `instructor`, `admin` or `all`) with the heading, the counts and the total following it. The address is read as
 * every list reads it (list-query.ts): a value the list cannot use falls back (an unknown role to students), and a
 * page past the end redirects to the last. The statements do not depend on the number of accounts.
 */
import { redirect } from "@remix-run/server-runtime";
import type { ServiceContext } from "../../worker/context";
import type { Viewer } from "../../worker/services/sessions";
import { listUsers } from "../../worker/services/users";
import { PEOPLE_FILTERS, type PeopleFilter } from "./admin-people";
import { lastPageAddress, listPage, listSearch } from "./list-query";
import { USER_ROLES } from "./schemas";

const PAGE_SIZE = 20;

export async function loadPeople(ctx: ServiceContext, viewer: Viewer, url: URL) {
  const params = url.searchParams;
  const asked = params.get("role");
  const role: PeopleFilter = PEOPLE_FILTERS.find((r) => r === asked) ?? "user";
  const search = listSearch(params);
  const page = listPage(params);
  const result = await listUsers(ctx, viewer, { search, page, pageSize: PAGE_SIZE, role: role === "all" ? undefined : role });
  const last = lastPageAddress(url, page, result.total, result.pageSize);
  if (last) throw redirect(last);
  return { ...result, search: search ?? "", role, roles: USER_ROLES };
}
