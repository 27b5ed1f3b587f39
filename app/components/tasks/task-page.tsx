import { useFetcher } from "@remix-run/react";
import { CourseBreadcrumb } from "~/components/breadcrumb";
import { useEffect, useRef, useState } from "react";
import { CheckIcon } from "~/components/icons";
import { ExerciseWorkspace } from "~/components/exercises/exercise-workspace";
import type { StudentExercise } from "~/components/exercises/types";
import { When } from "~/components/lectures/when";
import { useHydrated } from "~/hooks/use-hydrated";
import type { MessageKey } from "~/i18n/en";
import { failureText as failureWords, type FailureLike } from "~/lib/group-errors";
import { EMPTY_FILE_MESSAGE } from "~/lib/hand-in-files";
import { RubricView } from "./rubrics";
import { SubmissionThread, type ThreadComment, type ThreadVersion } from "./submission-thread";
import type { RubricAssessment, RubricCriterion } from "~/lib/rubric-schemas";
import { useT } from "~/lib/i18n";
import { useFocusFirstProblem } from "~/lib/use-editor-focus";
import { latePenalty } from "~/lib/late-penalty";
import { TASK_LIMITS, type SubmissionState } from "~/lib/task-rules";
import { STATE_KEYS } from "./state";
import { WorkLink } from "./work-link";
import { HandInFile } from "./hand-in-file";
import { segment } from "~/lib/paths";
import { RefusalText } from "~/components/form-field";

export interface PageTask {
  _id: string;
  slug: string;
  title: string;
  dueAt: string | null;
  maxScore: number;
  allowLate: boolean;
  /** Grades are released together by staff (ADR 0021): a handed-in task says so instead of waiting silently. */
  gradesHeld: boolean;
  latePenaltyPerDay: number;
  latePenaltyFloor: number;
  /** The task's own due time when the reader has an extension (`dueAt` is then theirs). */
  extendedFrom?: string | null;
  /** A file hand-in: the kinds accepted (empty: a link) and the largest file in megabytes. */
  fileKinds?: string[];
  maxFileMb?: number;
  /** The rubric the task is graded with, shown before the work is handed in. */
  rubric?: { title: string; criteria: RubricCriterion[] } | null;
  bodyHtml: string;
  lecture: { slug: string; title: string };
  group: { slug: string; title: string; ended?: boolean };
}

export interface PageSubmission {
  _id?: string;
  link: string;
  file?: { name: string; type: string; size: number } | null;
  notes: string | null;
  submittedAt: string;
  late: boolean;
  score: number | null;
  feedbackHtml: string | null;
  state: SubmissionState;
  /** Graded by staff (perhaps held) with no new version asked for. */
  locked: boolean;
  /** The score given before the late penalty (null when none applied). */
  rawScore: number | null;
  latePenalty: { days: number; percent: number };
  /** The filled rubric of a grade given with one (never while the grade is held). */
  rubric?: RubricAssessment | null;
}

type Result = ({ ok: true; intent: string } | (FailureLike & { ok: false; intent: string })) & { target?: string };

/** "2 days 3 h left" / "Due in 40 min" / "Past due", from the server's clock (offset measured at load). */
function useTimeLeft(dueAt: string | null, serverNow: string) {
  const hydrated = useHydrated();
  const offset = useRef(0);
  const [now, setNow] = useState(() => Date.parse(serverNow));
  useEffect(() => {
    offset.current = Date.parse(serverNow) - Date.now();
    setNow(Date.now() + offset.current);
    const timer = window.setInterval(() => setNow(Date.now() + offset.current), 30_000);
    return () => window.clearInterval(timer);
  }, [serverNow]);
  if (!dueAt || !hydrated) return null;
  return Date.parse(dueAt) - now;
}

/** A code exercise as the task page gets it: the student's part, "preparing" while unpublished, or "staff". */
export type PageExercise = StudentExercise | "preparing" | "staff" | null;

