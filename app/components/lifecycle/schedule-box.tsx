import { Link, useFetcher, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { focusIfLost } from "~/lib/focus";
import { fromLocalInput, toLocalInput, When } from "~/components/lectures/when";
import { failureText, publishAtText, type FailureLike } from "~/lib/group-errors";
import { useT } from "~/lib/i18n";
import type { ScheduleKind } from "~/lib/lifecycle-schemas";

type Result = ({ ok: true; intent: string } & Record<string, unknown>) | (FailureLike & { intent: string });

/**
 * "Publish later" (issue 22) on a lecture's, task's or quiz's form: a time at which the server publishes the draft
 * (or shows the task) and tells the members. A published lecture or quiz says it must be a draft first.
 */
export function ScheduleBox({ kind, id, publishAt, published }: { kind: ScheduleKind; id: string; publishAt: string | null; published: boolean }) {
  const { t } = useT();
  const fetcher = useFetcher<Result>();
  const revalidator = useRevalidator();
  const [at, setAt] = useState(() => toLocalInput(publishAt));
  useEffect(() => setAt(toLocalInput(publishAt)), [publishAt]);
  // "Take off the schedule" (or "Show now") goes with the schedule it took off: the keyboard goes on from the time.
  const timeRef = useRef<HTMLInputElement>(null);
  const hadTime = useRef(publishAt !== null);
  useEffect(() => {
    if (hadTime.current && publishAt === null) focusIfLost(() => timeRef.current);
    hadTime.current = publishAt !== null;
  }, [publishAt]);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) revalidator.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);
  const uid = `schedule-${kind}`;
  const blocked = published && kind !== "task";
  const error = fetcher.data && !fetcher.data.ok ? (fetcher.data.fields?.publishAt ? publishAtText(t, fetcher.data) : failureText(t, fetcher.data)) : null;
  // A refused time is said at its field (marked invalid and described by the sentence), not only beside the buttons.
  const timeRefused = fetcher.state === "idle" && !!fetcher.data && !fetcher.data.ok && !!fetcher.data.fields?.publishAt;
  const done = fetcher.state === "idle" && fetcher.data?.ok ? (fetcher.data.intent === "clear" ? t("schedule.cleared") : t("schedule.saved")) : "";
  return (
    <section className="card form-card schedule-box" aria-labelledby={`${uid}-title`}>
      <h2 id={`${uid}-title`} className="block-title">
        {t("schedule.title")}
      </h2>
      <p className="field-hint field-hint-block">{t(kind === "task" ? "schedule.leadTask" : "schedule.leadDraft")}</p>
      {publishAt ? (
        <p>
          <ScheduledBadge iso={publishAt} />
        </p>
      ) : null}
      {blocked ? (
        <p className="muted">{t("schedule.published")}</p>
      ) : (
        <fetcher.Form method="post" action="/staff/schedule" className="cohort-form">
          <input type="hidden" name="kind" value={kind} />
          <input type="hidden" name="id" value={id} />
          <input type="hidden" name="publishAt" value={fromLocalInput(at) ?? ""} />
          <div className="field">
            <label htmlFor={`${uid}-at`}>{t("schedule.at")}</label>
            <input
              ref={timeRef}
              id={`${uid}-at`}
              type="datetime-local"
              value={at}
              onChange={(e) => setAt(e.target.value)}
              required
              aria-invalid={timeRefused || undefined}
              aria-describedby={timeRefused ? `${uid}-status` : undefined}
            />
          </div>
          <div className="form-actions">
            <button type="submit" name="intent" value="schedule" className="btn btn-outline" disabled={fetcher.state !== "idle"}>
              {t("schedule.save")}
            </button>
            {publishAt ? (
              <button type="submit" name="intent" value="clear" className="btn btn-ghost" formNoValidate disabled={fetcher.state !== "idle"}>
                {t(kind === "task" ? "schedule.showNow" : "schedule.clear")}
              </button>
            ) : null}
            <p id={`${uid}-status`} role="status" className={error ? "form-error" : "form-ok"}>
              {error ?? done}
            </p>
          </div>
        </fetcher.Form>
      )}
    </section>
  );
}

/** "Scheduled for <time>" in the staff lists (styles in base.css: the lists live in several areas). */
export function ScheduledBadge({ iso }: { iso: string }) {
  const { t } = useT();
  return (
    // One run of text, so a narrow column wraps it as a sentence, not as two squeezed columns.
    <span className="badge badge-amber badge-sentence">
      <span>
        {t("schedule.badge")} <When iso={iso} />
      </span>
    </span>
  );
}

/** "Copy to a group" (issue 22) on a lecture's form: into another group the viewer runs, or this one. */
export function CopyLectureBox({ lectureId, groups, area }: { lectureId: string; groups: { _id: string; slug: string; title: string }[]; area: "instructor" | "admin" }) {
  const { t } = useT();
  const fetcher = useFetcher<Result>();
  const [startsAt, setStartsAt] = useState("");
  const done = fetcher.state === "idle" && fetcher.data?.ok ? (fetcher.data as unknown as { group: { slug: string; title: string }; lecture: { slug: string } }) : null;
  const error = fetcher.data && !fetcher.data.ok ? (fetcher.data.fields?.groupId ? t("lectureCopy.group") : failureText(t, fetcher.data)) : null;
  const base = area === "admin" ? "/dashboard/admin/group" : "/instructor/group";
  return (
    <section className="card form-card copy-box" aria-labelledby="copy-lecture-title">
      <h2 id="copy-lecture-title" className="block-title">
        {t("lectureCopy.title")}
      </h2>
      <p className="field-hint field-hint-block">{t("lectureCopy.lead")}</p>
      <fetcher.Form method="post" action="/staff/copy-lecture" className="cohort-form">
        <input type="hidden" name="lectureId" value={lectureId} />
        <input type="hidden" name="startsAt" value={fromLocalInput(startsAt) ?? ""} />
        <div className="cohort-rule-fields">
          <div className="field">
            <label htmlFor="copy-lecture-group">{t("lectureCopy.group")}</label>
            {/* No group chosen for the staff member: a copy lands only where they pick. */}
            <select id="copy-lecture-group" name="groupId" required defaultValue="">
              <option value="" disabled>
                {t("lectureCopy.choose")}
              </option>
              {groups.map((g) => (
                <option key={g._id} value={g._id} dir="auto">
                  {g.title}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="copy-lecture-start">{t("lectureCopy.startsAt")}</label>
            <input id="copy-lecture-start" type="datetime-local" value={startsAt} onChange={(e) => setStartsAt(e.target.value)} aria-describedby="copy-lecture-start-hint" />
          </div>
        </div>
        <p id="copy-lecture-start-hint" className="field-hint field-hint-block">
          {t("lectureCopy.startsHint")}
        </p>
        <div className="form-actions">
          <button type="submit" className="btn btn-outline" disabled={fetcher.state !== "idle"}>
            {t("lectureCopy.submit")}
          </button>
          <p role="status" className={error ? "form-error" : "form-ok"}>
            {error ?? (done ? t("lectureCopy.done", { group: done.group.title }) : "")}
          </p>
          {done ? (
            <Link className="btn btn-ghost btn-sm" to={`${base}/${done.group.slug}/lectures/update/${done.lecture.slug}`}>
              {t("lectureCopy.open")}
            </Link>
          ) : null}
        </div>
      </fetcher.Form>
    </section>
  );
}
