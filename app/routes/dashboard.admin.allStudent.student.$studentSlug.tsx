import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, LinksFunction } from "@remix-run/cloudflare";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { data, redirect } from "@remix-run/server-runtime";
import { useState } from "react";
import { usePropState } from "~/lib/use-prop-state";
import { ROLE_LABEL } from "~/components/account/labels";
import { ProfileDetails, ProfileGroups } from "~/components/account/profile-summary";
import { useAccountResult } from "~/components/account/use-account-result";
import type { AccountResult } from "~/components/account/types";
import { AreaPageHeader } from "~/components/area-shell";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormAlert } from "~/components/form-field";
import { ShieldIcon, TrashIcon } from "~/components/icons";
import { ToastRegion, useToasts } from "~/components/toast";
import { isolate } from "~/lib/bidi";
import { expectedError, messageKey } from "~/lib/form-errors.server";
import { useT } from "~/lib/i18n";
import { metaT, pageMeta } from "~/lib/meta";
import { orNotFound } from "~/lib/not-found.server";
import { changeRoleInput, USER_ROLES } from "~/lib/schemas";
import { requireRole } from "../../worker/auth/viewer";
import { getStudent } from "../../worker/services/students";
import { changeRole, deleteUser } from "../../worker/services/users";
import { groupsTaughtBy } from "../../worker/services/groups-admin";
import { GroupStatusBadge } from "~/components/groups/badges";
import { progressAcrossGroups } from "../../worker/services/progress";
import { StudentProgressList } from "~/components/progress/student-progress";
import { sheets } from "~/styles/sheets";
import { Breadcrumb } from "~/components/breadcrumb";
import { noticeCookie } from "~/lib/notice.server";
// Sent as Remix sends it, except that it waits offline or while the session is gone instead of losing the page (ADR 73).
export { clientAction } from "~/lib/kept-submission";

export const links: LinksFunction = () => sheets("accounts", "progress");

export const meta: MetaFunction<typeof loader> = ({ matches, data: d }) => pageMeta(matches, d?.user.name ?? metaT(matches)("admin.users.title"));

