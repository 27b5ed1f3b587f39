/**
 * Loader and action bodies of the quiz pages, calling the same services as /api/quizzes:
 * - the student's intro, questions, result and answers (/course/{slug}/lecture/{slugLecture}/quiz/{slugQuiz}/...);
 * - the autosave and hand-in endpoint the questions screen calls in the background;
 * - the staff's quizzes list with the results matrix, and the quiz editor (new and edit).
 */
import { data, redirect } from "@remix-run/server-runtime";
import type { ZodError } from "zod";
import type { ServiceContext } from "../../worker/context";
import { AppError } from "../../worker/http/errors";
import { managedGroupHeading } from "../../worker/services/group-access";
import { getLecture, listLectures } from "../../worker/services/lectures";
import { createQuiz, deleteQuiz, drawingQuizzes, drawsShared, getQuiz, getResult, groupResults, quizStarted, saveAnswers, startAttempt, submitQuiz, updateQuiz } from "../../worker/services/quizzes";
import type { Viewer } from "../../worker/services/sessions";
import { listQuizExtensions, removeQuizExtension, setQuizExtensions } from "../../worker/services/extensions";
import { correctKey, getAttemptForStaff, setAnswerPoints } from "../../worker/services/quiz-regrade";
import { checkPreview, newDraw, previewQuiz } from "../../worker/services/quiz-preview";
import { addBankQuestion, deleteBankQuestion, listBank, updateBankQuestion } from "../../worker/services/question-bank";
import { listGroupStudents } from "../../worker/services/students";
import { toLatinDigits } from "./digits";
import { quizExtensionInput } from "./extension-schemas";
import { allInOrder, attempt, formNumber, invalid, jsonField, orHttpError, rawText, text, unknownIntent } from "./group-actions.server";
import { renderMarkdown } from "./markdown.server";
import { notFoundResponse } from "./not-found.server";
import { answerPointsInput, answersMap, bankQuestionInput, createQuizInput, previewCheckInput, previewDraw, questionKeyInput, saveAnswersInput, updateQuizInput } from "./quiz-schemas";

type QuizParams = { slug?: string; slugLecture?: string; slugQuiz?: string };

export { quizPath } from "./paths";
import { quizPath, segment } from "./paths";

/** A group's pages in the viewer's own staff area (the admin's or the instructor's). */
const staffGroupBase = (viewer: Viewer, groupSlug: string) => `${viewer.role === "admin" ? "/dashboard/admin" : "/instructor"}/group/${segment(groupSlug)}`;

/** The quiz as its student pages show it, checked against the URL's group and lecture. */
async function studentQuiz(svc: ServiceContext, viewer: Viewer, params: QuizParams) {
  if (!params.slug || !params.slugLecture || !params.slugQuiz) throw notFoundResponse();
  const quiz = await orHttpError(getQuiz(svc, viewer, params.slugQuiz));
  if ((quiz.group.slug !== params.slug && quiz.group._id !== params.slug) || (quiz.lecture.slug !== params.slugLecture && quiz.lecture._id !== params.slugLecture)) throw notFoundResponse();
  return quiz;
}

/** The intro: rules, attempts left, start or resume. No question is sent. */
export async function loadQuizIntro(svc: ServiceContext, viewer: Viewer, params: QuizParams) {
  const { questions: _questions, ...quiz } = await studentQuiz(svc, viewer, params);
  const staffBase = staffGroupBase(viewer, quiz.group.slug);
  // The review's promise is kept honest: drawn keys wait while another quiz still draws from their tags.
  const keysMayWait = quiz.showAnswers !== "never" && (await drawsShared(svc, quiz._id));
  return {
    quiz,
    keysMayWait,
    base: quizPath(quiz.group.slug, quiz.lecture.slug, quiz.slug),
    editPath: quiz.isStaff ? `${staffBase}/lecture/${segment(quiz.lecture.slug)}/quiz/updateQuiz/${segment(quiz.slug)}` : null,
    previewPath: quiz.isStaff ? `${staffBase}/quiz-preview/${segment(quiz.slug)}` : null,
  };
}

/** intent=start: starts or resumes the attempt, then the questions screen. */
export async function quizIntroAction(svc: ServiceContext, viewer: Viewer, params: QuizParams, form: FormData) {
  if (text(form, "intent") !== "start") return data({ ok: false as const, code: "bad_request", message: "Unknown action." }, { status: 400 });
  const quiz = await studentQuiz(svc, viewer, params);
  try {
    await startAttempt(svc, viewer, quiz._id);
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return data({ ok: false as const, code: err.code, message: err.message }, { status: err.status });
  }
  return redirect(`${quizPath(quiz.group.slug, quiz.lecture.slug, quiz.slug)}/questions`);
}

