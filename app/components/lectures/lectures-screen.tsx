import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { ArrowDownIcon, PencilIcon } from "~/components/groups/extra-icons";
import { ArrowUpIcon, BookIcon, CalendarIcon, PlusIcon, TrashIcon, UsersIcon } from "~/components/icons";
import { ToastRegion, useToasts } from "~/components/toast";
import type { MessageKey } from "~/i18n/en";
import type { FailureLike } from "~/lib/group-errors";
import { useT } from "~/lib/i18n";
import { failureText } from "~/lib/group-errors";
import { fromLocalInput, When } from "./when";
import { ScheduledBadge } from "~/components/lifecycle/schedule-box";
import { EmptyState } from "~/components/empty-state";
import { isolate } from "~/lib/bidi";
import { focusIfLost } from "~/lib/focus";
import { ZoneOptions } from "~/components/zone-options";
import type { ZoneChoice } from "~/lib/time-zones";

export interface StaffLecture {
  _id: string;
  slug: string;
  title: string;
  startsAt: string | null;
  order: number;
  published: boolean;
  /** A draft the server publishes at this time (issue 22). */
  publishAt?: string | null;
}

type Result = ({ ok: true; intent: string } | (FailureLike & { ok: false; intent: string })) & { target?: string };

/** Field messages in the reader's language (the server's English message when a field has no text of its own). */
const FIELD_KEYS: Record<string, MessageKey> = {
  title: "lectures.error.title",
  startsAt: "lectures.error.startsAt",
  days: "lectures.error.days",
  time: "lectures.error.time",
  from: "lectures.error.from",
  count: "lectures.error.count",
  until: "lectures.error.until",
};

/** Refusals of a weekly series that its fields' own words would misstate. */
const CODE_KEYS: Record<string, MessageKey> = {
  series_too_long: "lectures.error.tooMany",
  series_past_years: "lectures.error.pastYears",
};

export function useFieldError(result: Result | undefined, intent: string) {
  const { t } = useT();
  return (field: string): string | null => {
    if (!result || result.ok || result.intent !== intent || !result.fields?.[field]) return null;
    const key = CODE_KEYS[result.code] ?? FIELD_KEYS[field];
    return key ? t(key) : result.fields[field]!;
  };
}

const WEEKDAYS: MessageKey[] = ["lectures.day.0", "lectures.day.1", "lectures.day.2", "lectures.day.3", "lectures.day.4", "lectures.day.5", "lectures.day.6"];

/**
 * A group's lectures for its staff: the schedule in order with publish, reorder, edit, attendance and delete, a form
 * for one lecture and a form for a weekly series. `base` is the group's lecture path in this area.
 */
