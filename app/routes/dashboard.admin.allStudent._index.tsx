import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { ROLE_LABEL } from "~/components/account/labels";
import { AreaPageHeader } from "~/components/area-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SearchIcon, UsersIcon } from "~/components/icons";
import { countryById } from "~/lib/countries";
import { formatDate, useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { listUsersQuery, USER_ROLES } from "~/lib/schemas";
import { requireRole } from "../../worker/auth/viewer";
import { listUsers } from "../../worker/services/users";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("admin.users.title"));

/** Every account, newest first: search by name or e-mail, filter by role, 20 a page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  const params = Object.fromEntries(new URL(request.url).searchParams);
  // A hand-edited address with a bad value shows the first page of everyone rather than an error.
  const parsed = listUsersQuery.safeParse({ search: params.search || undefined, role: params.role || undefined, page: params.page || undefined });
  const query = parsed.success ? parsed.data : listUsersQuery.parse({});
  const page = await listUsers(context.svc, viewer, query);
  return { ...page, search: query.search ?? "", role: query.role ?? "", roles: USER_ROLES };
}

export default function AdminUsersPage() {
  const { t, lang } = useT();
  const { users, total, page, pageSize, search, role, roles } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/dashboard/admin/allStudent";
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const pageLink = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    return `?${next}`;
  };
  const deleted = params.get("deleted");

  return (
    <main id="main" tabIndex={-1} className="area-page">
      <AreaPageHeader title={t("admin.users.title")} lead={t("admin.users.lead")} />
      {deleted ? (
        <p className="form-success" role="status">
          {t("admin.user.deleted", { name: deleted })}
        </p>
      ) : null}
      <Form method="get" className="card user-filters" role="search" aria-label={t("admin.users.searchLabel")}>
        <div className="field">
          <label htmlFor="users-search">{t("admin.users.search")}</label>
          <input id="users-search" name="search" type="search" defaultValue={search} placeholder={t("admin.users.searchPlaceholder")} />
        </div>
        <div className="field">
          <label htmlFor="users-role">{t("account.role")}</label>
          <select id="users-role" name="role" defaultValue={role}>
            <option value="">{t("admin.users.allRoles")}</option>
            {roles.map((r) => (
              <option key={r} value={r}>
                {t(ROLE_LABEL[r])}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary">
          <SearchIcon />
          {t("admin.users.searchButton")}
        </button>
      </Form>

      <p className="list-count" aria-live="polite" aria-busy={searching}>
        {t("admin.users.showing", { from, to, total })}
      </p>

      {users.length === 0 ? (
        <div className="empty-state">
          <span className="empty-icon" aria-hidden="true">
            <UsersIcon />
          </span>
          <p className="empty-title">{t("admin.users.empty")}</p>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="data-table user-table">
            <caption className="visually-hidden">{t("admin.users.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("auth.field.name")}</th>
                <th scope="col">{t("auth.field.email")}</th>
                <th scope="col">{t("account.role")}</th>
                <th scope="col">{t("auth.field.phone")}</th>
                <th scope="col">{t("account.joined")}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u._id}>
                  <th scope="row" data-label={t("auth.field.name")}>
                    <Link to={`/dashboard/admin/allStudent/student/${u.slug}`} className="user-text">
                      {u.name}
                    </Link>
                    {u.emailVerified ? null : <span className="badge badge-amber">{t("account.unverified")}</span>}
                  </th>
                  <td data-label={t("auth.field.email")}>
                    <span dir="ltr">{u.email}</span>
                  </td>
                  <td data-label={t("account.role")}>
                    <span className="badge role-badge" data-role={u.role}>
                      {t(ROLE_LABEL[u.role])}
                    </span>
                  </td>
                  <td data-label={t("auth.field.phone")}>
                    {u.phone_number ? <span dir="ltr">{u.phone_number}</span> : <span className="muted">{t("account.none")}</span>}
                    {countryById(u.country) ? <span className="muted cell-note">{t(countryById(u.country)!.nameKey)}</span> : null}
                  </td>
                  <td data-label={t("account.joined")}>{formatDate(u.createdAt, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {total > pageSize ? (
        <nav className="pager" aria-label={t("admin.users.pages")}>
          {page > 1 ? (
            <Link to={pageLink(page - 1)} className="btn btn-outline btn-sm" rel="prev">
              {t("common.previous")}
            </Link>
          ) : (
            <span className="btn btn-outline btn-sm" aria-disabled="true">
              {t("common.previous")}
            </span>
          )}
          <span className="pager-count">{t("admin.users.page", { page, pages: Math.ceil(total / pageSize) })}</span>
          {to < total ? (
            <Link to={pageLink(page + 1)} className="btn btn-outline btn-sm" rel="next">
              {t("common.next")}
            </Link>
          ) : (
            <span className="btn btn-outline btn-sm" aria-disabled="true">
              {t("common.next")}
            </span>
          )}
        </nav>
      ) : null}
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