/** The questions screen needs an open attempt; without one the intro explains what is possible. */
export async function loadQuizQuestions(svc: ServiceContext, viewer: Viewer, params: QuizParams) {
  const quiz = await studentQuiz(svc, viewer, params);
  const base = quizPath(quiz.group.slug, quiz.lecture.slug, quiz.slug);
  if (!quiz.attempt || quiz.isStaff) throw redirect(base);
  return { quiz: { ...quiz, isStaff: false }, attempt: quiz.attempt, base };
}

/** The result and the answers screens: the student's graded attempts (and the review when the policy allows). */
export async function loadQuizResult(svc: ServiceContext, viewer: Viewer, params: QuizParams) {
  const quiz = await studentQuiz(svc, viewer, params);
  const base = quizPath(quiz.group.slug, quiz.lecture.slug, quiz.slug);
  if (quiz.isStaff) throw redirect(base);
  try {
    const result = await getResult(svc, viewer, quiz._id);
    return { result, base };
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw redirect(base);
    throw err;
  }
}

/**
 * POST .../quiz/{slugQuiz}/save with intent=save or intent=submit, `answers` (JSON) and `attemptId`: what the
 * questions screen sends in the background. Answers JSON, so the page can retry on a network failure.
 */
export async function quizSaveAction(svc: ServiceContext, viewer: Viewer, params: { slugQuiz?: string }, form: FormData) {
  const intent = text(form, "intent");
  const parsed = answersMap.safeParse(jsonField(form, "answers"));
  if (!parsed.success) return Response.json({ ok: false, code: "validation_failed", message: "The answers could not be read." }, { status: 400 });
  const attemptId = text(form, "attemptId") || undefined;
  // The save these answers follow: absent (not said), empty (none yet), or that save's time.
  const said = form.get("basedOn");
  const seen = said === null ? { success: true as const, data: undefined } : saveAnswersInput.shape.basedOn.safeParse(said === "" ? null : String(said));
  if (!seen.success) return Response.json({ ok: false, code: "validation_failed", message: "basedOn is the time of the save these answers follow." }, { status: 400 });
  const basedOn = seen.data;
  try {
    if (intent === "save") return Response.json({ ok: true, ...(await saveAnswers(svc, viewer, params.slugQuiz ?? "", { answers: parsed.data, attemptId, basedOn })) });
    if (intent === "submit") return Response.json({ ok: true, ...(await submitQuiz(svc, viewer, params.slugQuiz ?? "", { answers: parsed.data, attemptId, basedOn })) });
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return Response.json({ ok: false, code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) }, { status: err.status });
  }
  return Response.json({ ok: false, code: "bad_request", message: "Unknown action." }, { status: 400 });
}

/* ---------------------------------------------------------------------------------------------------------------
 * Staff: the group's quizzes with the results matrix, and the editor.
 * ------------------------------------------------------------------------------------------------------------- */

export async function loadStaffQuizzes(svc: ServiceContext, viewer: Viewer, params: { slug?: string }) {
  if (!params.slug) throw notFoundResponse();
  const group = await orHttpError(managedGroupHeading(svc, viewer, params.slug));
  const [results, lectureList, bank] = await Promise.all([orHttpError(groupResults(svc, viewer, group._id)), orHttpError(listLectures(svc, viewer, group._id)), orHttpError(listBank(svc, viewer, group._id))]);
  return { group: { id: group._id, slug: group.slug, title: group.title }, results, lectures: lectureList.map((l) => ({ slug: l.slug, title: l.title })), bank };
}

/** The Quizzes tab's question bank: intent=preview (a question's Markdown), bank-save (new without questionId), bank-delete. */
export async function staffQuizzesAction(svc: ServiceContext, viewer: Viewer, params: { slug?: string }, form: FormData) {
  const intent = text(form, "intent");
  const group = params.slug ?? "";
  const questionId = text(form, "questionId");
  if (intent === "preview") return preview(intent, form);
  if (intent === "bank-delete") return attempt(intent, () => deleteBankQuestion(svc, viewer, group, questionId), questionId);
  if (intent !== "bank-save") return unknownIntent(intent);
  const parsed = bankQuestionInput.safeParse(jsonField(form, "payload"));
  if (!parsed.success) return invalid(intent, parsed.error, questionId);
  return attempt(intent, async () => ({ question: questionId ? await updateBankQuestion(svc, viewer, group, questionId, parsed.data) : await addBankQuestion(svc, viewer, group, parsed.data) }), questionId);
}

