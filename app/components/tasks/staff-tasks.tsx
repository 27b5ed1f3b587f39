import { Form, Link, useActionData, useNavigate, useNavigation } from "@remix-run/react";
import { ArrivalNotice, arrivalState } from "~/components/arrival-notice";
import { useEffect, useRef, useState } from "react";
import { ConfirmedIntentButton } from "~/components/confirm-dialog";
import { useFocusFirstProblem } from "~/lib/use-editor-focus";
import { NewOnLecture, NothingOnLecturesYet } from "~/components/lectures/new-on-lecture";
import { When, fromLocalInput, toLocalInput } from "~/components/lectures/when";
import { failureText, publishAtText, type FailureLike } from "~/lib/group-errors";
import { useT } from "~/lib/i18n";
import type { MessageKey } from "~/i18n/en";
import { FILE_KINDS, MAX_FILE_MB } from "~/lib/hand-in-files";
import { ScheduledBadge } from "~/components/lifecycle/schedule-box";
import { isolate } from "~/lib/bidi";
import { UnsavedChanges } from "~/components/unsaved-changes";
import { RefusalText } from "~/components/form-field";

export interface StaffTask {
  _id: string;
  slug: string;
  title: string;
  dueAt: string | null;
  maxScore: number;
  gradesHeld: boolean;
  /** Hidden from students until this time (issue 22). */
  publishAt?: string | null;
  lectureSlug: string;
  lectureTitle: string;
  submitted: number;
  graded: number;
  members: number;
}

