/**
 * Loader and action bodies of the student's task page (/course/{slug}/lecture/{slugLecture}/Add-Task/{slugTask}),
 * calling the same services as the API.
 */
import type { ServiceContext } from "../../worker/context";
import { exerciseForPage, rerunExercise, saveExercise, startExercise, submitCode, tryReference } from "../../worker/services/exercises";
import { managedGroupHeading } from "../../worker/services/group-access";
import { getLecture, listLectures } from "../../worker/services/lectures";
import { createTask, deleteTask, requireReadableTask, submitFile, taskInGroup, getTask, gradeSubmission, listSubmissions, listTasksForStaff, releaseGrades, submitTask, updateTask } from "../../worker/services/tasks";
import { createRubric, deleteRubric, listRubrics, updateRubric } from "../../worker/services/rubrics";
import { listTaskExtensions, removeTaskExtension, setTaskExtensions } from "../../worker/services/extensions";
import { listGroupStudents } from "../../worker/services/students";
import { addSnippet, deleteSnippet, listSnippets } from "../../worker/services/comment-bank";
import { addComment, historyOfTask, listComments, listVersions } from "../../worker/services/submission-history";
import type { Viewer } from "../../worker/services/sessions";
import { allInOrder, attempt, formNumber, invalid, jsonField, orHttpError, rawText, text, unknownIntent } from "./group-actions.server";
import { renderMarkdown } from "./markdown.server";
import { notFoundResponse } from "./not-found.server";
import { toLatinDigits } from "./digits";
import { EMPTY_FILE_MESSAGE } from "./hand-in-files";
import { codeInput, exerciseInput } from "./exercise-schemas";
import { rubricInput } from "./rubric-schemas";
import { taskExtensionInput } from "./extension-schemas";
import { commentSnippetInput, submissionCommentInput, createTaskInput, gradeSubmissionInput, submitTaskInput, updateTaskInput } from "./task-schemas";
import { data } from "@remix-run/server-runtime";

export async function loadTaskPage(svc: ServiceContext, viewer: Viewer, params: { slug?: string; slugLecture?: string; slugTask?: string }) {
  if (!params.slug || !params.slugLecture || !params.slugTask) throw notFoundResponse();
  // The task and the hand-ins read together; nothing is shown unless the task is the page's group's.
  const [task, { submissions }] = await allInOrder(orHttpError(getTask(svc, viewer, params.slugLecture, params.slugTask)), orHttpError(listSubmissions(svc, viewer, params.slugLecture, params.slugTask)));
  if (!taskInGroup({ groupId: task.group._id, groupSlug: task.group.slug }, params.slug)) throw notFoundResponse();
  const mine = viewer.role === "user" ? (submissions[0] ?? null) : null;
  // The exercise, and the hand-in's history and its conversation with the staff (issue 21), read together.
  const [exercise, versions, comments] = await Promise.all([
    orHttpError(exerciseForPage(svc, viewer, task._id)),
    mine ? orHttpError(listVersions(svc, viewer, params.slugLecture, params.slugTask, mine._id)) : [],
    mine ? orHttpError(listComments(svc, viewer, params.slugLecture, params.slugTask, mine._id)) : [],
  ]);
  return {
    thread: mine ? { submissionId: mine._id, versions, comments } : null,
    task,
    // Staff get no test data here: they edit the exercise on the group's task pages.
    exercise: exercise === null ? null : "preparing" in exercise ? ("preparing" as const) : exercise.isStaff ? ("staff" as const) : exercise,
    submission: mine ? { ...mine, feedbackHtml: mine.feedback ? renderMarkdown(mine.feedback) : null } : null,
    isStaff: viewer.role !== "user",
    serverNow: new Date().toISOString(),
  };
}