/**
 * A task for a member: the statement, the due time in the reader's zone with a countdown, the submit form (a link
 * to the work and notes), the one clear state of their submission, and the grade with its feedback. A code exercise
 * has the editor and its tests instead of the link form.
 */
export function TaskPage({
  task,
  submission,
  isStaff,
  serverNow,
  exercise = null,
  thread = null,
}: {
  task: PageTask;
  submission: PageSubmission | null;
  isStaff: boolean;
  serverNow: string;
  exercise?: PageExercise;
  /** The hand-in's versions and its private conversation with the staff (issue 21). */
  thread?: { submissionId: string; versions: ThreadVersion[]; comments: ThreadComment[] } | null;
}) {
  const { t } = useT();
  const left = useTimeLeft(task.dueAt, serverNow);
  const state: SubmissionState = submission?.state ?? "not-submitted";
  const pastDue = left !== null && left < 0;
  const handedIn = !isStaff && state !== "not-submitted" && state !== "resubmission-requested";
  const closed = pastDue && !task.allowLate;
  const code = typeof exercise === "object" ? exercise : null;
  // An auto-graded hand-in can be replaced until the instructor grades it (or asks for a new version).
  const ended = task.group.ended === true;
  const canSubmit = !isStaff && !closed && !ended && (code ? !code.submission?.gradedByStaff || state === "resubmission-requested" : state !== "graded" && !submission?.locked);
  const base = `/course/${task.group.slug}`;
  // What handing in now would cost (the server applies the same rule to the time it receives the work).
  // Before hydration (and without JavaScript) it is the server's time at load.
  const penaltyNow = task.dueAt && left !== null ? latePenalty(task, Date.parse(task.dueAt) - left) : latePenalty(task, serverNow);
  return (
    <main id="main" tabIndex={-1} className="page page-task">
      <div className="page-band page-band-compact">
        <div className="container">
          <CourseBreadcrumb
            course={{ title: task.group.title, href: base }}
            trail={[
              { label: task.lecture.title, to: `${base}/lecture/${task.lecture.slug}`, userText: true },
              { label: task.title, userText: true },
            ]}
          />
          <h1 className="page-title user-text">{task.title}</h1>
          <ul className="task-facts" role="list">
            <li>
              {t("tasks.due")}: {task.dueAt ? <When iso={task.dueAt} /> : t("tasks.noDue")}
            </li>
            {task.extendedFrom ? (
              <li className="task-extended">
                {t("tasks.extendedFrom")} <When iso={task.extendedFrom} />
              </li>
            ) : null}
            {/* Past due is a warning only for work still to hand in; for work handed in it is a plain fact. */}
            {left !== null && !ended ? <li className={pastDue && !handedIn ? "task-past" : undefined}>{pastDue ? t(handedIn ? "tasks.pastHandedIn" : task.allowLate ? "tasks.pastLateOk" : "tasks.pastClosed") : timeLeftText(t, left)}</li> : null}
            <li>{t("tasks.maxScore", { max: task.maxScore })}</li>
            {task.allowLate && task.dueAt && task.latePenaltyPerDay > 0 ? <li>{t("tasks.penaltyRule", { perDay: task.latePenaltyPerDay, max: Math.max(0, 100 - task.latePenaltyFloor) })}</li> : null}
            {exercise ? <li className="task-kind">{t("exercises.kind")}</li> : null}
          </ul>
        </div>
      </div>
      <div className="container task-layout">
        <article className="prose task-body" dir="auto" dangerouslySetInnerHTML={{ __html: task.bodyHtml || `<p>${t("tasks.noStatement")}</p>` }} />
        <aside className="task-aside">
          {isStaff ? (
            <div className="card task-card">
              <p>{t(exercise ? "exercises.staffNote" : "tasks.staffNote")}</p>
            </div>
          ) : exercise === "preparing" ? (
            <div className="card task-card">
              <h2 className="task-card-title">{t("tasks.yourWork")}</h2>
              <p>{t("exercises.preparing")}</p>
            </div>
          ) : (
            <>
              <div className="card task-card" data-state={state}>
                <h2 className="task-card-title">{t("tasks.yourWork")}</h2>
                <p>
                  <span className="badge task-state" data-state={state}>
                    {t(STATE_KEYS[state])}
                  </span>
                </p>
                {submission ? (
                  <SubmittedWork
                    submission={submission}
                    maxScore={task.maxScore}
                    auto={code ? !code.submission?.gradedByStaff : null}
                    fileUrl={submission._id ? `/course/${segment(task.group.slug)}/lecture/${segment(task.lecture.slug)}/task-file/${segment(task.slug)}/${submission._id}` : null}
                  />
                ) : null}
                {submission && task.gradesHeld && (state === "submitted" || state === "late") ? (
                  <p className="muted task-held-note">{t("tasks.gradesHeld")}</p>
                ) : null}
              </div>
              {canSubmit && task.allowLate && penaltyNow.percent > 0 ? (
                <p className="task-penalty-now" role="note">
                  {t("tasks.penaltyNow", { days: penaltyNow.days, percent: penaltyNow.percent })}
                </p>
              ) : null}
              {!canSubmit && ended ? (
                <p className="task-ended" role="note">
                  {t("tasks.courseEnded")}
                </p>
              ) : null}
              {canSubmit && !code ? task.fileKinds && task.fileKinds.length > 0 ? <FileSubmitForm submission={submission} kinds={task.fileKinds} maxMb={task.maxFileMb ?? 10} /> : <SubmitForm submission={submission} /> : null}
            </>
          )}
        </aside>
      </div>
      {submission?.rubric && submission.state === "graded" ? (
        <section className="container task-rubric" aria-labelledby="task-rubric-title">
          <h2 id="task-rubric-title" className="block-title">
            {t("rubrics.yourGrade")}
          </h2>
          <RubricView title={submission.rubric.title} criteria={submission.rubric.criteria} caption={t("rubrics.yourGrade")} />
        </section>
      ) : task.rubric ? (
        <section className="container task-rubric" aria-labelledby="task-rubric-title">
          <h2 id="task-rubric-title" className="block-title">
            {t("rubrics.howGraded")}
          </h2>
          <RubricView title={task.rubric.title} criteria={task.rubric.criteria} caption={t("rubrics.howGraded")} />
        </section>
      ) : null}
      {thread ? (
        <div className="container task-thread">
          <div className="card task-card">
            <SubmissionThread submissionId={thread.submissionId} versions={thread.versions} comments={thread.comments} viewerIsStaff={false} ended={ended} />
          </div>
        </div>
      ) : null}
      {code ? (
        <div className="container">
          <ExerciseWorkspace taskId={task._id} exercise={code} saveUrl={`/course/${task.group.slug}/exercise/${task.slug}/save`} maxScore={task.maxScore} canSubmit={canSubmit} ended={ended} />
        </div>
      ) : null}
    </main>
  );
}