export function LecturesScreen({
  lectures,
  base,
  groupTitle,
  timeZone,
  timeZones,
}: {
  lectures: StaffLecture[];
  base: string;
  groupTitle: string;
  /** The group's own zone: a weekly series is set in it unless another is chosen. */
  timeZone: string;
  timeZones: ZoneChoice[];
}) {
  const { t } = useT();
  const fetcher = useFetcher<Result>();
  const { toasts, show, dismiss } = useToasts();
  const [form, setForm] = useState<"none" | "one" | "series">(lectures.length === 0 ? "one" : "none");
  const oneButton = useRef<HTMLButtonElement>(null);
  const seriesButton = useRef<HTMLButtonElement>(null);
  const [deleting, setDeleting] = useState<StaffLecture | null>(null);
  const handled = useRef<unknown>(null);
  const busy = fetcher.state !== "idle";
  const result = fetcher.data;

  useEffect(() => {
    if (!result || handled.current === result || fetcher.state !== "idle") return;
    handled.current = result;
    if (!result.ok) {
      // A refusal at a field is said there; anything else in the reader's words (English only where no words exist).
      if (!result.fields) show("error", failureText(t, result));
      return;
    }
    const done: Record<string, MessageKey> = {
      create: "lectures.created",
      "order-by-date": "lectures.sortedByDate",
      publish: "lectures.saved",
      delete: "lectures.deleted",
    };
    const moved = movedRef.current;
    if (result.intent === "order" && moved) {
      // Said with where it is now; the focus stays with it: the same arrow if it can still move that way, else the other.
      movedRef.current = null;
      const at = lectures.findIndex((l) => l._id === moved.id);
      if (at >= 0) show("success", t("lectures.movedTo", { title: isolate(lectures[at]!.title), n: at + 1, total: lectures.length }));
      const active = document.activeElement;
      if (!active || active === document.body || (active as HTMLButtonElement).disabled) {
        const same = document.querySelector<HTMLButtonElement>(`[data-move="${moved.id}:${moved.by}"]:not(:disabled)`);
        (same ?? document.querySelector<HTMLButtonElement>(`[data-move="${moved.id}:${-moved.by}"]`))?.focus();
      }
    } else if (result.intent === "schedule") {
      // How many were made, so a series that came out shorter than meant is noticed at once.
      const made = (result as { lectures?: unknown }).lectures;
      show("success", t("lectures.scheduledCount", { count: Array.isArray(made) ? made.length : 0 }));
    } else if (done[result.intent]) show("success", t(done[result.intent]!));
    if (result.intent === "create" || result.intent === "schedule") {
      setForm("none");
      // The form closed under the focus: back to the button that opened it.
      const opener = result.intent === "create" ? oneButton : seriesButton;
      focusIfLost(() => opener.current);
    }
    if (result.intent === "delete") setDeleting(null);
    // A deleted row, or the list sorted again under the focus: the list's heading.
    if (result.intent === "delete" || result.intent === "order-by-date") focusIfLost(() => document.getElementById("lectures-title"));
  }, [result, fetcher.state, show, t, lectures]);

  // Order 0 everywhere: the schedule follows the dates (worker/services/lectures.ts LECTURE_ORDER).
  const byDate = lectures.every((l) => l.order === 0);
  const movedRef = useRef<{ id: string; by: -1 | 1 } | null>(null);
  const move = (index: number, by: -1 | 1) => {
    movedRef.current = { id: lectures[index]!._id, by };
    const ids = lectures.map((l) => l._id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    fetcher.submit({ intent: "order", ids: JSON.stringify(ids) }, { method: "post" });
  };

  return (
    <section className="lectures-screen" aria-labelledby="lectures-title">
      <ToastRegion toasts={toasts} onDismiss={dismiss} />
      <div className="section-head">
        <div>
          <h2 id="lectures-title" className="block-title" tabIndex={-1}>
            {t("lectures.title")}
          </h2>
          <p className="muted">{t("lectures.count", { count: lectures.length })}</p>
        </div>
        <div className="section-actions">
          <button ref={oneButton} type="button" className="btn btn-primary btn-sm" aria-expanded={form === "one"} onClick={() => setForm(form === "one" ? "none" : "one")}>
            <PlusIcon />
            {t("lectures.new")}
          </button>
          <button ref={seriesButton} type="button" className="btn btn-outline btn-sm" aria-expanded={form === "series"} onClick={() => setForm(form === "series" ? "none" : "series")}>
            <CalendarIcon />
            {t("lectures.series")}
          </button>
        </div>
      </div>

      {lectures.length > 1 ? (
        <div className="lecture-order-note">
          <p className="muted">{t(byDate ? "lectures.orderByDate" : "lectures.orderCustom")}</p>
          {byDate ? null : (
            <button type="button" className="btn btn-ghost btn-sm" disabled={busy} onClick={() => fetcher.submit({ intent: "order-by-date" }, { method: "post" })}>
              <CalendarIcon />
              {t("lectures.sortByDate")}
            </button>
          )}
        </div>
      ) : null}

      {form === "one" ? <NewLectureForm fetcher={fetcher} /> : null}
      {form === "series" ? <SeriesForm fetcher={fetcher} groupZone={timeZone} zones={timeZones} /> : null}

      {lectures.length === 0 ? (
        <EmptyState icon={<BookIcon />} title={t("lectures.empty.title")} body={t("lectures.empty.body", { group: groupTitle })} />
      ) : (
        <ol className="lecture-list" aria-busy={busy}>
          {lectures.map((l, i) => (
            <li key={l._id} className="lecture-row" data-draft={!l.published || undefined}>
              <span className="lecture-order" aria-hidden="true">
                {i + 1}
              </span>
              <div className="lecture-main">
                <Link to={`${base}/update/${l.slug}`} className="lecture-title" dir="auto">
                  {l.title}
                </Link>
                <span className="lecture-when">
                  <When iso={l.startsAt} />
                </span>
              </div>
              {l.publishAt ? <ScheduledBadge iso={l.publishAt} /> : <span className={`badge ${l.published ? "badge-green" : "badge-amber"}`}>{t(l.published ? "lectures.published" : "lectures.draft")}</span>}
              <div className="lecture-actions">
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  disabled={busy}
                  onClick={() => fetcher.submit({ intent: "publish", id: l._id, published: String(!l.published) }, { method: "post" })}
                >
                  {t(l.published ? "lectures.unpublish" : "lectures.publish")}
                  <span className="visually-hidden"> {l.title}</span>
                </button>
                <Link to={`${base}/${l.slug}/attendance`} className="btn btn-outline btn-sm">
                  <UsersIcon />
                  {t("lectures.attendance")}
                  <span className="visually-hidden"> {l.title}</span>
                </Link>
                <Link to={`${base}/update/${l.slug}`} className="btn btn-ghost btn-sm">
                  <PencilIcon />
                  {t("lectures.edit")}
                  <span className="visually-hidden"> {l.title}</span>
                </Link>
                <button type="button" className="btn btn-ghost btn-icon btn-sm" disabled={busy || i === 0} onClick={() => move(i, -1)} aria-label={t("lectures.moveUp", { title: l.title })} data-move={`${l._id}:-1`}>
                  <ArrowUpIcon />
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-icon btn-sm"
                  disabled={busy || i === lectures.length - 1}
                  onClick={() => move(i, 1)}
                  aria-label={t("lectures.moveDown", { title: l.title })}
                  data-move={`${l._id}:1`}
                >
                  <ArrowDownIcon />
                </button>
                <button type="button" className="btn btn-ghost btn-icon btn-sm btn-destructive-ghost" disabled={busy} onClick={() => setDeleting(l)} aria-label={t("lectures.delete", { title: l.title })}>
                  <TrashIcon />
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}

      <ConfirmDialog
        danger
        open={deleting !== null}
        title={t("lectures.deleteTitle", { title: isolate(deleting?.title ?? "") })}
        confirmLabel={t("lectures.deleteConfirm")}
        busyLabel={t("lectures.deleting")}
        busy={busy && fetcher.formData?.get("intent") === "delete"}
        onConfirm={() => deleting && fetcher.submit({ intent: "delete", id: deleting._id }, { method: "post" })}
        onClose={() => setDeleting(null)}
      >
        <p>{t("lectures.deleteBody")}</p>
      </ConfirmDialog>
    </section>
  );
}

type LectureFetcher = ReturnType<typeof useFetcher<Result>>;

function NewLectureForm({ fetcher }: { fetcher: LectureFetcher }) {
  const { t } = useT();
  const [title, setTitle] = useState("");
  const [startsAt, setStartsAt] = useState("");
  const [published, setPublished] = useState(false);
  const error = useFieldError(fetcher.data, "create");
  const busy = fetcher.state !== "idle";
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const lecture = { title, startsAt: fromLocalInput(startsAt), published };
    fetcher.submit({ intent: "create", lecture: JSON.stringify(lecture) }, { method: "post" });
  };
  return (
    <form className="card form-card lecture-form" onSubmit={submit} aria-labelledby="new-lecture-title">
      <h3 id="new-lecture-title" className="form-card-title">
        {t("lectures.new")}
      </h3>
      <div className="field">
        <label htmlFor="new-lecture-name">{t("lectures.field.title")}</label>
        <input id="new-lecture-name" value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={160} aria-invalid={!!error("title") || undefined} dir="auto" />
        {error("title") ? <p className="field-error">{error("title")}</p> : null}
      </div>
      <div className="field">
        <label htmlFor="new-lecture-start">{t("lectures.field.startsAt")}</label>
        <input id="new-lecture-start" type="datetime-local" value={startsAt} onChange={(e) => setStartsAt(e.target.value)} aria-describedby="new-lecture-start-hint" />
        <p id="new-lecture-start-hint" className="field-hint">
          {t("lectures.field.startsAtHint")}
        </p>
      </div>
      <label className="check-field">
        <input type="checkbox" checked={published} onChange={(e) => setPublished(e.target.checked)} />
        <span>{t("lectures.field.publishNow")}</span>
      </label>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t("lectures.saving") : t("lectures.add")}
        </button>
      </div>
    </form>
  );
}

function SeriesForm({ fetcher, groupZone, zones }: { fetcher: LectureFetcher; groupZone: string; zones: ZoneChoice[] }) {
  const { t } = useT();
  const [timeZone, setTimeZone] = useState(groupZone);
  const [title, setTitle] = useState(t("lectures.seriesDefaultTitle"));
  const [days, setDays] = useState<number[]>([]);
  const [time, setTime] = useState("18:00");
  const [from, setFrom] = useState("");
  const [mode, setMode] = useState<"count" | "until">("count");
  const [count, setCount] = useState("8");
  const [until, setUntil] = useState("");
  const [published, setPublished] = useState(false);
  const error = useFieldError(fetcher.data, "schedule");
  const busy = fetcher.state !== "idle";
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const series = { title, days, time, from, timeZone, published, ...(mode === "count" ? { count: Number(count) } : { until }) };
    fetcher.submit({ intent: "schedule", series: JSON.stringify(series) }, { method: "post" });
  };
  return (
    <form className="card form-card lecture-form" onSubmit={submit} aria-labelledby="series-title">
      <h3 id="series-title" className="form-card-title">
        {t("lectures.series")}
      </h3>
      <p className="muted">{t("lectures.seriesLead")}</p>
      <div className="field">
        <label htmlFor="series-name">{t("lectures.field.seriesTitle")}</label>
        <input id="series-name" value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={150} dir="auto" aria-invalid={!!error("title") || undefined} />
        {error("title") ? <p className="field-error">{error("title")}</p> : null}
      </div>
      <fieldset className="field weekday-field" aria-invalid={!!error("days") || undefined}>
        <legend>{t("lectures.field.days")}</legend>
        <div className="weekday-options">
          {WEEKDAYS.map((key, day) => (
            <label key={day} className="weekday-option">
              <input type="checkbox" checked={days.includes(day)} onChange={(e) => setDays((d) => (e.target.checked ? [...d, day].sort() : d.filter((x) => x !== day)))} />
              <span>{t(key)}</span>
            </label>
          ))}
        </div>
        {error("days") ? <p className="field-error">{error("days")}</p> : null}
      </fieldset>
      <div className="field-row">
        <div className="field">
          <label htmlFor="series-time">{t("lectures.field.time")}</label>
          <input id="series-time" type="time" value={time} onChange={(e) => setTime(e.target.value)} required />
          {error("time") ? <p className="field-error">{error("time")}</p> : null}
        </div>
        <div className="field">
          <label htmlFor="series-from">{t("lectures.field.from")}</label>
          <input id="series-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} required />
          {error("from") ? <p className="field-error">{error("from")}</p> : null}
        </div>
        <div className="field">
          <label htmlFor="series-zone">{t("lectures.field.timeZone")}</label>
          <select id="series-zone" value={timeZone} onChange={(e) => setTimeZone(e.target.value)} aria-describedby="series-zone-hint">
            <ZoneOptions zones={zones} />
          </select>
          <p id="series-zone-hint" className="field-hint">
            {t("lectures.field.timeZoneHint")}
          </p>
          {error("timeZone") ? <p className="field-error">{error("timeZone")}</p> : null}
        </div>
      </div>
      <fieldset className="field weekday-field">
        <legend>{t("lectures.field.ends")}</legend>
        <div className="field-row">
          <label className="check-field">
            <input type="radio" name="series-end" checked={mode === "count"} onChange={() => setMode("count")} />
            <span>{t("lectures.field.afterCount")}</span>
            <input type="number" min={1} max={60} value={count} onChange={(e) => setCount(e.target.value)} disabled={mode !== "count"} aria-label={t("lectures.field.count")} className="input-narrow" />
            <span aria-hidden="true">{t("lectures.field.sessionsUnit")}</span>
          </label>
          <label className="check-field">
            <input type="radio" name="series-end" checked={mode === "until"} onChange={() => setMode("until")} />
            <span>{t("lectures.field.until")}</span>
            <input type="date" value={until} onChange={(e) => setUntil(e.target.value)} disabled={mode !== "until"} aria-label={t("lectures.field.untilDate")} />
          </label>
        </div>
        {error("count") || error("until") ? <p className="field-error">{error("count") ?? error("until")}</p> : null}
      </fieldset>
      <label className="check-field">
        <input type="checkbox" checked={published} onChange={(e) => setPublished(e.target.checked)} />
        <span>{t("lectures.field.publishNow")}</span>
      </label>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t("lectures.saving") : t("lectures.createSeries")}
        </button>
      </div>
    </form>
  );
}
