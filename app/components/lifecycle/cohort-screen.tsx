import { Link, useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { ConfirmDialog, focusInListAfter, useCloseWhenDone } from "~/components/confirm-dialog";
import { fromLocalInput, When } from "~/components/lectures/when";
import type { MessageKey } from "~/i18n/en";
import { localeOf } from "~/i18n/config";
import { failureText, type FailureLike } from "~/lib/group-errors";
import { formatPercent, useT } from "~/lib/i18n";
import type { CohortData } from "~/lib/cohort.server";
import { ANNOUNCEMENT_LIMITS, CERTIFICATE_LIMITS, COPY_LIMITS } from "~/lib/lifecycle-rules";
import { dateTimeFormat } from "~/lib/intl-cache";
import { ZoneOptions } from "~/components/zone-options";
import { useOneSubmission } from "~/hooks/use-one-submission";
import { isolate } from "~/lib/bidi";
import { GroupStatusBadge } from "~/components/groups/badges";
import { useFocusFirstProblem } from "~/lib/use-editor-focus";
import { NameSearch, ownName, useNameSearch } from "~/components/name-search";

type Result = ({ ok: true; intent: string } & Record<string, unknown>) | (FailureLike & { intent: string; target?: string });

/** The words for a failed form: the field's own sentence where the page has one, else the error code's. */
function problem(t: ReturnType<typeof useT>["t"], data: Result | undefined, fields: Record<string, MessageKey>): string | null {
  if (!data || data.ok) return null;
  for (const [field, key] of Object.entries(fields)) if (data.fields?.[field]) return t(key);
  return failureText(t, data);
}

/**
 * A form whose refusals are said at their fields: `at(field)` gives the field's sentence (or null) and the attributes
 * that tie the field to it; `rest` is a refusal that names none of the form's fields, said beside its button. The
 * first refused field takes the focus (useFocusFirstProblem) once the answer is in.
 */
function useFieldProblems(scope: RefObject<HTMLFormElement>, data: Result | undefined, settled: boolean, fields: Record<string, { key: MessageKey; id: string }>) {
  const { t } = useT();
  const failure = data && !data.ok ? data : null;
  useFocusFirstProblem(scope, failure, settled);
  const named = Object.keys(fields).some((field) => failure?.fields?.[field]);
  const at = (field: string, describedBy?: string) => {
    const refused = !!failure?.fields?.[field];
    const errorId = `${fields[field]!.id}-error`;
    return {
      message: refused ? (
        <p id={errorId} className="field-error">
          {t(fields[field]!.key)}
        </p>
      ) : null,
      props: { "aria-invalid": refused || undefined, "aria-describedby": [refused ? errorId : "", describedBy ?? ""].filter(Boolean).join(" ") || undefined },
    };
  };
  return { at, rest: failure && !named ? failureText(t, failure) : null };
}

/**
 * The Cohort tab (issue 22): announcements, the completion rule and certificates, and the next cohort's copy. One
 * screen for the instructor and admin areas; `base` is the group's base path in the area.
 */
export function CohortScreen({ data, area }: { data: CohortData; area: "instructor" | "admin" }) {
  const { t } = useT();
  return (
    <div className="cohort-screen">
      <p className="area-page-lead">{t("cohort.lead")}</p>
      <PublishingSection data={data} area={area} />
      <AnnouncementsSection data={data} />
      <CertificatesSection data={data} />
      <CopySection data={data} area={area} />
    </div>
  );
}

/**
 * Whether the catalogue lists the group: a draft (a new group, or the copy made below) is published from here, and a
 * published group with no members yet can go back to draft. A draft's members could not open their course, so a
 * group with members stays published. An admin ends the cohort here (archives it, after a confirmation) and can bring
 * it back; the instructor's tab says who does.
 */
function PublishingSection({ data, area }: { data: CohortData; area: "instructor" | "admin" }) {
  const { t } = useT();
  const switcher = useFetcher<Result>();
  const [confirming, setConfirming] = useState<"draft" | "archived" | null>(null);
  const close = useCallback(() => setConfirming(null), []);
  const status = data.group.status;
  const members = data.roster.members.length;
  const canUnpublish = status === "published" && members === 0;
  // Ending a cohort (and undoing it) is an admin's: the instructor's tab says who to ask.
  const admin = area === "admin";
  const busy = switcher.state !== "idle";
  const error = problem(t, switcher.data, {});
  const saved = switcher.state === "idle" && switcher.data?.ok ? (switcher.data.status as string) : null;
  useEffect(() => {
    if (!busy) close();
  }, [busy, close]);
  // The button pressed goes with the status it changed: the focus moves to the section's new state, not the page.
  const stateRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (saved && (document.activeElement === document.body || !document.activeElement?.isConnected)) stateRef.current?.focus();
  }, [saved, status]);
  const submit = (next: "draft" | "published" | "archived") => switcher.submit({ intent: "publishing", status: next }, { method: "post" });
  return (
    <section className="card form-card cohort-section cohort-publishing" aria-labelledby="cohort-publishing-title" id="publishing" data-status={status}>
      <h2 id="cohort-publishing-title" className="block-title">
        {t("cohort.publishing.title")}
      </h2>
      <p className="cohort-publishing-state" ref={stateRef} tabIndex={-1}>
        <GroupStatusBadge status={status} />{" "}
        {status === "draft"
          ? t("cohort.publishing.draft")
          : status === "published"
            ? members > 0
              ? t(admin ? "cohort.publishing.publishedWithMembersAdmin" : "cohort.publishing.publishedWithMembers", { count: members })
              : t("cohort.publishing.published")
            : t(admin ? "cohort.publishing.archivedAdmin" : "cohort.publishing.archived")}
      </p>
      <div className="form-actions">
        {status === "draft" ? (
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => submit("published")}>
            {busy ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
            {t("cohort.publishing.publish")}
          </button>
        ) : null}
        {canUnpublish ? (
          <button type="button" className="btn btn-outline" disabled={busy} onClick={() => setConfirming("draft")}>
            {t("cohort.publishing.unpublish")}
          </button>
        ) : null}
        {status === "published" && admin ? (
          <button type="button" className="btn btn-outline" disabled={busy} onClick={() => setConfirming("archived")}>
            {t("cohort.publishing.archive")}
          </button>
        ) : null}
        {status === "archived" && admin ? (
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => submit("published")}>
            {busy ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
            {t("cohort.publishing.restore")}
          </button>
        ) : null}
        {status === "archived" && admin ? (
          <Link className="btn btn-outline" to={`/dashboard/admin/group/${data.group.slug}/update`}>
            {t("cohort.publishing.edit")}
          </Link>
        ) : null}
        {status !== "published" ? (
          <Link className="btn btn-ghost" to={`/content/${data.group.slug}`}>
            {t("groups.overview.previewPage")}
          </Link>
        ) : null}
        <p role="status" className={error ? "form-error" : "form-ok"}>
          {error ??
            (saved === "published" ? t("cohort.publishing.nowPublished") : saved === "draft" ? t("cohort.publishing.nowDraft") : saved === "archived" ? t("cohort.publishing.nowArchived") : "")}
        </p>
      </div>
      {canUnpublish ? (
        <ConfirmDialog
          open={confirming === "draft"}
          title={t("cohort.publishing.unpublishTitle", { title: isolate(data.group.title) })}
          confirmLabel={t("cohort.publishing.unpublish")}
          busyLabel={t("cohort.publishing.saving")}
          busy={busy}
          onConfirm={() => submit("draft")}
          onClose={close}
          returnFocusTo={stateRef}
        >
          <p>{t("cohort.publishing.unpublishBody")}</p>
        </ConfirmDialog>
      ) : null}
      {status === "published" && admin ? (
        <ConfirmDialog
          open={confirming === "archived"}
          title={t("groups.form.archiveTitle", { title: isolate(data.group.title) })}
          confirmLabel={t("groups.form.archiveConfirm")}
          busyLabel={t("cohort.publishing.saving")}
          busy={busy}
          onConfirm={() => submit("archived")}
          onClose={close}
          returnFocusTo={stateRef}
          danger
        >
          <p>{t("groups.form.archiveBody")}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function AnnouncementsSection({ data }: { data: CohortData }) {
  const { t } = useT();
  const poster = useFetcher<Result>();
  const remover = useFetcher<Result>();
  const formRef = useRef<HTMLFormElement>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [expires, setExpires] = useState("");
  useEffect(() => {
    if (poster.state === "idle" && poster.data?.ok) {
      formRef.current?.reset();
      setExpires("");
    }
  }, [poster.state, poster.data]);
  useEffect(() => {
    if (remover.state === "idle" && remover.data?.ok) setDeleting(null);
  }, [remover.state, remover.data]);
  // A deleted announcement's row goes with its Delete button: the keyboard goes on from the one now in its place.
  const listRef = useRef<HTMLUListElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const deletingAt = useRef(0);
  const fields = useFieldProblems(formRef, poster.data, poster.state === "idle", {
    title: { key: "cohort.field.title", id: "announce-title" },
    body: { key: "cohort.field.body", id: "announce-body" },
    expiresAt: { key: "cohort.field.expiresAt", id: "announce-expires" },
  });
  const error = fields.rest;
  const titleField = fields.at("title");
  const bodyField = fields.at("body");
  const expiresField = fields.at("expiresAt", "announce-expires-hint");
  // Posting e-mails every member: a double click must not post it twice.
  const once = useOneSubmission(poster.state);
  return (
    <section className="card form-card cohort-section" aria-labelledby="cohort-announce-title" id="announcements">
      <h2 ref={titleRef} id="cohort-announce-title" className="block-title" tabIndex={-1}>
        {t("cohort.announce.title")}
      </h2>
      <p className="field-hint field-hint-block">{t("cohort.announce.lead")}</p>
      <poster.Form method="post" ref={formRef} className="cohort-form" onSubmit={once} noValidate>
        <input type="hidden" name="intent" value="announce" />
        <input type="hidden" name="expiresAt" value={fromLocalInput(expires) ?? ""} />
        <div className="field">
          <label htmlFor="announce-title">{t("cohort.announce.titleLabel")}</label>
          <input id="announce-title" name="title" required maxLength={ANNOUNCEMENT_LIMITS.title} dir="auto" {...titleField.props} />
          {titleField.message}
        </div>
        <div className="field">
          <label htmlFor="announce-body">{t("cohort.announce.bodyLabel")}</label>
          <textarea id="announce-body" name="body" required rows={4} maxLength={ANNOUNCEMENT_LIMITS.body} dir="auto" {...bodyField.props} />
          {bodyField.message}
        </div>
        <div className="field">
          <label htmlFor="announce-expires">{t("cohort.announce.expiresLabel")}</label>
          <input id="announce-expires" type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} {...expiresField.props} />
          <p id="announce-expires-hint" className="field-hint field-hint-block">
            {t("cohort.announce.expiresHint")}
          </p>
          {expiresField.message}
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={poster.state !== "idle"}>
            {poster.state !== "idle" ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
            {t("cohort.announce.submit")}
          </button>
          <p role="status" className={error ? "form-error" : "form-ok"}>
            {error ?? (poster.state === "idle" && poster.data?.ok ? t("cohort.announce.postedTo", { count: data.roster.members.length }) : "")}
          </p>
        </div>
      </poster.Form>
      {data.announcements.length === 0 ? (
        <p className="muted">{t("cohort.announce.empty")}</p>
      ) : (
        <ul ref={listRef} role="list" className="cohort-list">
          {data.announcements.map((a, i) => (
            <li key={a._id} className="cohort-announcement">
              <div className="cohort-announcement-head">
                <h3 className="cohort-item-title user-text" tabIndex={-1}>
                  {a.title}
                </h3>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => {
                    deletingAt.current = i;
                    setDeleting(a._id);
                  }}
                  aria-label={`${t("cohort.announce.delete")}: ${a.title}`}
                >
                  {t("cohort.announce.delete")}
                </button>
              </div>
              <div className="markdown" dir="auto" dangerouslySetInnerHTML={{ __html: a.bodyHtml }} />
              <p className="cohort-meta">
                <span className="user-text">{a.author ?? ""}</span> · <When iso={a.createdAt} /> · {t("cohort.announce.dismissed", { count: a.dismissed })}
                {a.expiresAt ? (
                  <>
                    {" · "}
                    {t("cohort.announce.expires")} <When iso={a.expiresAt} />
                  </>
                ) : null}
              </p>
            </li>
          ))}
        </ul>
      )}
      <remover.Form method="post" id="announcement-delete-form">
        <input type="hidden" name="intent" value="delete-announcement" />
        <input type="hidden" name="announcementId" value={deleting ?? ""} />
      </remover.Form>
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t("cohort.announce.deleteTitle")}
        confirmLabel={t("cohort.announce.delete")}
        form="announcement-delete-form"
        busy={remover.state !== "idle"}
        danger
        returnFocusTo={focusInListAfter(listRef, deletingAt.current, ".cohort-item-title", titleRef)}
      >
        <p>{t("cohort.announce.deleteBody")}</p>
        {remover.data && !remover.data.ok ? <p className="form-error">{failureText(t, remover.data)}</p> : null}
      </ConfirmDialog>
    </section>
  );
}

function CertificatesSection({ data }: { data: CohortData }) {
  const { t, lang } = useT();
  const rule = useFetcher<Result>();
  const issuer = useFetcher<Result>();
  const single = useFetcher<Result>();
  const revoker = useFetcher<Result>();
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  // The member asked about (their figures read from the roster as it now stands), and the question for everyone.
  const [issuingId, setIssuingId] = useState<string | null>(null);
  const [issuingAll, setIssuingAll] = useState(false);
  useCloseWhenDone(issuer.state !== "idle", () => setIssuingAll(false));
  useCloseWhenDone(single.state !== "idle", () => setIssuingId(null));
  useEffect(() => {
    if (revoker.state === "idle" && revoker.data?.ok) setRevoking(null);
  }, [revoker.state, revoker.data]);
  const { roster } = data;
  const search = useNameSearch(roster.members, ownName);
  const issuing = issuingId === null ? null : (roster.members.find((m) => m._id === issuingId) ?? null);
  const ruleForm = useRef<HTMLFormElement>(null);
  const ruleFields = useFieldProblems(ruleForm, rule.data, rule.state === "idle", {
    overall: { key: "cohort.field.percent", id: "rule-overall" },
    attendance: { key: "cohort.field.percent", id: "rule-attendance" },
  });
  const ruleError = ruleFields.rest;
  const overallField = ruleFields.at("overall");
  const attendanceField = ruleFields.at("attendance");
  const issued = (d: Result | undefined) => (d?.ok && typeof d.issued === "number" ? t("cohort.certs.issued", { count: d.issued }) : null);
  const issueError = problem(t, issuer.data, {});
  const percent = (v: number | null) => (v === null ? "—" : formatPercent(v, lang));
  const day = (iso: string) => dateTimeFormat(localeOf(lang), { day: "numeric", month: "short", year: "numeric" }).format(new Date(iso));
  // A calendar day (YYYY-MM-DD, the group's own), shown as that day wherever the reader is.
  const calendarDay = (ymd: string) => dateTimeFormat(localeOf(lang), { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${ymd}T00:00:00Z`));
  // Certificates wait for the course's first day (the service refuses them before it).
  const notYet = roster.opensOn !== null;
  // Issued before the last lecture, a certificate says the course ended at the last one held: said beside the
  // buttons and again in each dialog.
  const ahead = roster.stillToCome;
  // Who issuing to everyone reaches: members who meet the rule and never had a certificate (a revoked one stays revoked;
  // its member's own Issue button gives it again).
  const newGraduates = roster.members.filter((m) => m.meetsRule && !m.certificate).length;
  const aheadNote = ahead ? t("cohort.certs.stillToCome", { count: ahead.lectures, last: calendarDay(ahead.lastOn), ends: calendarDay(ahead.endsOn) }) : null;
  return (
    <section className="card form-card cohort-section" aria-labelledby="cohort-certs-title">
      <h2 id="cohort-certs-title" className="block-title">
        {t("cohort.certs.title")}
      </h2>
      <rule.Form method="post" ref={ruleForm} className="cohort-form cohort-rule" aria-labelledby="cohort-rule-title" noValidate>
        <h3 id="cohort-rule-title" className="cohort-item-title">
          {t("cohort.rule.title")}
        </h3>
        <p className="field-hint field-hint-block">{t("cohort.rule.lead")}</p>
        <input type="hidden" name="intent" value="rule" />
        <div className="cohort-rule-fields">
          <div className="field">
            <label htmlFor="rule-overall">{t("cohort.rule.overall")}</label>
            <input id="rule-overall" name="overall" type="number" min={0} max={100} step={1} inputMode="numeric" defaultValue={roster.rule.overall ?? ""} {...overallField.props} />
            {overallField.message}
          </div>
          <div className="field">
            <label htmlFor="rule-attendance">{t("cohort.rule.attendance")}</label>
            <input id="rule-attendance" name="attendance" type="number" min={0} max={100} step={1} inputMode="numeric" defaultValue={roster.rule.attendance ?? ""} {...attendanceField.props} />
            {attendanceField.message}
          </div>
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-outline" disabled={rule.state !== "idle"}>
            {t("cohort.rule.save")}
          </button>
          <p role="status" className={ruleError ? "form-error" : "form-ok"}>
            {ruleError ?? (rule.state === "idle" && rule.data?.ok ? t("cohort.rule.saved") : "")}
          </p>
        </div>
      </rule.Form>

      <p className="field-hint field-hint-block">{t("cohort.certs.lead")}</p>
      {aheadNote ? (
        <p className="cohort-ahead" role="note">
          {aheadNote}
        </p>
      ) : null}
      <issuer.Form method="post" className="form-actions" id="certificate-issue-all-form">
        <input type="hidden" name="intent" value="issue-all" />
        {/* Every graduate is told at once: asked first, in a dialog that submits this form. */}
        <button type="button" className="btn btn-primary" onClick={() => setIssuingAll(true)} disabled={issuer.state !== "idle" || notYet || (roster.rule.overall === null && roster.rule.attendance === null)}>
          {issuer.state !== "idle" ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
          {t("cohort.certs.issueAll")}
        </button>
        <p role="status" className={issueError ? "form-error" : "form-ok"}>
          {issueError ??
            issued(issuer.state === "idle" ? issuer.data : undefined) ??
            (notYet ? t("cohort.certs.opensOn", { date: calendarDay(roster.opensOn!) }) : roster.rule.overall === null && roster.rule.attendance === null ? t("cohort.rule.none") : "")}
        </p>
      </issuer.Form>
      {single.data ? (
        <p className={single.data.ok ? "form-ok" : "form-error"} role="alert">
          {single.data.ok ? issued(single.data) : problem(t, single.data, {})}
        </p>
      ) : null}

      {roster.members.length === 0 ? (
        <p className="muted">{t("cohort.certs.empty")}</p>
      ) : (
        <NameSearch id="cohort-search" controls="cohort-table" search={search} />
      )}
      {search.shown.length === 0 ? null : (
        <div id="cohort-table" className="cohort-table-scroll" role="region" aria-label={t("cohort.certs.table")} tabIndex={0} data-scroll-stop="">
          <table className="data-table cohort-table">
            <thead>
              <tr>
                <th scope="col">{t("cohort.certs.member")}</th>
                <th scope="col" className="num">
                  {t("cohort.certs.overall")}
                </th>
                <th scope="col" className="num">
                  {t("cohort.certs.attendance")}
                </th>
                <th scope="col">{t("cohort.certs.status")}</th>
              </tr>
            </thead>
            <tbody>
              {search.shown.map((m) => {
                const c = m.certificate;
                const holds = c && !c.revokedAt;
                return (
                  <tr key={m._id}>
                    <th scope="row">
                      {/* Only the name is the student's own text: the pill follows the page's direction. */}
                      <span className="user-text">{m.name}</span>
                      <span className={m.meetsRule ? "cohort-pill cohort-pill-ok" : "cohort-pill"}>{m.meetsRule ? t("cohort.certs.meets") : t("cohort.certs.notYet")}</span>
                    </th>
                    <td className="num" data-label={t("cohort.certs.overall")}>
                      {percent(m.overall)}
                    </td>
                    <td className="num" data-label={t("cohort.certs.attendance")}>
                      {percent(m.attendance)}
                    </td>
                    <td className="cohort-status-cell" data-label={t("cohort.certs.status")}>
                      <div className="cohort-cert-cell">
                        <span>{holds ? t("cohort.certs.holds", { date: day(c.issuedAt) }) : c?.revokedAt ? t("cohort.certs.revokedOn", { date: day(c.revokedAt) }) : t("cohort.certs.none")}</span>
                        {c ? (
                          <a className="btn btn-ghost btn-sm" href={`/certificates/${c.code}`} target="_blank" rel="noopener">
                            {t("cohort.certs.view")}
                          </a>
                        ) : null}
                        {holds ? (
                          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setRevoking({ id: c._id, name: m.name })}>
                            {t("cohort.certs.revoke")}
                          </button>
                        ) : (
                          // Issuing tells the student at once (bell and e-mail) and makes a public page: asked first.
                          <button
                            type="button"
                            className="btn btn-outline btn-sm"
                            disabled={single.state !== "idle" || notYet}
                            aria-label={`${t(c ? "cohort.certs.issueAgain" : "cohort.certs.issueOne")}: ${m.name}`}
                            onClick={() => setIssuingId(m._id)}
                          >
                            {t(c ? "cohort.certs.issueAgain" : "cohort.certs.issueOne")}
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {roster.former.length > 0 ? (
        <div className="cohort-former">
          <h3 id="cohort-former-title" className="cohort-former-title">
            {t("cohort.certs.former")}
          </h3>
          <p className="field-hint field-hint-block">{t("cohort.certs.formerLead")}</p>
          <ul role="list" className="cohort-former-list" aria-labelledby="cohort-former-title">
            {roster.former.map((f) => {
              const c = f.certificate;
              return (
                <li key={c._id} className="cohort-cert-cell">
                  <span className="user-text cohort-former-name">{f.name}</span>
                  <span>{c.revokedAt ? t("cohort.certs.revokedOn", { date: day(c.revokedAt) }) : t("cohort.certs.holds", { date: day(c.issuedAt) })}</span>
                  <a className="btn btn-ghost btn-sm" href={`/certificates/${c.code}`} target="_blank" rel="noopener">
                    {t("cohort.certs.view")}
                  </a>
                  {c.revokedAt ? null : (
                    <button type="button" className="btn btn-ghost btn-sm" onClick={() => setRevoking({ id: c._id, name: f.name })}>
                      {t("cohort.certs.revoke")}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      <revoker.Form method="post" id="certificate-revoke-form" noValidate>
        <input type="hidden" name="intent" value="revoke" />
        <input type="hidden" name="certificateId" value={revoking?.id ?? ""} />
      </revoker.Form>
      <ConfirmDialog
        open={issuing !== null}
        onClose={() => setIssuingId(null)}
        title={t("cohort.certs.issueTitle", { name: isolate(issuing?.name ?? "") })}
        confirmLabel={t("cohort.certs.issueOne")}
        busy={single.state !== "idle"}
        onConfirm={() => issuing && single.submit({ intent: "issue-one", userId: issuing._id }, { method: "post" })}
      >
        <p>{t("cohort.certs.issueBody")}</p>
        {/* By hand, a member short of the rule may be given one: the dialog says they are, with their figures. */}
        {issuing && !issuing.meetsRule ? (
          <p className="cohort-ahead">{t("cohort.certs.belowRule", { name: isolate(issuing.name), overall: percent(issuing.overall), attendance: percent(issuing.attendance) })}</p>
        ) : null}
        {aheadNote ? <p className="cohort-ahead">{aheadNote}</p> : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={issuingAll}
        onClose={() => setIssuingAll(false)}
        title={t("cohort.certs.issueAllTitle")}
        confirmLabel={t("cohort.certs.issueAllConfirm")}
        busy={issuer.state !== "idle"}
        form="certificate-issue-all-form"
      >
        <p>
          <strong>{t("cohort.certs.issueAllCount", { count: newGraduates })}</strong>
        </p>
        <p>{t("cohort.certs.issueAllBody")}</p>
        {aheadNote ? <p className="cohort-ahead">{aheadNote}</p> : null}
      </ConfirmDialog>
      <ConfirmDialog open={revoking !== null} onClose={() => setRevoking(null)} title={t("cohort.certs.revokeTitle", { name: revoking?.name ?? "" })} confirmLabel={t("cohort.certs.revoke")} form="certificate-revoke-form" busy={revoker.state !== "idle"} danger>
        <p>{t("cohort.certs.revokeBody")}</p>
        <div className="field">
          <label htmlFor="revoke-reason">{t("cohort.certs.reason")}</label>
          <textarea
            id="revoke-reason"
            name="reason"
            form="certificate-revoke-form"
            required
            rows={3}
            maxLength={CERTIFICATE_LIMITS.reason}
            dir="auto"
            aria-invalid={(revoker.data && !revoker.data.ok && !!revoker.data.fields?.reason) || undefined}
            aria-describedby={revoker.data && !revoker.data.ok ? "revoke-reason-error" : undefined}
          />
        </div>
        {revoker.data && !revoker.data.ok ? (
          <p id="revoke-reason-error" className="form-error">
            {problem(t, revoker.data, { reason: "cohort.field.reason" })}
          </p>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}

function CopySection({ data, area }: { data: CohortData; area: "instructor" | "admin" }) {
  const { t, lang } = useT();
  const copier = useFetcher<Result>();
  const weekday = data.firstLecture ? dateTimeFormat(localeOf(lang), { weekday: "long", timeZone: data.group.timeZone }).format(new Date(data.firstLecture)) : null;
  const form = useRef<HTMLFormElement>(null);
  const copyFields = useFieldProblems(form, copier.data, copier.state === "idle", {
    title: { key: "cohort.field.groupTitle", id: "copy-title" },
    startDate: { key: "cohort.field.startDate", id: "copy-start" },
    timeZone: { key: "cohort.field.timeZone", id: "copy-zone" },
  });
  const error = copyFields.rest;
  const titleField = copyFields.at("title", "copy-title-hint");
  const startField = copyFields.at("startDate", "copy-start-hint");
  const zoneField = copyFields.at("timeZone");
  const done = copier.state === "idle" && copier.data?.ok ? (copier.data as unknown as { copy: { slug: string; title: string }; copied: { lectures: number; tasks: number; quizzes: number } }) : null;
  const newBase = area === "admin" ? "/dashboard/admin/group" : "/instructor/group";
  const once = useOneSubmission(copier.state);
  // A copy made: the form starts over (the title back to this group's, no date), so another click makes nothing.
  // The copy's title starts as this group's: while it still is, the form says so (two groups of one title look alike
  // in the catalogue and the lists).
  const [sameTitle, setSameTitle] = useState(true);
  useEffect(() => {
    if (!done) return;
    form.current?.reset();
    setSameTitle(true);
  }, [done]);
  return (
    <section className="card form-card cohort-section" aria-labelledby="cohort-copy-title">
      <h2 id="cohort-copy-title" className="block-title">
        {t("cohort.copy.title")}
      </h2>
      <p className="field-hint field-hint-block">{t("cohort.copy.lead")}</p>
      <copier.Form method="post" className="cohort-form" ref={form} onSubmit={once} noValidate>
        <input type="hidden" name="intent" value="copy" />
        <div className="field">
          <label htmlFor="copy-title">{t("cohort.copy.titleLabel")}</label>
          <input
            id="copy-title"
            name="title"
            required
            maxLength={COPY_LIMITS.title}
            dir="auto"
            defaultValue={data.group.title}
            {...titleField.props}
            onChange={(e) => setSameTitle(e.target.value.trim() === data.group.title.trim())}
          />
          <p id="copy-title-hint" className="field-hint field-hint-block" data-tone={sameTitle ? "attention" : undefined}>
            {t(sameTitle ? "cohort.copy.sameTitle" : "cohort.copy.titleHint")}
          </p>
          {titleField.message}
        </div>
        <div className="cohort-rule-fields">
          <div className="field">
            <label htmlFor="copy-start">{t("cohort.copy.startLabel")}</label>
            <input id="copy-start" name="startDate" type="date" required {...startField.props} />
            {startField.message}
          </div>
          <div className="field">
            <label htmlFor="copy-zone">{t("cohort.copy.zoneLabel")}</label>
            <select id="copy-zone" name="timeZone" defaultValue={data.group.timeZone} {...zoneField.props}>
              <ZoneOptions zones={data.timeZones} />
            </select>
            {zoneField.message}
          </div>
        </div>
        <p id="copy-start-hint" className="field-hint field-hint-block">
          {weekday ? t("cohort.copy.startHint", { weekday }) : t("cohort.copy.startHintNone")}
        </p>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={copier.state !== "idle"}>
            {copier.state !== "idle" ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
            {t("cohort.copy.submit")}
          </button>
          <p role="status" className={error ? "form-error" : "form-ok"}>
            {error ?? (done ? `${t("cohort.copy.done", { title: done.copy.title, lectures: done.copied.lectures, tasks: done.copied.tasks, quizzes: done.copied.quizzes })} ${t("cohort.copy.draftNext")}` : "")}
          </p>
          {done ? (
            <Link className="btn btn-outline btn-sm" to={`${newBase}/${done.copy.slug}/lectures`}>
              {t("cohort.copy.open")}
            </Link>
          ) : null}
        </div>
      </copier.Form>
    </section>
  );
}