function timeLeftText(t: (key: MessageKey, params?: Record<string, string | number>) => string, ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return t("tasks.leftMinutes", { n: Math.max(1, minutes) });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t("tasks.leftHours", { n: hours });
  return t("tasks.leftDays", { n: Math.floor(hours / 24) });
}

/** `auto`: null for a link hand-in; for code, whether the grade is still the tests' own. */
function SubmittedWork({ submission, maxScore, auto, fileUrl }: { submission: PageSubmission; maxScore: number; auto: boolean | null; fileUrl: string | null }) {
  const { t } = useT();
  return (
    <div className="submitted-work">
      {auto === null ? submission.file && fileUrl ? <HandInFile file={submission.file} url={fileUrl} /> : <WorkLink link={submission.link} /> : null}
      <p className="muted">
        {t("tasks.submittedAt")} <When iso={submission.submittedAt} />
        {submission.late ? ` · ${t("tasks.state.late")}` : ""}
      </p>
      {submission.notes ? (
        <p className="work-notes" dir="auto">
          {submission.notes}
        </p>
      ) : null}
      {submission.score !== null && submission.state === "graded" ? (
        // Nothing earned is not a success: a grade of 0 reads plainly, without the check mark or the green.
        <p className="task-grade" data-nothing={submission.score === 0 || undefined}>
          {submission.score === 0 ? null : <CheckIcon />}
          {t("tasks.grade", { score: submission.score, max: maxScore })}
          {submission.rawScore !== null && submission.rawScore !== undefined ? <span className="muted"> ({t("tasks.beforePenalty", { raw: submission.rawScore, percent: submission.latePenalty.percent })})</span> : null}
        </p>
      ) : null}
      {auto !== null && submission.score !== null ? <p className="muted">{t(auto ? "exercises.gradedByTests" : "exercises.gradedByStaff")}</p> : null}
      {submission.feedbackHtml ? (
        <div className="task-feedback">
          <h3 className="task-card-title">{t("tasks.feedback")}</h3>
          <div className="prose" dir="auto" dangerouslySetInnerHTML={{ __html: submission.feedbackHtml }} />
        </div>
      ) : null}
    </div>
  );
}

