import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/server-runtime";
import { Form, Link, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { ROLE_LABEL } from "~/components/account/labels";
import { AreaPageHeader } from "~/components/area-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SearchIcon, UsersIcon } from "~/components/icons";
import { countryById } from "~/lib/countries";
import { formatDate, useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import type { MessageKey } from "~/i18n/en";
import { PEOPLE_FILTERS, type PeopleFilter } from "~/lib/admin-people";
import { loadPeople } from "~/lib/admin-people.server";
import { SEARCH_MAX } from "~/lib/list-query";
import { requireRole } from "../../worker/auth/viewer";
import { EmptyState } from "~/components/empty-state";
import { takeNotice } from "~/lib/notice.server";

const TITLE: Record<PeopleFilter, MessageKey> = {
  user: "admin.users.title",
  instructor: "admin.users.title.instructor",
  admin: "admin.users.title.admin",
  all: "admin.users.title.all",
};
const LEAD: Record<PeopleFilter, MessageKey> = {
  user: "admin.users.lead.user",
  instructor: "admin.users.lead.instructor",
  admin: "admin.users.lead.admin",
  all: "admin.users.lead",
};
const FILTER: Record<PeopleFilter, MessageKey> = {
  user: "admin.users.filter.user",
  instructor: "admin.users.filter.instructor",
  admin: "admin.users.filter.admin",
  all: "admin.users.filter.all",
};

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, metaT(matches)(TITLE[data?.role ?? "user"]));

/** Students by default (the page is "Students"), or the accounts of one role, or everyone: search, 20 a page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  const { notice, headers } = takeNotice(request);
  const people = await loadPeople(context.svc, viewer, new URL(request.url));
  return data({ ...people, deleted: notice?.kind === "userDeleted" ? notice.name : null }, { headers });
}

export default function AdminUsersRoute() {
  return <AdminUsersPage {...useLoaderData<typeof loader>()} />;
}

type People = Awaited<ReturnType<typeof loadPeople>>;

function AdminUsersPage({ users, total, page, pageSize, search, role, counts, deleted }: People & { deleted: string | null }) {
  const { t, lang } = useT();
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
  const filterLink = (r: PeopleFilter) => {
    const next = new URLSearchParams();
    if (search) next.set("search", search);
    if (r !== "user") next.set("role", r);
    const q = next.toString();
    return q ? `/dashboard/admin/allStudent?${q}` : "/dashboard/admin/allStudent";
  };
  const countFor = (r: PeopleFilter) => (r === "all" ? counts.admin + counts.instructor + counts.user : counts[r]);
  const title = t(TITLE[role]);

  return (
    <main id="main" tabIndex={-1} className="area-page">
      <AreaPageHeader title={title} lead={t(LEAD[role])} />
      {deleted ? (
        <p className="form-success" role="status">
          {t("admin.user.deleted", { name: deleted })}
        </p>
      ) : null}
      <Form method="get" className="card user-filters" role="search" aria-label={t("admin.users.searchLabel")}>
        <div className="field">
          <label htmlFor="users-search">{t("admin.users.search")}</label>
          <input id="users-search" name="search" type="search" defaultValue={search} maxLength={SEARCH_MAX} placeholder={t("admin.users.searchPlaceholder")} />
        </div>
        {role !== "user" ? <input type="hidden" name="role" value={role} /> : null}
        <button type="submit" className="btn btn-primary">
          <SearchIcon />
          {t("admin.users.searchButton")}
        </button>
      </Form>

      <nav className="segmented user-role-filter" aria-label={t("admin.users.filterLabel")}>
        {PEOPLE_FILTERS.map((r) => (
          <Link key={r} to={filterLink(r)} className="segmented-link" aria-current={r === role ? "page" : undefined} preventScrollReset>
            {t(FILTER[r])}
            <span className="count-pill" data-testid={`role-count-${r}`}>
              {countFor(r)}
            </span>
          </Link>
        ))}
      </nav>

      {/* The range, or (nothing found) the empty state's words for a screen reader: never "0-0 of 0". */}
      <p className={total > 0 ? "list-count" : "visually-hidden"} aria-live="polite" aria-busy={searching}>
        {total > 0 ? t("admin.users.showing", { from, to, total }) : t("admin.users.empty")}
      </p>

      {users.length === 0 ? (
        <EmptyState icon={<UsersIcon />} title={t("admin.users.empty")} />
      ) : (
        <div className="table-wrap">
          <table className="data-table user-table">
            <caption className="visually-hidden">{title}</caption>
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