export async function taskPageAction(svc: ServiceContext, viewer: Viewer, params: { slug?: string; slugLecture?: string; slugTask?: string }, form: FormData) {
  // The page's address names its group: under another group's address (or none) the page is not found, so nothing
  // is handed in there either (the loader's rule).
  const task = await orHttpError(requireReadableTask(svc, viewer, params.slugLecture ?? "", params.slugTask ?? ""));
  if (!params.slug || !taskInGroup(task, params.slug)) throw notFoundResponse();
  const intent = text(form, "intent");
  if (intent === "submit-code") {
    // The exercise's form without JavaScript: the code arrives from the plain textarea.
    const parsed = codeInput.safeParse({ code: rawText(form, "code") });
    if (!parsed.success) return invalid(intent, parsed.error);
    return attempt(intent, () => submitCode(svc, viewer, params.slugTask ?? "", parsed.data.code));
  }
  if (intent === "comment") return commentAction(svc, viewer, params, form);
  if (intent === "submit-file") {
    // A file hand-in (issue 21): the same service as POST .../submit-task/{taskId}/file.
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) return data({ ok: false as const, intent, code: "validation_failed", message: EMPTY_FILE_MESSAGE, fields: { file: EMPTY_FILE_MESSAGE } }, { status: 400 });
    return attempt(intent, () => submitFile(svc, viewer, params.slugLecture ?? "", params.slugTask ?? "", file, text(form, "notes") || undefined));
  }
  if (intent !== "submit") return unknownIntent(intent);
  const parsed = submitTaskInput.safeParse({ link: text(form, "link"), notes: text(form, "notes") || undefined });
  if (!parsed.success) return invalid(intent, parsed.error);
  return attempt(intent, () => submitTask(svc, viewer, params.slugLecture ?? "", params.slugTask ?? "", parsed.data));
}

/** intent=comment: a message in a hand-in's private conversation (the task page and the grader). */
function commentAction(svc: ServiceContext, viewer: Viewer, params: { slugLecture?: string; slugTask?: string }, form: FormData) {
  const submissionId = text(form, "submissionId");
  const parsed = submissionCommentInput.safeParse({ body: rawText(form, "body") });
  if (!parsed.success) return invalid("comment", parsed.error, submissionId);
  return attempt("comment", async () => ({ comment: await addComment(svc, viewer, params.slugLecture ?? "", params.slugTask ?? "", submissionId, parsed.data) }), submissionId);
}

/* ---------------------------------------------------------------------------------------------------------------
 * Staff screens: the group's tasks, a task's form (new or edit) and the grader.
 * ------------------------------------------------------------------------------------------------------------- */

export async function loadStaffTasks(svc: ServiceContext, viewer: Viewer, params: { slug?: string }) {
  if (!params.slug) throw notFoundResponse();
  const group = await orHttpError(managedGroupHeading(svc, viewer, params.slug));
  const [taskList, lectureList, rubricList] = await Promise.all([
    orHttpError(listTasksForStaff(svc, viewer, group._id)),
    orHttpError(listLectures(svc, viewer, group._id)),
    orHttpError(listRubrics(svc, viewer, group._id)),
  ]);
  return { group: { id: group._id, slug: group.slug, title: group.title }, tasks: taskList, lectures: lectureList.map((l) => ({ slug: l.slug, title: l.title })), rubrics: rubricList };
}

/** The Tasks tab's rubric intents: save one (new without rubricId) or delete one. */
export async function staffTasksAction(svc: ServiceContext, viewer: Viewer, params: { slug?: string }, form: FormData) {
  const intent = text(form, "intent");
  const group = params.slug ?? "";
  const rubricId = text(form, "rubricId");
  if (intent === "rubric-delete") return attempt(intent, () => deleteRubric(svc, viewer, group, rubricId), rubricId);
  if (intent !== "rubric-save") return unknownIntent(intent);
  const parsed = rubricInput.safeParse(jsonField(form, "rubric"));
  if (!parsed.success) return invalid(intent, parsed.error, rubricId);
  return attempt(intent, async () => ({ rubric: rubricId ? await updateRubric(svc, viewer, group, rubricId, parsed.data) : await createRubric(svc, viewer, group, parsed.data) }), rubricId);
}

function percentField(form: FormData, name: string): number {
  const raw = toLatinDigits(text(form, name));
  return raw === "" ? 0 : formNumber(raw);
}

function taskValues(form: FormData) {
  const due = text(form, "dueAt");
  return {
    title: text(form, "title"),
    body: rawText(form, "body"),
    dueAt: due ? due : null,
    // Not sent with a rubric (the field only shows the rubric's total): the rubric decides.
    ...(form.has("maxScore") ? { maxScore: formNumber(text(form, "maxScore") || "100") } : {}),
    allowLate: form.get("allowLate") === "on" || form.get("allowLate") === "true",
    // Whole percents; digits typed in Arabic-Indic count (an empty field is no penalty).
    latePenaltyPerDay: percentField(form, "latePenaltyPerDay"),
    latePenaltyFloor: percentField(form, "latePenaltyFloor"),
    // The file hand-in's kinds (checkboxes, sent with a marker so that none ticked means a link) and largest file.
    ...(form.has("fileKindsShown") ? { fileKinds: form.getAll("fileKinds").map(String) as ("pdf" | "image" | "text" | "zip")[], maxFileMb: formNumber(text(form, "maxFileMb") || "10") } : {}),
    // The form's rubric picker: "" is none (the task keeps its maximum score).
    ...(form.has("rubricId") ? { rubricId: text(form, "rubricId") || null } : {}),
    // Sent only when ticked: unticking does not release (the grader's Release button does, and tells the students).
    ...(form.get("gradesHeld") === "on" || form.get("gradesHeld") === "true" ? { gradesHeld: true } : {}),
    // New tasks only (the edit page has its own "Publish later" box): hidden from students until then.
    ...(text(form, "publishAt") ? { publishAt: text(form, "publishAt") } : {}),
  };
}