/** The editor of a new quiz on a lecture. */
export async function loadNewQuiz(svc: ServiceContext, viewer: Viewer, params: { slug?: string; slugLecture?: string }) {
  if (!params.slug || !params.slugLecture) throw notFoundResponse();
  const [group, lecture] = await allInOrder(orHttpError(managedGroupHeading(svc, viewer, params.slug)), orHttpError(getLecture(svc, viewer, params.slugLecture)));
  if (lecture.group._id !== group._id) throw notFoundResponse();
  // The bank's tags for the editor's draws, and the quizzes that draw from them (whose tags keep keys back).
  const [{ tags: bankTags }, otherDraws] = await Promise.all([orHttpError(listBank(svc, viewer, group._id)), drawingQuizzes(svc, group._id)]);
  return { group: { id: group._id, slug: group.slug, title: group.title }, lecture: { slug: lecture.slug, title: lecture.title }, quiz: null, bankTags, otherDraws };
}

/** The editor of an existing quiz, with its correct answers (staff only) and whether students have started it. */
export async function loadEditQuiz(svc: ServiceContext, viewer: Viewer, params: { slug?: string; slugLecture?: string; slugQuiz?: string }) {
  const base = await loadNewQuiz(svc, viewer, params);
  const quiz = await orHttpError(getQuiz(svc, viewer, params.slugQuiz ?? ""));
  if (quiz.group._id !== base.group.id || quiz.lecture.slug !== base.lecture.slug) throw notFoundResponse();
  const [started, extensions, students] = await Promise.all([
    quizStarted(svc, quiz._id),
    orHttpError(listQuizExtensions(svc, viewer, quiz._id)),
    orHttpError(listGroupStudents(svc, viewer, base.group.id, {})),
  ]);
  // The group's drawing quizzes were read with the editor's base: this quiz's own draws share nothing with themselves.
  const otherDraws = base.otherDraws.filter((o) => o.id !== quiz._id);
  return { ...base, quiz, started, extensions, otherDraws, students: students.map((s) => ({ _id: s.user._id, name: s.user.name })) };
}

/** The extension panel's intents on a quiz's edit page: a later close, extra minutes and/or attempts. */
function quizExtensionAction(svc: ServiceContext, viewer: Viewer, quizKey: string, intent: string, form: FormData) {
  if (intent === "extension-remove") return attempt(intent, () => removeQuizExtension(svc, viewer, quizKey, text(form, "userId")), text(form, "userId"));
  const whole = (name: string) => (text(form, name) === "" ? undefined : formNumber(text(form, name)));
  const parsed = quizExtensionInput.safeParse({ userIds: jsonField(form, "userIds"), closesAt: text(form, "closesAt") || null, extraMinutes: whole("extraMinutes"), extraAttempts: whole("extraAttempts") });
  if (!parsed.success) return invalid(intent, parsed.error);
  return attempt(intent, async () => ({ extensions: await setQuizExtensions(svc, viewer, quizKey, parsed.data) }));
}

function editorFailure(intent: string, error: ZodError) {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[issue.path.join(".") || "form"] ??= issue.message;
  return data({ ok: false as const, intent, code: "validation_failed", message: Object.values(fields)[0] ?? "Please check the quiz.", fields }, { status: 400 });
}

/** The editor's preview: Markdown rendered by the server exactly as students will see it. */
const preview = (intent: string, form: FormData) => data({ ok: true as const, intent, html: renderMarkdown(rawText(form, "text").slice(0, 5000)) });

/** intent=preview renders Markdown the way students will see it; intent=save creates the quiz. */
export async function newQuizAction(svc: ServiceContext, viewer: Viewer, params: { slugLecture?: string }, form: FormData) {
  const intent = text(form, "intent");
  if (intent === "preview") return preview(intent, form);
  if (intent !== "save") return unknownIntent(intent);
  const parsed = createQuizInput.safeParse({ ...(jsonField(form, "payload") as object), lectureId: params.slugLecture ?? "" });
  if (!parsed.success) return editorFailure("save", parsed.error);
  return attempt("save", async () => ({ quiz: await createQuiz(svc, viewer, parsed.data) }));
}

/** intent=preview, intent=save (the whole quiz; questions only while no student has started) or intent=delete. */
export async function editQuizAction(svc: ServiceContext, viewer: Viewer, params: { slugQuiz?: string }, form: FormData) {
  const intent = text(form, "intent");
  if (intent === "preview") return preview(intent, form);
  if (intent === "delete") return attempt("delete", () => deleteQuiz(svc, viewer, params.slugQuiz ?? ""));
  if (intent === "extension-save" || intent === "extension-remove") return quizExtensionAction(svc, viewer, params.slugQuiz ?? "", intent, form);
  if (intent !== "save") return unknownIntent(intent);
  const payload = jsonField(form, "payload") as Record<string, unknown> | null;
  const parsed = updateQuizInput.safeParse(payload ?? {});
  if (!parsed.success) return editorFailure("save", parsed.error);
  return attempt("save", async () => ({ quiz: await updateQuiz(svc, viewer, params.slugQuiz ?? "", parsed.data) }));
}