const FIELD_KEYS: Record<string, MessageKey> = { link: "tasks.error.link", notes: "tasks.error.notes" };

/** What a file input accepts for the task's kinds (the server judges the content anyway). */
const ACCEPT: Record<string, string> = { pdf: "application/pdf,.pdf", image: "image/png,image/jpeg,image/webp", text: "text/plain,.txt,.md,.js,.ts,.tsx,.jsx,.css,.html,.py,.json", zip: "application/zip,.zip" };

function FileSubmitForm({ submission, kinds, maxMb }: { submission: PageSubmission | null; kinds: string[]; maxMb: number }) {
  const { t } = useT();
  const fetcher = useFetcher<Result>();
  const result = fetcher.data;
  const failure = result && !result.ok ? result : null;
  const busy = fetcher.state !== "idle";
  const [tooBig, setTooBig] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstProblem(formRef, failure, !busy);
  return (
    <fetcher.Form ref={formRef} method="post" encType="multipart/form-data" className="card form-card task-card" aria-labelledby="submit-title" noValidate>
      <h2 id="submit-title" className="task-card-title">
        {t(submission ? "tasks.replace" : "tasks.submit")}
      </h2>
      <input type="hidden" name="intent" value="submit-file" />
      <div className="field">
        <label htmlFor="task-file">{t("tasks.file")}</label>
        <input
          id="task-file"
          name="file"
          type="file"
          required
          accept={kinds.map((k) => ACCEPT[k] ?? "").join(",")}
          aria-describedby={tooBig || failure?.fields?.file ? "task-file-error task-file-hint" : "task-file-hint"}
          aria-invalid={tooBig || !!failure?.fields?.file || undefined}
          onChange={(e) => setTooBig((e.target.files?.[0]?.size ?? 0) > maxMb * 1024 * 1024)}
        />
        <p id="task-file-hint" className="field-hint field-hint-block">
          {t("tasks.fileHint", { kinds: kinds.map((k) => t(`tasks.fileKind.${k}` as MessageKey)).join(t("list.separator")), mb: maxMb })}
        </p>
        {tooBig || failure?.fields?.file ? (
          <p id="task-file-error" className="field-error">
            {tooBig ? t("tasks.error.fileSize", { mb: maxMb }) : t(failure!.fields!.file === EMPTY_FILE_MESSAGE ? "tasks.error.fileEmpty" : "tasks.error.fileKind")}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="task-notes">{t("tasks.notes")}</label>
        <textarea id="task-notes" name="notes" rows={3} maxLength={2000} dir="auto" defaultValue={submission?.notes ?? ""} aria-invalid={!!failure?.fields?.notes || undefined} aria-describedby={failure?.fields?.notes ? "task-file-notes-error" : undefined} />
        {failure?.fields?.notes ? (
          <p id="task-file-notes-error" className="field-error">
            {t("tasks.error.notes")}
          </p>
        ) : null}
      </div>
      <HandInOutcome
        result={result}
        busy={busy}
        replacing={!!submission}
        disabled={tooBig}
        failureText={(f) => (f.code === "payload_too_large" ? t("tasks.error.fileSize", { mb: maxMb }) : f.code === "rate_limited" ? t("tasks.error.manyFiles") : null)}
      />
    </fetcher.Form>
  );
}

/** The end of a hand-in form (link or file): the refusal or the confirmation, and the button. */
function HandInOutcome({ result, busy, replacing, disabled = false, failureText }: { result: Result | undefined; busy: boolean; replacing: boolean; disabled?: boolean; failureText?: (failure: FailureLike) => string | null }) {
  const { t } = useT();
  const failure = result && !result.ok ? result : null;
  // Handed in: the focus goes to the confirmation, brought into view (the button may be far below it on a phone).
  const sentRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (result?.ok) sentRef.current?.focus();
  }, [result]);
  return (
    <>
      {failure && !failure.fields ? (
        <RefusalText className="form-error" attempt={failure}>
          {failureText?.(failure) ?? (failure.code === "conflict" ? t("tasks.error.closed") : failureWords(t, failure))}
        </RefusalText>
      ) : null}
      {result?.ok ? (
        <p ref={sentRef} tabIndex={-1} className="form-success" role="status">
          {t("tasks.sent")}
        </p>
      ) : null}
      <button type="submit" className="btn btn-primary" disabled={busy || disabled}>
        {busy ? t("tasks.sending") : t(replacing ? "tasks.replace" : "tasks.submit")}
      </button>
    </>
  );
}