/** A group's tasks for its staff, with hand-in and grading counts, and a way to set a new one on a lecture. */
export function StaffTasksScreen({ tasks, lectures, base }: { tasks: StaffTask[]; lectures: { slug: string; title: string }[]; base: string }) {
  const { t } = useT();
  return (
    <section className="tasks-screen" aria-labelledby="tasks-title">
      <ArrivalNotice />
      <div className="section-head">
        <h2 id="tasks-title" className="block-title">
          {t("staffTasks.title")}
        </h2>
        <NewOnLecture lectures={lectures} base={base} page="newTask" label={t("staffTasks.new")} pickerLabel={t("staffTasks.onLecture")} id="new-task-lecture" />
      </div>
      {tasks.length === 0 ? (
        <NothingOnLecturesYet
          title={t("staffTasks.empty.title")}
          body={t("staffTasks.empty.body")}
          noLectures={t("staffTasks.empty.noLectures")}
          hasLectures={lectures.length > 0}
          base={base}
        />
      ) : (
        <div className="gtable-wrap" tabIndex={0} data-scroll-stop="" aria-labelledby="tasks-title">
          <table className="gtable">
            <thead>
              <tr>
                <th scope="col">{t("staffTasks.col.task")}</th>
                <th scope="col">{t("staffTasks.col.due")}</th>
                <th scope="col">{t("staffTasks.col.submitted")}</th>
                <th scope="col">{t("staffTasks.col.graded")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("staffTasks.col.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tasks.map((task) => (
                <tr key={task._id}>
                  <th scope="row">
                    <Link to={`${base}/lecture/${task.lectureSlug}/tasks/updateTask/${task.slug}`} className="user-text">
                      {task.title}
                    </Link>
                    <span className="row-sub muted user-text">{task.lectureTitle}</span>
                    {/* Its state under its name, as the quizzes list has it: not squeezed into a column of numbers. */}
                    {task.publishAt ? (
                      <span className="row-sub">
                        <ScheduledBadge iso={task.publishAt} />
                      </span>
                    ) : null}
                  </th>
                  <td data-label={t("staffTasks.col.due")}>{task.dueAt ? <When iso={task.dueAt} /> : "—"}</td>
                  <td data-label={t("staffTasks.col.submitted")}>
                    <span className="figure-nowrap">{t("staffTasks.ofMembers", { n: task.submitted, members: task.members })}</span>
                  </td>
                  <td data-label={t("staffTasks.col.graded")}>
                    <span className="figure-nowrap">{t("staffTasks.ofSubmitted", { n: task.graded, submitted: task.submitted })}</span>
                    {task.gradesHeld ? <span className="badge held-pill">{t("staffTasks.held")}</span> : null}
                  </td>
                  <td className="row-actions">
                    <div className="row-actions-inner">
                      <Link to={`${base}/lecture/${task.lectureSlug}/tasks/${task.slug}/submissions`} className="btn btn-outline btn-sm">
                        {t("staffTasks.grade")}
                        <span className="visually-hidden"> {task.title}</span>
                      </Link>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

type Result = ({ ok: true; intent: string; task?: { slug: string; title: string }; code?: boolean } | (FailureLike & { ok: false; intent: string })) | undefined;

/** A task's form (new or edit): title, statement (Markdown), due time, maximum score and whether late work counts. */
export function TaskForm({
  task,
  rubrics,
  listPath,
  lectureTitle,
  editPath,
}: {
  task: { title: string; body: string; dueAt: string | null; maxScore: number; allowLate: boolean; gradesHeld: boolean; latePenaltyPerDay: number; latePenaltyFloor: number; rubricId: string | null; fileKinds?: string[]; maxFileMb?: number } | null;
  /** The group's rubrics (made on the Tasks tab): one can grade the task, its total becoming the maximum. */
  rubrics: { _id: string; title: string; total: number }[];
  listPath: string;
  lectureTitle: string;
  /** Where a new code exercise goes next (its edit page, to write the tests). */
  editPath?: (slug: string) => string;
}) {
  const { t } = useT();
  const result = useActionData<Result>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const [due, setDue] = useState(() => toLocalInput(task?.dueAt ?? null));
  const [publishAt, setPublishAt] = useState("");
  const [rubricId, setRubricId] = useState(task?.rubricId ?? "");
  const rubric = rubrics.find((r) => r._id === rubricId) ?? null;
  useEffect(() => setDue(toLocalInput(task?.dueAt ?? null)), [task?.dueAt]);
  // Once per result: `editPath` is a new function at every render, and navigating again would restart the load.
  const followed = useRef<Result>(undefined);
  useEffect(() => {
    if (!result?.ok || !(result.intent === "delete" || !task) || followed.current === result) return;
    followed.current = result;
    if (!task && result.code && result.task && editPath) return navigate(`${editPath(result.task.slug)}#exercise`);
    navigate(listPath, arrivalState({ kind: "task", done: result.intent === "delete" ? "deleted" : "created", title: task?.title ?? result.task?.title ?? "" }));
  }, [result, task, navigate, listPath, editPath]);
  const failure = result && !result.ok ? result : null;
  const busy = navigation.state !== "idle";
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstProblem(formRef, failure, !busy);
  return (
    <Form ref={formRef} method="post" className="card form-card task-form" aria-labelledby="task-form-title">
      <UnsavedChanges form={formRef} saved={result?.ok ? result : null} />
      <div className="task-form-head">
        <h2 id="task-form-title" className="task-card-title">
          {t(task ? "staffTasks.edit" : "staffTasks.new")}
        </h2>
        <p className="muted user-text">{lectureTitle}</p>
      </div>
      <div className="field">
        <label htmlFor="task-title">{t("staffTasks.field.title")}</label>
        <input id="task-title" name="title" required maxLength={160} dir="auto" defaultValue={task?.title ?? ""} aria-invalid={!!failure?.fields?.title || undefined} />
        {failure?.fields?.title ? <p className="field-error">{t("lectures.error.title")}</p> : null}
      </div>
      <div className="field">
        <label htmlFor="task-body">{t("staffTasks.field.body")}</label>
        <textarea id="task-body" name="body" rows={10} dir="auto" defaultValue={task?.body ?? ""} />
        <p className="field-hint">{t("lectures.field.bodyHint")}</p>
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor="task-due">{t("staffTasks.field.due")}</label>
          <input id="task-due" type="datetime-local" value={due} onChange={(e) => setDue(e.target.value)} aria-invalid={!!failure?.fields?.dueAt || undefined} />
          <input type="hidden" name="dueAt" value={fromLocalInput(due) ?? ""} />
          {failure?.fields?.dueAt ? <p className="field-error">{t("staffTasks.error.due")}</p> : null}
        </div>
        {task ? null : (
          <div className="field">
            <label htmlFor="task-publish-at">{t("schedule.newTaskLabel")}</label>
            <input id="task-publish-at" type="datetime-local" value={publishAt} onChange={(e) => setPublishAt(e.target.value)} aria-describedby="task-publish-at-hint" aria-invalid={!!failure?.fields?.publishAt || undefined} />
            <input type="hidden" name="publishAt" value={fromLocalInput(publishAt) ?? ""} />
            <p id="task-publish-at-hint" className="field-hint field-hint-block">
              {t("schedule.newTaskHint")}
            </p>
            {failure?.fields?.publishAt ? <p className="field-error">{publishAtText(t, failure)}</p> : null}
          </div>
        )}
        <div className="field">
          <label htmlFor="task-max">{t("staffTasks.field.maxScore")}</label>
          {rubric ? (
            // The rubric decides the maximum; the field shows it (and sends nothing).
            <input id="task-max" type="number" value={rubric.total} readOnly aria-describedby="task-rubric-hint" className="input-narrow" />
          ) : (
            <input id="task-max" name="maxScore" type="number" min={1} max={1000} defaultValue={task?.maxScore ?? 100} className="input-narrow" />
          )}
        </div>
      </div>
      <div className="field">
        <label htmlFor="task-rubric">{t("staffTasks.field.rubric")}</label>
        <select id="task-rubric" name="rubricId" value={rubricId} onChange={(e) => setRubricId(e.target.value)} aria-describedby="task-rubric-hint" aria-invalid={!!failure?.fields?.rubricId || undefined}>
          <option value="">{t("staffTasks.field.rubricNone")}</option>
          {rubrics.map((r) => (
            <option key={r._id} value={r._id} dir="auto">
              {t("staffTasks.field.rubricOption", { title: r.title, n: r.total })}
            </option>
          ))}
        </select>
        <p id="task-rubric-hint" className="field-hint field-hint-block">
          {t(rubrics.length === 0 ? "staffTasks.field.rubricNoneYet" : rubric ? "staffTasks.field.rubricSets" : "staffTasks.field.rubricHint")}
        </p>
      </div>
      <fieldset className="kind-field task-files">
        <legend>{t("staffTasks.field.files")}</legend>
        <input type="hidden" name="fileKindsShown" value="1" />
        <p className="field-hint field-hint-block">{t("staffTasks.field.filesHint")}</p>
        <div className="task-file-kinds">
          {FILE_KINDS.map((kind) => (
            <label key={kind} className="check-field">
              <input type="checkbox" name="fileKinds" value={kind} defaultChecked={task?.fileKinds?.includes(kind) ?? false} />
              <span>{t(`tasks.fileKind.${kind}` as MessageKey)}</span>
            </label>
          ))}
        </div>
        <div className="field">
          <label htmlFor="task-max-file">{t("staffTasks.field.maxFileMb")}</label>
          <input id="task-max-file" name="maxFileMb" type="number" min={MAX_FILE_MB.min} max={MAX_FILE_MB.max} defaultValue={task?.maxFileMb ?? MAX_FILE_MB.default} className="input-narrow" aria-invalid={!!failure?.fields?.maxFileMb || undefined} />
        </div>
      </fieldset>
      <label className="check-field">
        <input type="checkbox" name="allowLate" defaultChecked={task?.allowLate ?? true} />
        <span>{t("staffTasks.field.allowLate")}</span>
      </label>
      <div className="field-row">
        <div className="field">
          <label htmlFor="task-penalty">{t("staffTasks.field.latePenalty")}</label>
          <input id="task-penalty" name="latePenaltyPerDay" type="text" inputMode="numeric" defaultValue={task?.latePenaltyPerDay ?? 0} className="input-narrow" aria-describedby="task-penalty-hint" aria-invalid={!!failure?.fields?.latePenaltyPerDay || undefined} />
          {failure?.fields?.latePenaltyPerDay ? <p className="field-error">{t("staffTasks.error.percent")}</p> : null}
        </div>
        <div className="field">
          <label htmlFor="task-floor">{t("staffTasks.field.latePenaltyFloor")}</label>
          <input id="task-floor" name="latePenaltyFloor" type="text" inputMode="numeric" defaultValue={task?.latePenaltyFloor ?? 0} className="input-narrow" aria-describedby="task-penalty-hint" aria-invalid={!!failure?.fields?.latePenaltyFloor || undefined} />
          {failure?.fields?.latePenaltyFloor ? <p className="field-error">{t("staffTasks.error.percent")}</p> : null}
        </div>
      </div>
      <p id="task-penalty-hint" className="field-hint">
        {t("staffTasks.field.latePenaltyHint")}
      </p>
      {task?.gradesHeld ? (
        <p className="field-hint">{t("staffTasks.field.gradesHeldOn")}</p>
      ) : (
        <label className="check-field">
          <input type="checkbox" name="gradesHeld" defaultChecked={false} />
          <span>{t("staffTasks.field.gradesHeld")}</span>
        </label>
      )}
      {!task ? (
        <fieldset className="kind-field">
          <legend>{t("exerciseEditor.kind")}</legend>
          <label className="check-field">
            <input type="radio" name="kind" value="link" defaultChecked />
            <span>{t("exerciseEditor.kind.link")}</span>
          </label>
          <label className="check-field">
            <input type="radio" name="kind" value="code" />
            <span>{t("exerciseEditor.kind.code")}</span>
          </label>
        </fieldset>
      ) : null}
      {failure && (!failure.fields || !Object.keys(failure.fields).some((k) => k === "title" || k === "dueAt")) ? (
        <RefusalText className="form-error" attempt={failure}>
          {failureText(t, failure)}
        </RefusalText>
      ) : null}
      {result?.ok && task ? (
        <p className="form-success" role="status">
          {t("lectures.saved")}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="submit" name="intent" value="save" className="btn btn-primary" disabled={busy}>
          {busy ? t("lectures.saving") : t(task ? "staffTasks.save" : "staffTasks.create")}
        </button>
        <Link to={listPath} className="btn btn-ghost">
          {t("staffTasks.back")}
        </Link>
        {task ? (
          <ConfirmedIntentButton
            intent="delete"
            label={t("lectures.deleteShort")}
            title={t("staffTasks.deleteTitle", { title: isolate(task.title) })}
            body={t("staffTasks.deleteBody")}
            confirmLabel={t("lectures.deleteShort")}
            busyLabel={t("lectures.deleting")}
          />
        ) : null}
      </div>
    </Form>
  );
}