/** The new-task form of a lecture. */
export async function loadNewTask(svc: ServiceContext, viewer: Viewer, params: { slug?: string; slugLecture?: string }) {
  if (!params.slug || !params.slugLecture) throw notFoundResponse();
  const [group, lecture] = await allInOrder(orHttpError(managedGroupHeading(svc, viewer, params.slug)), orHttpError(getLecture(svc, viewer, params.slugLecture)));
  if (lecture.group._id !== group._id) throw notFoundResponse();
  const rubrics = (await orHttpError(listRubrics(svc, viewer, group._id))).map((r) => ({ _id: r._id, title: r.title, total: r.total }));
  return { group: { id: group._id, slug: group.slug, title: group.title }, lecture: { slug: lecture.slug, title: lecture.title }, task: null, rubrics };
}

/** kind=code makes the new task a code exercise (unpublished and empty: its author fills it in next). */
export async function newTaskAction(svc: ServiceContext, viewer: Viewer, params: { slugLecture?: string }, form: FormData) {
  if (text(form, "intent") !== "save") return unknownIntent(text(form, "intent"));
  const parsed = createTaskInput.safeParse(taskValues(form));
  if (!parsed.success) return invalid("save", parsed.error);
  const code = text(form, "kind") === "code";
  return attempt("save", async () => {
    const task = await createTask(svc, viewer, params.slugLecture ?? "", parsed.data);
    if (code) await startExercise(svc, viewer, task._id);
    return { task, code };
  });
}

/** The edit form of a task. */
export async function loadEditTask(svc: ServiceContext, viewer: Viewer, params: { slug?: string; slugLecture?: string; slugTask?: string }) {
  const base = await loadNewTask(svc, viewer, params);
  const task = await orHttpError(getTask(svc, viewer, params.slugLecture ?? "", params.slugTask ?? ""));
  const [exercise, extensions, students] = await Promise.all([
    orHttpError(exerciseForPage(svc, viewer, task._id)),
    orHttpError(listTaskExtensions(svc, viewer, params.slugLecture ?? "", task._id)),
    orHttpError(listGroupStudents(svc, viewer, base.group.id, {})),
  ]);
  return {
    ...base,
    task,
    exercise: exercise && "isStaff" in exercise && exercise.isStaff ? exercise : null,
    extensions,
    students: students.map((s) => ({ _id: s.user._id, name: s.user.name })),
  };
}

/** The extension panel's intents on a task's edit page. */
export function taskExtensionAction(svc: ServiceContext, viewer: Viewer, lectureKey: string, taskKey: string, intent: string, form: FormData) {
  if (intent === "extension-remove") return attempt(intent, () => removeTaskExtension(svc, viewer, lectureKey, taskKey, text(form, "userId")), text(form, "userId"));
  const parsed = taskExtensionInput.safeParse({ userIds: jsonField(form, "userIds"), dueAt: text(form, "dueAt") });
  if (!parsed.success) return invalid(intent, parsed.error);
  return attempt(intent, async () => ({ extensions: await setTaskExtensions(svc, viewer, lectureKey, taskKey, parsed.data) }));
}

/** The exercise editor's intents: run the form's reference (nothing saved) or save it (publishing needs a pass). */
function exerciseAction(svc: ServiceContext, viewer: Viewer, taskKey: string, intent: "exercise-check" | "exercise-save", form: FormData) {
  const parsed = exerciseInput.safeParse(jsonField(form, "exercise"));
  if (!parsed.success) return invalid(intent, parsed.error);
  if (intent === "exercise-check") return attempt(intent, async () => ({ report: await tryReference(svc, viewer, taskKey, parsed.data) }));
  return attempt(intent, () => saveExercise(svc, viewer, taskKey, parsed.data));
}