/** One account as an admin sees it: details, every membership, role change and deletion. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  const user = await orNotFound(getStudent(context.svc, viewer, params.studentSlug ?? ""));
  // Staff accounts have no groups to be counted in; an instructor's page names the groups they teach (the role cannot
  // change, nor the account go, while they teach any: the refusal says so, and this list says which).
  const [progress, taught] = await Promise.all([
    user.role === "user" ? progressAcrossGroups(context.svc, viewer, user._id) : null,
    user.role === "instructor" ? groupsTaughtBy(context.svc, viewer, user._id) : null,
  ]);
  return { user, isSelf: user._id === viewer.userId, roles: USER_ROLES, progress, taught };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const viewer = await requireRole(context.svc, request, "admin");
  const form = await request.formData();
  const slug = params.studentSlug ?? "";
  const intent = form.get("intent");
  try {
    if (intent === "delete") {
      const user = await orNotFound(getStudent(context.svc, viewer, slug));
      await deleteUser(context.svc, viewer, user._id);
      throw redirect("/dashboard/admin/allStudent", { headers: { "Set-Cookie": noticeCookie(request, { kind: "userDeleted", name: user.name }) } });
    }
    // Only the role form changes a role: a post naming no intent, or another, changes nothing.
    if (intent !== "role") return data<AccountResult>({ intent: "profile", ok: false, errors: {}, formError: "form.invalid" }, { status: 400 });
    const parsed = changeRoleInput.safeParse({ role: form.get("role") });
    if (!parsed.success) return data<AccountResult>({ intent: "profile", ok: false, errors: {}, formError: "admin.user.roleInvalid" }, { status: 400 });
    await changeRole(context.svc, viewer, slug, parsed.data);
    return data<AccountResult>({ intent: "profile", ok: true, errors: {} });
  } catch (err) {
    if (err instanceof Response) throw err;
    const e = expectedError(err);
    return data<AccountResult>({ intent: intent === "delete" ? "delete" : "profile", ok: false, errors: {}, formError: messageKey(e.message, "account.failed") }, { status: e.status });
  }
}

export default function AdminUserPage() {
  const { t } = useT();
  const { user, isSelf, roles, progress, taught } = useLoaderData<typeof loader>();
  const { toasts, show, dismiss } = useToasts();
  const roleFetcher = useFetcher<AccountResult>({ key: "admin-user-role" });
  const deleteFetcher = useFetcher<AccountResult>({ key: "admin-user-delete" });
  // The role the account has, again whenever the page reads it again after a change.
  const [role, setRole] = usePropState(user.role);
  // Groups they are in as a student: a new role does not take them out (staff remove them, or they leave).
  const memberOf = user.memberships.filter((m) => m.status === "approved" || m.status === "special").length;
  const [confirmRole, setConfirmRole] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  useAccountResult(roleFetcher, (result) => {
    setConfirmRole(false);
    if (result.ok) show("success", t("admin.user.roleChanged", { name: user.name, role: t(ROLE_LABEL[role]) }));
    else setRole(user.role);
  });
  useAccountResult(deleteFetcher, () => setConfirmDelete(false));

  const roleError = roleFetcher.state === "idle" && roleFetcher.data && !roleFetcher.data.ok ? roleFetcher.data.formError : undefined;
  const deleteError = deleteFetcher.state === "idle" && deleteFetcher.data && !deleteFetcher.data.ok ? deleteFetcher.data.formError : undefined;

  return (
    <main id="main" tabIndex={-1} className="area-page">
      <ToastRegion toasts={toasts} onDismiss={dismiss} />
      <Breadcrumb items={[{ label: t("admin.users.title"), to: "/dashboard/admin/allStudent" }, { label: user.name, userText: true }]} />
      <AreaPageHeader title={user.name} lead={isSelf ? t("admin.user.self") : undefined} />
      <div className="account-grid">
        <div className="account-column">
          <ProfileDetails person={user} title={t(ROLE_LABEL[user.role])} />
          <ProfileGroups
            title={t("account.groups.title")}
            empty={t("admin.user.noGroups")}
            groups={user.memberships.map((m) => ({ key: m._id, title: m.group.title, slug: m.group.slug, status: m.status, href: `/dashboard/admin/group/${m.group.slug}/students` }))}
          />
          {taught ? (
            <ProfileGroups
              title={t("admin.user.teaches")}
              empty={t("admin.user.teachesNone")}
              groups={taught.map((g) => ({ key: g._id, title: g.title, slug: g.slug, badge: <GroupStatusBadge status={g.status} />, href: `/dashboard/admin/group/${g.slug}/update` }))}
            />
          ) : null}
        </div>
        <div className="account-column">
          <section className="card account-card" aria-labelledby="role-title">
            <h2 id="role-title" className="account-card-title">
              <ShieldIcon />
              {t("admin.user.roleTitle")}
            </h2>
            <p className="muted">{t("admin.user.roleLead")}</p>
            <roleFetcher.Form
              method="post"
              id="role-form"
              className="form-fields"
              onSubmit={(e) => {
                // The first press asks for confirmation; the dialog's button sends the form.
                if (!confirmRole) {
                  e.preventDefault();
                  setConfirmRole(true);
                }
              }}
            >
              <input type="hidden" name="intent" value="role" />
              <div className="field">
                <label htmlFor="user-role">{t("account.role")}</label>
                <select id="user-role" name="role" value={role} onChange={(e) => setRole(e.target.value as typeof role)} aria-describedby={roleError ? "role-error" : undefined}>
                  {roles.map((r) => (
                    <option key={r} value={r}>
                      {t(ROLE_LABEL[r])}
                    </option>
                  ))}
                </select>
              </div>
              {roleError ? <FormAlert id="role-error">{t(roleError)}</FormAlert> : null}
              <button type="submit" className="btn btn-primary" disabled={role === user.role || roleFetcher.state !== "idle"}>
                {t("admin.user.changeRole")}
              </button>
            </roleFetcher.Form>
            <ConfirmDialog
              open={confirmRole}
              onClose={() => {
                // Cancelled (or done): the picker shows the role the account has, not the one not given.
                setConfirmRole(false);
                setRole(user.role);
              }}
              title={t("admin.user.confirmRoleTitle")}
              confirmLabel={t("admin.user.changeRole")}
              form="role-form"
              busy={roleFetcher.state !== "idle"}
              // After it the "Change role" button is disabled (the role is given, or the picker is back to it): the
              // keyboard goes back to the picker.
              returnFocusTo={() => document.getElementById("user-role")}
            >
              <p>{t("admin.user.confirmRole", { name: isolate(user.name), role: t(ROLE_LABEL[role]) })}</p>
              {role !== "user" && memberOf > 0 ? <p>{t("admin.user.confirmRoleMember", { count: memberOf })}</p> : null}
            </ConfirmDialog>
          </section>

          <section className="card account-card account-danger" aria-labelledby="delete-user-title">
            <h2 id="delete-user-title" className="account-card-title">
              <TrashIcon />
              {t("admin.user.deleteTitle")}
            </h2>
            <p className="muted">{t("admin.user.deleteLead")}</p>
            {deleteError ? <FormAlert>{t(deleteError)}</FormAlert> : null}
            <deleteFetcher.Form method="post" id="delete-user-form">
              <input type="hidden" name="intent" value="delete" />
            </deleteFetcher.Form>
            <button type="button" className="btn btn-danger-outline" onClick={() => setConfirmDelete(true)}>
              {t("admin.user.delete")}
            </button>
            <ConfirmDialog
              open={confirmDelete}
              onClose={() => setConfirmDelete(false)}
              title={t("admin.user.confirmDeleteTitle")}
              confirmLabel={t("admin.user.delete")}
              form="delete-user-form"
              busy={deleteFetcher.state !== "idle"}
              danger
            >
              <p>{t("admin.user.confirmDelete", { name: isolate(user.name) })}</p>
            </ConfirmDialog>
          </section>
        </div>
      </div>
      {progress ? <StudentProgressList items={progress} groupHref={(slug) => `/dashboard/admin/group/${slug}/progress`} /> : null}
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