/**
 * The quiz as one of its students would get it (staff): one paper, chosen by `?draw=` (the address gets a fresh one
 * without it), and the next draw for "Draw another paper". Checked against the URL's group.
 */
export async function loadQuizPreview(svc: ServiceContext, viewer: Viewer, params: { slug?: string; slugQuiz?: string }, url: URL) {
  if (!params.slug || !params.slugQuiz) throw notFoundResponse();
  const asked = previewDraw.safeParse(url.searchParams.get("draw"));
  // The address holds the paper, so a reload shows the same one: without a draw, one is chosen. Returned, not thrown:
  // thrown here (before any read of this loader) the redirect was also left as an unhandled rejection in workerd.
  if (!asked.success) {
    url.searchParams.set("draw", newDraw());
    return redirect(`${url.pathname}${url.search}`);
  }
  const [group, preview] = await allInOrder(orHttpError(managedGroupHeading(svc, viewer, params.slug)), orHttpError(previewQuiz(svc, viewer, params.slugQuiz, asked.data)));
  if (preview.quiz.group._id !== group._id) throw notFoundResponse();
  const editPath = `${staffGroupBase(viewer, group.slug)}/lecture/${segment(preview.quiz.lecture.slug)}/quiz/updateQuiz/${segment(preview.quiz.slug)}`;
  return { group: { id: group._id, slug: group.slug, title: group.title }, preview, nextDraw: newDraw(), editPath };
}

/** intent=check: the answers to the preview's paper checked as a hand-in would be; nothing is stored. */
export async function quizPreviewAction(svc: ServiceContext, viewer: Viewer, params: { slugQuiz?: string }, form: FormData) {
  const intent = text(form, "intent");
  if (intent !== "check") return unknownIntent(intent);
  const parsed = previewCheckInput.safeParse({ draw: text(form, "draw"), answers: jsonField(form, "answers") });
  if (!parsed.success) return invalid(intent, parsed.error);
  return attempt(intent, () => checkPreview(svc, viewer, params.slugQuiz ?? "", parsed.data));
}

/** A student's attempt for the quiz's staff (issue 21), reached from the results matrix. */
export async function loadStaffAttempt(svc: ServiceContext, viewer: Viewer, params: { slug?: string; slugQuiz?: string; attemptId?: string }) {
  if (!params.slug || !params.slugQuiz || !params.attemptId) throw notFoundResponse();
  const [group, attempt] = await allInOrder(orHttpError(managedGroupHeading(svc, viewer, params.slug)), orHttpError(getAttemptForStaff(svc, viewer, params.slugQuiz, params.attemptId)));
  if (attempt.quiz.groupId !== group._id) throw notFoundResponse();
  return { group: { id: group._id, slug: group.slug, title: group.title }, attempt };
}

/** intent=points (points and a note for one answer), points-clear (the key decides again) or key (a corrected key). */
export async function staffAttemptAction(svc: ServiceContext, viewer: Viewer, params: { slugQuiz?: string; attemptId?: string }, form: FormData) {
  const intent = text(form, "intent");
  const questionId = text(form, "questionId");
  if (intent === "key") {
    // The attempt on screen names the copy of a question drawn from the bank (a quiz's own question ignores it).
    const parsed = questionKeyInput.safeParse({ correct: jsonField(form, "correct"), attemptId: params.attemptId });
    if (!parsed.success) return invalid(intent, parsed.error, questionId);
    return attempt(intent, async () => {
      const done = await correctKey(svc, viewer, params.slugQuiz ?? "", questionId, parsed.data);
      return { regraded: done.regraded, bank: done.bank };
    }, questionId);
  }
  if (intent !== "points" && intent !== "points-clear") return unknownIntent(intent);
  const raw = toLatinDigits(text(form, "points"));
  const parsed = answerPointsInput.safeParse({ points: intent === "points-clear" ? null : raw === "" ? undefined : formNumber(raw), note: rawText(form, "note") });
  if (!parsed.success) return invalid(intent, parsed.error, questionId);
  return attempt(intent, async () => ({ attempt: await setAnswerPoints(svc, viewer, params.slugQuiz ?? "", params.attemptId ?? "", questionId, parsed.data) }), questionId);
}