function SubmitForm({ submission }: { submission: PageSubmission | null }) {
  const { t } = useT();
  const fetcher = useFetcher<Result>();
  const result = fetcher.data;
  const failure = result && !result.ok ? result : null;
  const fieldError = (field: string) => (failure?.fields?.[field] ? t(FIELD_KEYS[field] ?? "tasks.error.link") : null);
  const busy = fetcher.state !== "idle";
  // A refused link takes the focus: the button pressed stays where it was, and the field says what to change.
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstProblem(formRef, failure, !busy);
  return (
    <fetcher.Form ref={formRef} method="post" className="card form-card task-card" aria-labelledby="submit-title" noValidate>
      <h2 id="submit-title" className="task-card-title">
        {t(submission ? "tasks.replace" : "tasks.submit")}
      </h2>
      <input type="hidden" name="intent" value="submit" />
      <div className="field">
        <label htmlFor="task-link">{t("tasks.link")}</label>
        <input id="task-link" name="link" type="url" inputMode="url" dir="ltr" required maxLength={TASK_LIMITS.link} placeholder="https://github.com/you/project" defaultValue={submission?.link ?? ""} aria-invalid={!!fieldError("link") || undefined} aria-describedby={fieldError("link") ? "task-link-error task-link-hint" : "task-link-hint"} />
        <p id="task-link-hint" className="field-hint">
          {t("tasks.linkHint")}
        </p>
        {fieldError("link") ? (
          <p id="task-link-error" className="field-error">
            {fieldError("link")}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="task-notes">{t("tasks.notes")}</label>
        <textarea id="task-notes" name="notes" rows={4} maxLength={TASK_LIMITS.notes} dir="auto" defaultValue={submission?.notes ?? ""} aria-invalid={!!fieldError("notes") || undefined} aria-describedby={fieldError("notes") ? "task-notes-error" : undefined} />
        {fieldError("notes") ? (
          <p id="task-notes-error" className="field-error">
            {fieldError("notes")}
          </p>
        ) : null}
      </div>
      <HandInOutcome result={result} busy={busy} replacing={!!submission} />
    </fetcher.Form>
  );
}
