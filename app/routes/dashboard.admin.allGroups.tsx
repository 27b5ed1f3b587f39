import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { redirect } from "@remix-run/server-runtime";
import { AreaPageHeader } from "~/components/area-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { GroupStatusBadge } from "~/components/groups/badges";
import { Pager } from "~/components/groups/pager";
import { BookIcon, InboxIcon, PlusIcon, SearchIcon } from "~/components/icons";
import { formatDate, useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { lastPageAddress, listPage, listSearch, SEARCH_MAX } from "~/lib/list-query";
import { GROUP_STATUS_VALUES } from "~/lib/schemas";
import { requireRole } from "../../worker/auth/viewer";
import { listManagedGroups } from "../../worker/services/groups-admin";
import { EmptyState } from "~/components/empty-state";
import { DeliberateSelect } from "~/components/deliberate-select";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, metaT(matches)("groups.all.title"));

const PAGE_SIZE = 20;

/** Every group (newest first) with search, status filter and paging; a value it cannot use falls back (list-query.ts), a page past the end redirects to the last. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  const url = new URL(request.url);
  const status = GROUP_STATUS_VALUES.find((s) => s === url.searchParams.get("status"));
  const query = { search: listSearch(url.searchParams), status, page: listPage(url.searchParams), pageSize: PAGE_SIZE };
  const page = await listManagedGroups(context.svc, viewer, query);
  const pageCount = Math.max(1, Math.ceil(page.total / page.pageSize));
  const last = lastPageAddress(url, query.page, page.total, page.pageSize);
  if (last) throw redirect(last);
  return {
    search: query.search ?? "",
    status: query.status ?? "",
    page: page.page,
    pageCount,
    total: page.total,
    groups: page.groups.map((g) => ({
      id: g._id,
      slug: g.slug,
      title: g.title,
      status: g.status,
      instructorName: g.instructorId ? g.instructorName : null,
      startDate: g.start_date,
      capacity: g.capacity,
      memberCount: g.memberCount,
      pendingCount: g.pendingCount,
    })),
  };
}

export default function AllGroups() {
  const { t, lang } = useT();
  const { search, status, page, pageCount, total, groups } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const location = useLocation();
  const submit = useSubmit();
  const loading = navigation.state === "loading" && navigation.location.pathname === location.pathname;
  const filtered = search !== "" || status !== "";
  const hrefFor = (p: number) => {
    const q = new URLSearchParams();
    if (search) q.set("search", search);
    if (status) q.set("status", status);
    if (p > 1) q.set("page", String(p));
    const s = q.toString();
    return s ? `?${s}` : location.pathname;
  };

  return (
    <main id="main" tabIndex={-1} className="area-page">
      <AreaPageHeader title={t("groups.all.title")} lead={t("groups.all.lead")}>
        <Link to="/dashboard/admin/newGroup" className="btn btn-primary">
          <PlusIcon />
          {t("admin.nav.newGroup")}
        </Link>
      </AreaPageHeader>

      <Form method="get" className="gfilter-bar" role="search" aria-label={t("groups.all.filters")} key={`${search}|${status}`}>
        <div className="field gfilter-search">
          <label htmlFor="groups-search">{t("groups.all.search")}</label>
          <div className="ginput-icon">
            <SearchIcon />
            <input id="groups-search" type="search" name="search" defaultValue={search} placeholder={t("groups.all.searchPlaceholder")} maxLength={SEARCH_MAX} />
          </div>
        </div>
        <div className="field">
          <label htmlFor="groups-status">{t("groups.form.status")}</label>
          <DeliberateSelect id="groups-status" name="status" value={status} onCommit={(_, select) => submit(select.form)}>
            <option value="">{t("groups.all.anyStatus")}</option>
            <option value="published">{t("group.status.published")}</option>
            <option value="draft">{t("group.status.draft")}</option>
            <option value="archived">{t("group.status.archived")}</option>
          </DeliberateSelect>
        </div>
        <button type="submit" className="btn btn-outline">
          {t("groups.filter.apply")}
        </button>
        {filtered ? (
          <Link to={location.pathname} className="btn btn-ghost">
            {t("groups.filter.clear")}
          </Link>
        ) : null}
      </Form>

      <p className="gresult-count" role="status" aria-live="polite">
        {loading ? t("common.loading") : t("groups.all.count", { count: total })}
      </p>

      {groups.length === 0 ? (
        <EmptyState icon={<BookIcon />} title={filtered ? t("groups.all.noMatch.title") : t("groups.all.empty.title")} body={filtered ? t("groups.all.noMatch.body") : t("groups.all.empty.body")}>
          {filtered ? (
            <Link to={location.pathname} className="btn btn-outline">
              {t("groups.filter.clear")}
            </Link>
          ) : (
            <Link to="/dashboard/admin/newGroup" className="btn btn-primary">
              <PlusIcon />
              {t("admin.nav.newGroup")}
            </Link>
          )}
        </EmptyState>
      ) : (
        <div className="gtable-wrap" aria-busy={loading} data-loading={loading}>
          <table className="gtable groups-table">
            <caption className="visually-hidden">{t("groups.all.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("groups.form.title")}</th>
                <th scope="col">{t("groups.form.status")}</th>
                <th scope="col">{t("groups.form.instructor")}</th>
                <th scope="col">{t("groups.form.startDate")}</th>
                <th scope="col" className="num">{t("groups.all.members")}</th>
                <th scope="col" className="num">{t("groups.all.pending")}</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((g) => (
                <tr key={g.id}>
                  <th scope="row" data-label={t("groups.form.title")}>
                    <Link to={`/dashboard/admin/group/${g.slug}`} className="row-link user-text">
                      {g.title}
                    </Link>
                    <span className="row-sub" dir="ltr">{`/content/${g.slug}`}</span>
                  </th>
                  <td data-label={t("groups.form.status")}>
                    <GroupStatusBadge status={g.status} />
                  </td>
                  <td data-label={t("groups.form.instructor")}>{g.instructorName ?? <span className="muted">{t("groups.form.noInstructor")}</span>}</td>
                  <td data-label={t("groups.form.startDate")} className="nowrap">{g.startDate ? formatDate(g.startDate, lang) : <span className="muted">{t("courses.comingSoon")}</span>}</td>
                  <td data-label={t("groups.all.members")} className="num">
                    {g.capacity ? t("groups.all.ofCapacity", { count: g.memberCount, capacity: g.capacity }) : g.memberCount}
                  </td>
                  <td data-label={t("groups.all.pending")} className="num">
                    {g.pendingCount > 0 ? (
                      <Link to={`/dashboard/admin/email-request?group=${g.slug}`} className="badge badge-amber pending-link">
                        <InboxIcon />
                        {g.pendingCount}
                        <span className="visually-hidden"> {t("groups.all.pendingFor", { title: g.title })}</span>
                      </Link>
                    ) : (
                      <span className="muted">0</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageCount={pageCount} hrefFor={hrefFor} />
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