export async function editTaskAction(svc: ServiceContext, viewer: Viewer, params: { slugLecture?: string; slugTask?: string }, form: FormData) {
  const intent = text(form, "intent");
  if (intent === "delete") return attempt("delete", () => deleteTask(svc, viewer, params.slugLecture ?? "", params.slugTask ?? ""));
  if (intent === "exercise-check" || intent === "exercise-save") return exerciseAction(svc, viewer, params.slugTask ?? "", intent, form);
  if (intent === "exercise-rerun") return attempt(intent, () => rerunExercise(svc, viewer, params.slugTask ?? ""));
  if (intent === "extension-save" || intent === "extension-remove") return taskExtensionAction(svc, viewer, params.slugLecture ?? "", params.slugTask ?? "", intent, form);
  // Every write says which it is: a post with no intent or another is refused, never saved as the form with its
  // missing fields set to their defaults.
  if (intent !== "save") return unknownIntent(intent);
  const parsed = updateTaskInput.safeParse(taskValues(form));
  if (!parsed.success) return invalid("save", parsed.error);
  return attempt("save", async () => ({ task: await updateTask(svc, viewer, params.slugLecture ?? "", params.slugTask ?? "", parsed.data) }));
}

/** The grader: the task, every member's submission and who has not handed in. */
export async function loadGrader(svc: ServiceContext, viewer: Viewer, params: { slug?: string; slugLecture?: string; slugTask?: string }) {
  if (!params.slug || !params.slugLecture || !params.slugTask) throw notFoundResponse();
  const { slugLecture, slugTask } = params;
  // Read together; nothing is shown unless the group is the viewer's and the task is in it (getTask checks who may
  // read it). The history names the task by a subquery, so it need not wait for the task's row.
  const [group, task, list, snippets, history] = await allInOrder(
    orHttpError(managedGroupHeading(svc, viewer, params.slug)),
    orHttpError(getTask(svc, viewer, slugLecture, slugTask)),
    orHttpError(listSubmissions(svc, viewer, slugLecture, slugTask)),
    orHttpError(listSnippets(svc, viewer)),
    historyOfTask(svc, { lectureKey: slugLecture, taskKey: slugTask }),
  );
  if (task.group._id !== group._id) throw notFoundResponse();
  return {
    group: { id: group._id, slug: group.slug, title: group.title },
    task,
    // Each hand-in with its versions and its conversation (two statements for the whole task).
    submissions: list.submissions.map((x) => ({ ...x, versions: history.get(x._id)?.versions ?? [], comments: history.get(x._id)?.comments ?? [] })),
    missing: list.missing,
    snippets: snippets.map((x) => ({ _id: x._id, text: x.text })),
  };
}

/**
 * intent=grade (score, feedback) or intent=return (ask for a new version) on one submission; intent=release releases
 * the task's held grades.
 */
export async function graderAction(svc: ServiceContext, viewer: Viewer, params: { slugLecture?: string; slugTask?: string }, form: FormData) {
  const intent = text(form, "intent");
  if (intent === "release") return attempt(intent, async () => ({ released: (await releaseGrades(svc, viewer, params.slugLecture ?? "", params.slugTask ?? "")).released }));
  // The feedback's preview: Markdown rendered by the server exactly as the student will see it (nothing is saved).
  if (intent === "preview") return data({ ok: true as const, intent, html: renderMarkdown(rawText(form, "text").slice(0, 5_000)) });
  if (intent === "comment") return commentAction(svc, viewer, params, form);
  if (intent === "snippet-delete") return attempt(intent, () => deleteSnippet(svc, viewer, text(form, "snippetId")));
  if (intent === "snippet-add") {
    const parsed = commentSnippetInput.safeParse({ text: text(form, "text") });
    if (!parsed.success) return invalid(intent, parsed.error);
    return attempt(intent, async () => ({ snippet: await addSnippet(svc, viewer, parsed.data) }));
  }
  if (intent !== "grade" && intent !== "return") return unknownIntent(intent);
  const id = text(form, "submissionId");
  const rubric = jsonField(form, "rubric");
  // The version the grader saw, when the form says it (the grader does).
  const version = text(form, "version") || undefined;
  // And the grade it saw (empty: none), when the form says it.
  const graded = form.has("graded") ? text(form, "graded") : undefined;
  const input =
    intent === "return"
      ? { requestResubmission: true as const, feedback: rawText(form, "feedback") || undefined, version, graded }
      : rubric !== null
        ? { rubric, feedback: rawText(form, "feedback"), version, graded }
        : { score: text(form, "score"), feedback: rawText(form, "feedback"), version, graded };
  const parsed = gradeSubmissionInput.safeParse(input);
  if (!parsed.success) return invalid(intent, parsed.error, id);
  return attempt(intent, async () => ({ submission: await gradeSubmission(svc, viewer, params.slugLecture ?? "", params.slugTask ?? "", id, parsed.data) }), id);
}
