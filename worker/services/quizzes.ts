/**
 * Quizzes, attempts and results (PRODUCT.md §2 Quiz, Question, Attempt; §3 Quizzes; docs/decisions/0014-quizzes.md).
 *
 * The server owns the clock and the grading. An attempt's deadline is fixed when it starts
 * (min(start + duration, closesAt)); answers are saved while it is open and count until QUIZ_NETWORK_MS after the
 * deadline (a request already on its way); a hand-in is accepted until QUIZ_GRACE_MS after it but, once the answers
 * no longer count, is graded on what was saved in time. An attempt nobody hands in is closed and graded by the server
 * once its answers can no longer count (deadline + QUIZ_NETWORK_MS): its quiz's clock (a Durable Object alarm,
 * worker/realtime/quiz-clock.ts) rings then, any read that meets it first closes it too ("settling"), and the daily
 * cron catches what both missed, so every list, result and matrix shows it graded even if the browser never came
 * back. A read never runs student code: code answers are judged in the background as they are saved (or when a read
 * closed an attempt), and at the hand-in for whatever is still missing. Questions reach a
 * student only with an open attempt (or an open untimed quiz); correct answers leave this module only for staff and
 * for the review, once the quiz's `showAnswers` policy allows it and no attempt can still be handed in.
 */
import { and, asc, eq, getTableColumns, inArray, isNotNull, isNull, not, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { byName } from "../../app/lib/names";
import { can, type Actor } from "../../app/lib/permissions";
import { renderMarkdown } from "../../app/lib/markdown.server";
import {
  QUIZ_CHECK_RATE,
  QUIZ_GRACE_MS,
  QUIZ_NETWORK_MS,
  attemptDeadline,
  quizWindow,
  WORTH_NOTHING,
  NO_QUESTIONS,
  type AnswersMap,
  type AnswerValue,
  type CreateQuizInput,
  type QuestionInput,
  type QuizWindow,
  type ShowAnswers,
  type UpdateQuizInput,
} from "../../app/lib/quiz-schemas";
import { attempts, bankQuestions, extensions, groups, lectures, memberships, questions, quizzes, users, MEMBER_STATUSES, type GroupStatus } from "../../db/schema";
import { makePaper, originalOption, paperQuestions, type QuizDraw } from "../../app/lib/quiz-paper";
import { bankChanged, bankOf, bankStill, drawsUnfit, refuseIfBankChanged, tagCounts } from "./question-bank";
import { chunked, D1_MAX_PARAMS, slices } from "./chunks";
import { preparedOnce } from "../../db/prepared";
import type { ServiceContext } from "../context";
import { withHtml } from "./stored-html";
import { groupForUser, notStaffOf, outsider, placeFacts, requireCourseRunning, workPlaceColumns } from "./group-access";
import { AppError, forbidden, notFound } from "../http/errors";
import { isForeignKeyViolation, newId, slugCandidates, withFreshSlugs } from "./ids";
import { isMember, memberIds } from "./memberships";
import { notifyUsers } from "./notifications";
import { ifCodeLeaseFree, leaseFor, takeCodeLease, underCodeLease, type CodeLease } from "./code-lease";
import { checkAnswers, checkCode, codeVerdicts, earned, grade, isRight, knownVerdicts, maxScoreOf, testOutcomes, type CodeChecks, type CodeToRun, type GradableQuestion } from "./quiz-grading";
import { ownTime } from "./own-time";
import { hitRateLimit } from "./rate-limit";
import { scoreShare } from "../../app/lib/progress";
import { extensionOf } from "./extension-join";

type AttemptRow = typeof attempts.$inferSelect;
type QuestionRow = typeof questions.$inferSelect;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const ms = (d: Date | null | undefined) => (d ? d.getTime() : null);
/** Markdown of one line (an option) without the paragraph around it. */
const inlineHtml = (source: string) => renderMarkdown(source).trim().replace(/^<p>([\s\S]*)<\/p>$/, "$1");

interface QuizRecord {
  /** A draft the server publishes at this time (issue 22). */
  publishAt?: Date | null;
  id: string;
  slug: string;
  title: string;
  description: string;
  /** Stored when saved (stored-html.ts); null for a row saved by another path, rendered then. */
  descriptionHtml: string | null;
  durationMinutes: number | null;
  opensAt: Date | null;
  closesAt: Date | null;
  maxAttempts: number;
  showAnswers: ShowAnswers;
  published: boolean;
  /** Bank draws and shuffles (issue 21): each attempt then gets its own paper (app/lib/quiz-paper.ts). */
  draws: QuizDraw[];
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  /** When a review first showed a student the answers (ADR 0040); null: never. */
  answersShownAt: Date | null;
  lectureId: string;
  lectureSlug: string;
  lectureTitle: string;
  lecturePublished: boolean;
  groupId: string;
  groupSlug: string;
  groupTitle: string;
  /** To someone outside a draft group its quizzes are unknown (404; `outsider()`). */
  groupStatus: GroupStatus;
  instructorId: string | null;
  membershipStatus: string | null;
  /** The viewer's accommodation on timed quizzes of the group, in percent of the duration (null: not a member). */
  quizTimePercent: number | null;
  /** The viewer's extension's extra minutes per attempt (0 without one). `closesAt` and `maxAttempts` are theirs. */
  extraMinutes: number;
  /** The quiz's own close and attempts when the viewer has an extension that changes them; null otherwise. */
  extendedFrom: { closesAt: Date | null; maxAttempts: number } | null;
}

const facts = (r: { instructorId: string | null; membershipStatus?: string | null }) => ({ instructorId: r.instructorId, membershipStatus: r.membershipStatus ?? null });
const isStaffOf = (viewer: Actor, r: { instructorId: string | null }) => can(viewer, "group.manage", { group: facts(r) });
const windowOf = (q: { opensAt: Date | null; closesAt: Date | null }, now: number): QuizWindow => quizWindow({ opensAt: ms(q.opensAt), closesAt: ms(q.closesAt) }, now);

/** A quiz by id or slug, with its lecture, group and the viewer's membership (one query). */
async function findQuiz(ctx: ServiceContext, viewer: Actor, key: string): Promise<QuizRecord | null> {
  const [row] = await ctx.db
    .select({
      id: quizzes.id,
      slug: quizzes.slug,
      title: quizzes.title,
      description: quizzes.description,
      descriptionHtml: quizzes.descriptionHtml,
      durationMinutes: quizzes.durationMinutes,
      opensAt: quizzes.opensAt,
      closesAt: quizzes.closesAt,
      maxAttempts: quizzes.maxAttempts,
      showAnswers: quizzes.showAnswers,
      published: quizzes.published,
      publishAt: quizzes.publishAt,
      draws: quizzes.draws,
      shuffleQuestions: quizzes.shuffleQuestions,
      shuffleOptions: quizzes.shuffleOptions,
      answersShownAt: quizzes.answersShownAt,
      ...workPlaceColumns,
      quizTimePercent: memberships.quizTimePercent,
      extension: { id: extensions.id, closesAt: extensions.closesAt, extraMinutes: extensions.extraMinutes, extraAttempts: extensions.extraAttempts },
    })
    .from(quizzes)
    .innerJoin(lectures, eq(lectures.id, quizzes.lectureId))
    .innerJoin(groups, eq(groups.id, quizzes.groupId))
    .leftJoin(memberships, and(eq(memberships.groupId, groups.id), eq(memberships.userId, viewer.userId)))
    .leftJoin(extensions, extensionOf("quiz", quizzes.id, viewer.userId))
    .where(or(eq(quizzes.id, key), eq(quizzes.slug, key)))
    .limit(1);
  return row ? withExtension(row) : null;
}

/**
 * A quiz as one student has it (issue 21): their extension's later close (own-time.ts: never an earlier one) and extra
 * attempts replace the quiz's, so every check (the window, starting, the deadline, the review) follows the exception
 * without knowing of it.
 */
function withExtension<T extends { closesAt: Date | null; maxAttempts: number }>(row: T & { extension: { id: string | null; closesAt: Date | null; extraMinutes: number | null; extraAttempts: number | null } | null }) {
  const { extension, ...quiz } = row;
  if (!extension?.id) return { ...quiz, extraMinutes: 0, extendedFrom: null };
  return {
    ...quiz,
    closesAt: ownTime(quiz.closesAt, extension.closesAt),
    maxAttempts: quiz.maxAttempts + (extension.extraAttempts ?? 0),
    extraMinutes: extension.extraMinutes ?? 0,
    extendedFrom: { closesAt: quiz.closesAt, maxAttempts: quiz.maxAttempts },
  };
}

/** Members see a published quiz of a published lecture; staff see every quiz of their groups. */
async function requireReadableQuiz(ctx: ServiceContext, viewer: Actor, key: string): Promise<QuizRecord> {
  const quiz = await findQuiz(ctx, viewer, key);
  if (!quiz) throw notFound("No such quiz.");
  // Not published (or on an unpublished lecture): to anyone but its staff it does not exist, in the group or not.
  if ((!quiz.published || !quiz.lecturePublished) && !isStaffOf(viewer, quiz)) throw notFound("No such quiz.");
  if (!can(viewer, "group.viewInside", { group: facts(quiz) })) throw outsider(viewer, placeFacts(quiz), "Only the group's members and staff can see its quizzes.", "No such quiz.");
  return quiz;
}

export async function requireManagedQuiz(ctx: ServiceContext, viewer: Actor, key: string): Promise<QuizRecord> {
  const quiz = await findQuiz(ctx, viewer, key);
  if (!quiz) throw notFound("No such quiz.");
  if (!isStaffOf(viewer, quiz)) throw notStaffOf(viewer, placeFacts(quiz), !quiz.published || !quiz.lecturePublished, "No such quiz.");
  return quiz;
}

/** The quiz a student acts on: readable, and they are one of the group's students. */
async function requireTakeableQuiz(ctx: ServiceContext, viewer: Actor, key: string): Promise<QuizRecord> {
  const quiz = await requireReadableQuiz(ctx, viewer, key);
  if (!isMember(quiz)) throw forbidden("Only the group's students take its quizzes. Staff see the answers in the results.");
  return quiz;
}

/** The questions of these quizzes, each quiz's in order (read in slices of quizzes: D1 binds at most 100 values). */
export const questionsOf = (ctx: ServiceContext, quizIds: string[]): Promise<QuestionRow[]> =>
  chunked(quizIds, (ids) => ctx.db.select().from(questions).where(inArray(questions.quizId, ids)).orderBy(asc(questions.order)));

/** Whether each attempt gets its own paper: the quiz draws from the bank or shuffles (issue 21). */
export const usesPaper = (quiz: { draws: QuizDraw[]; shuffleQuestions: boolean; shuffleOptions: boolean }) => quiz.draws.length > 0 || quiz.shuffleQuestions || quiz.shuffleOptions;

/** How many questions and points one attempt has: the quiz's own and those its draws add. */
export const quizSize = (quiz: { draws: QuizDraw[] }, own: Pick<QuestionRow, "points">[]) => ({
  questionCount: own.length + quiz.draws.reduce((n, d) => n + d.count, 0),
  maxScore: own.reduce((n, q) => n + q.points, 0) + quiz.draws.reduce((n, d) => n + d.count * d.points, 0),
});

/**
 * The questions an attempt was given, as it was given them: its paper's order, options and drawn copies, or the
 * quiz's own questions when it has no paper. `qs` are the quiz's own questions. Answers are read against these.
 */
export function questionsFor(qs: QuestionRow[], a: Pick<AttemptRow, "quizId" | "paper"> | null | undefined): QuestionRow[] {
  const own = a ? qs.filter((q) => q.quizId === a.quizId) : qs;
  if (!a?.paper) return own;
  return paperQuestions(own, a.paper, (d) => ({ ...d, quizId: a.quizId, code: null, order: 0 }));
}

const ownAttempts = (ctx: ServiceContext, userId: string, quizIds: string[]) =>
  quizIds.length === 0
    ? Promise.resolve([] as AttemptRow[])
    : ctx.db.select().from(attempts).where(and(eq(attempts.userId, userId), inArray(attempts.quizId, quizIds))).orderBy(asc(attempts.number));

/** An open attempt whose answers can no longer count (deadline plus the network allowance): the server closes it. */
const expired = (a: Pick<AttemptRow, "submittedAt" | "deadlineAt">, now: number) => !a.submittedAt && a.deadlineAt !== null && now > a.deadlineAt.getTime() + QUIZ_NETWORK_MS;

/** When the server closes an attempt with this deadline: the first millisecond its answers no longer count. */
export const closingTime = (deadline: number) => deadline + QUIZ_NETWORK_MS + 1;

/**
 * Whether a student still has time in their open attempt (the intro offers "Resume", the result "Resume" too).
 * Between the deadline and the server closing it, the attempt is still open but only being handed in.
 */
const running = (a: Pick<AttemptRow, "submittedAt" | "deadlineAt">, now: number) => !a.submittedAt && (a.deadlineAt === null || now < a.deadlineAt.getTime());

/**
 * Closes and grades, on the answers saved in time, every open attempt among `rows` whose deadline plus the network
 * allowance has passed; answers the rows as they now are. The UPDATE only touches a still-open attempt whose answers
 * are still the ones graded (same `savedAt`), so a submit, or a save sent in time, that lands at the same moment is
 * never overwritten: the attempt then stays open for the next pass. No query at all when nothing has expired.
 *
 * It never runs student code (a read must not wait for the sandbox): code answers use the checks stored as they
 * were saved, when their hash matches; any other code answer counts as wrong for now, the attempt is marked
 * `codePending`, and the runner judges it in the background, which then corrects the score. Attempts still pending
 * from an earlier read (background work lost with its isolate) are scheduled again.
 */
async function settle(ctx: ServiceContext, rows: AttemptRow[], now: number, known?: QuestionRow[], inline?: string[]): Promise<AttemptRow[]> {
  const due = rows.filter((a) => expired(a, now));
  const later = rows.filter((a) => a.submittedAt && a.codePending).map((a) => a.id);
  const schedule = (ids: string[]) => (inline ? inline.push(...ids) : gradeLater(ctx, ids));
  if (due.length === 0) {
    schedule(later);
    return rows;
  }
  const quizIds = [...new Set(due.map((a) => a.quizId))];
  const qs = known ?? (await questionsOf(ctx, quizIds));
  const graded = new Map<string, AttemptRow>();
  const updates = [];
  for (const a of due) {
    const own = questionsFor(qs, a) as GradableQuestion[];
    const { verdicts, missing } = await knownVerdicts(own, a.answers, a.codeChecks);
    const result = grade(own, a.answers, verdicts, a.overrides);
    const codePending = missing.length > 0;
    if (codePending) later.push(a.id);
    graded.set(a.id, { ...a, ...result, verdicts, codePending, submittedAt: a.deadlineAt });
    updates.push(
      ctx.db
        .update(attempts)
        .set({ ...result, verdicts, codePending, submittedAt: a.deadlineAt })
        .where(and(eq(attempts.id, a.id), isNull(attempts.submittedAt), a.savedAt ? eq(attempts.savedAt, a.savedAt) : isNull(attempts.savedAt))),
    );
  }
  await ctx.db.batch(updates as [(typeof updates)[number], ...typeof updates]);
  schedule(later);
  return rows.map((a) => graded.get(a.id) ?? a);
}

/** Background work of this isolate, so repeated reads do not queue the same code twice while it runs. */
const gradingNow = new Set<string>();

/** Judges the code of closed, `codePending` attempts after the response, one after another; never awaited by a read. */
function gradeLater(ctx: ServiceContext, attemptIds: string[]) {
  const fresh = [...new Set(attemptIds)].filter((id) => !gradingNow.has(`grade:${id}`));
  if (fresh.length === 0) return;
  for (const id of fresh) gradingNow.add(`grade:${id}`);
  ctx.waitUntil(
    (async () => {
      try {
        for (const id of fresh) await finishGrading(ctx, id);
      } finally {
        for (const id of fresh) gradingNow.delete(`grade:${id}`);
      }
    })(),
  );
}

/**
 * Runs the code a closed attempt still waits for and stores its verdicts and final score. Only a still-pending
 * attempt is updated (a second run elsewhere changes nothing). Exported for the tests and the daily cron.
 */
export async function finishGrading(ctx: ServiceContext, attemptId: string): Promise<void> {
  const [a] = await ctx.db.select().from(attempts).where(eq(attempts.id, attemptId));
  if (!a || !a.submittedAt || !a.codePending) return;
  const qs = questionsFor(await questionsOf(ctx, [a.quizId]), a) as GradableQuestion[];
  const { verdicts, checks } = await codeVerdicts(ctx.runCode, qs, a.answers, a.codeChecks);
  const result = grade(qs, a.answers, verdicts, a.overrides);
  await ctx.db
    .update(attempts)
    .set({ ...result, verdicts, codeChecks: checks, codePending: false })
    .where(and(eq(attempts.id, a.id), eq(attempts.codePending, true)));
}

/** Autosaves' code checks waiting in this isolate, per attempt: only the newest save's (older ones are dropped). */
const checksWaiting = new Map<string, CodeToRun[]>();
/**
 * Code this isolate judged lately (attempt, question, hash), oldest first: a save that repeats it, even one that read
 * its attempt before the check was stored, asks for no second run. Bounded; a hand-in judges whatever is missing.
 */
const judgedLately = new Set<string>();
const JUDGED_LATELY_MAX = 1_000;

/**
 * After a save that changed code answers: judges them in the background and stores each verdict with the hash of the
 * code it judged (one JSON key per question, so checks of two questions never overwrite each other). A hand-in or a
 * closing read uses a check only if the final answer has the same hash, and judges the code itself otherwise, so a
 * check skipped here costs the hand-in a run, never a verdict.
 *
 * Checks are a convenience of autosave, and student code may loop until the sandbox stops it: one attempt has at most
 * one check running in an isolate (saves meanwhile leave only their newest code waiting), and at most
 * QUIZ_CHECK_RATE a minute across every isolate (the shared rate limit; past it, saves skip their check), and none
 * while the student's code runs for a hand-in (code-lease.ts), so one student saving fast cannot fill the code
 * runner that the group's hand-ins wait on.
 */
function checkLater(ctx: ServiceContext, attemptId: string, userId: string, items: CodeToRun[]) {
  const running = checksWaiting.has(attemptId);
  checksWaiting.set(attemptId, items);
  if (running) return;
  ctx.waitUntil(
    (async () => {
      try {
        for (let next = checksWaiting.get(attemptId); next && next.length > 0; next = checksWaiting.get(attemptId)) {
          checksWaiting.set(attemptId, []);
          for (const item of next) {
            const key = `${attemptId}:${item.question.id}:${item.hash}`;
            if (judgedLately.has(key)) continue;
            judgedLately.add(key);
            if (judgedLately.size > JUDGED_LATELY_MAX) judgedLately.delete(judgedLately.values().next().value!);
            // Each run counts: a quiz of many code questions gets no more runs a minute than one of one.
            try {
              await hitRateLimit(ctx, `quiz-check:${attemptId}`, QUIZ_CHECK_RATE);
            } catch {
              return;
            }
            // A check is a convenience: while the student's code runs elsewhere (a hand-in), it is skipped.
            const outcome = await ifCodeLeaseFree(ctx, userId, () => checkCode(ctx.runCode, item));
            if (!outcome) return;
            const { passed, tests } = outcome;
            // Question ids are base64url (worker/services/ids.ts), safe inside a quoted JSON path.
            const path = `$."${item.question.id}"`;
            await ctx.db
              .update(attempts)
              .set({ codeChecks: sql`json_set(coalesce(${attempts.codeChecks}, '{}'), ${path}, json(${JSON.stringify({ hash: item.hash, passed, tests })}))` })
              .where(eq(attempts.id, attemptId));
          }
        }
      } finally {
        checksWaiting.delete(attemptId);
      }
    })(),
  );
}

/**
 * Closes the expired attempts of the given groups' quizzes before their scores are counted (progress): one
 * indexed lookup, and the grading batch only when something has expired. Answers how many it closed.
 */
export async function settleGroupAttempts(ctx: ServiceContext, groupScope: SQLWrapper, now = Date.now()): Promise<number> {
  const open = await ctx.db
    .select({ attempt: attempts })
    .from(attempts)
    .innerJoin(quizzes, eq(quizzes.id, attempts.quizId))
    .where(and(isNull(attempts.submittedAt), sql`${attempts.deadlineAt} < ${now - QUIZ_NETWORK_MS}`, inArray(quizzes.groupId, groupScope)));
  await settle(
    ctx,
    open.map((r) => r.attempt),
    now,
  );
  return open.length;
}

/**
 * Closes every expired attempt of the whole site (the daily cron: the safety net behind the quiz clocks' alarms and
 * the reads), and judges the code of attempts a read closed whose background grading was lost.
 */
export async function settleExpiredAttempts(ctx: ServiceContext, now = Date.now()): Promise<number> {
  const [open, pending] = await Promise.all([
    ctx.db
      .select()
      .from(attempts)
      .where(and(isNull(attempts.submittedAt), sql`${attempts.deadlineAt} < ${now - QUIZ_NETWORK_MS}`))
      .limit(500),
    ctx.db.select({ id: attempts.id }).from(attempts).where(eq(attempts.codePending, true)).limit(100),
  ]);
  await settle(ctx, open, now);
  gradeLater(
    ctx,
    pending.map((p) => p.id),
  );
  return open.length;
}

/**
 * The quiz clock's alarm (worker/realtime/quiz-clock.ts): closes and grades the quiz's attempts whose time is over,
 * judging their code before it returns (an alarm that fails is retried), and answers when it must ring next (the
 * earliest closing time of the attempts still open), or null when none is open. Two statements when nothing is
 * due; the questions and the grading batch only when something is.
 */
export async function closeDueAttempts(ctx: ServiceContext, quizId: string, now = Date.now()): Promise<number | null> {
  const open = await ctx.db
    .select()
    .from(attempts)
    .where(and(eq(attempts.quizId, quizId), isNull(attempts.submittedAt), isNotNull(attempts.deadlineAt)));
  const pending: string[] = [];
  await settle(ctx, open, now, undefined, pending);
  for (const id of pending) await finishGrading(ctx, id);
  // Read again: an attempt a save touched while it was graded (see settle) is still open, and needs another pass.
  const [next] = await ctx.db
    .select({ deadline: sql<number | null>`min(${attempts.deadlineAt})` })
    .from(attempts)
    .where(and(eq(attempts.quizId, quizId), isNull(attempts.submittedAt), isNotNull(attempts.deadlineAt)));
  if (next?.deadline == null) return null;
  return Math.max(closingTime(Number(next.deadline)), now + 1_000);
}

/**
 * Sets the quiz's clock to ring when this attempt's time is over (it keeps an earlier ring). Without the binding
 * (a script's bare Worker), or if the clock cannot be reached, the reads and the daily cron still close the attempt.
 */
async function armClock(ctx: ServiceContext, quizId: string, deadline: Date | null): Promise<void> {
  const clocks = ctx.env.QuizClock as typeof ctx.env.QuizClock | undefined;
  if (!deadline || !clocks) return;
  try {
    await clocks.get(clocks.idFromName(quizId)).arm(quizId, closingTime(deadline.getTime()));
  } catch (err) {
    console.warn("The quiz clock could not be set; reads and the daily cron will close the attempt.", err);
  }
}

/* ---------------------------------------------------------------------------------------------------------------
 * Lists
 * ------------------------------------------------------------------------------------------------------------- */

export interface QuizListItem {
  _id: string;
  slug: string;
  title: string;
  lectureSlug: string;
  lectureTitle: string;
  opensAt: string | null;
  closesAt: string | null;
  durationMinutes: number | null;
  maxAttempts: number;
  showAnswers: ShowAnswers;
  published: boolean;
  /** A draft the server publishes at this time (issue 22); null when not scheduled. */
  publishAt: string | null;
  questionCount: number;
  maxScore: number;
  window: QuizWindow;
  /** Students: their attempts (handed in), whether one is open, and their best score; null for staff. */
  mine: { attempts: number; inProgress: boolean; bestScore: number | null } | null;
}

/** What a quiz list shows of an attempt of the viewer's (`listQuizzes`). */
interface AttemptBrief {
  id: string;
  quizId: string;
  score: number | null;
  deadlineAt: Date | null;
  submittedAt: Date | null;
  codePending: boolean;
}

/** Reads the JSON list `listQuizzes` selects with each quiz: [id, score, deadline, submitted, codePending] per attempt. */
function attemptBriefs(json: string | null, quizId: string): AttemptBrief[] {
  if (!json) return [];
  const date = (ms: unknown) => (typeof ms === "number" ? new Date(ms) : null);
  return (JSON.parse(json) as [string, number | null, number | null, number | null, number | null][]).map(([id, score, deadline, submitted, pending]) => ({
    id,
    quizId,
    score,
    deadlineAt: date(deadline),
    submittedAt: date(submitted),
    codePending: pending === 1,
  }));
}

/**
 * `settle` for a list's briefs: the whole rows of attempts whose time ran out are read, closed and graded (rare: the
 * quiz's clock usually has); code still pending from an earlier read is judged in the background again.
 */
async function settleBriefs(ctx: ServiceContext, briefs: AttemptBrief[], now: number): Promise<AttemptBrief[]> {
  const due = briefs.filter((a) => expired(a, now)).map((a) => a.id);
  gradeLater(
    ctx,
    briefs.filter((a) => a.submittedAt && a.codePending).map((a) => a.id),
  );
  if (due.length === 0) return briefs;
  const graded = new Map((await settle(ctx, await ctx.db.select().from(attempts).where(inArray(attempts.id, due)), now)).map((a) => [a.id, a]));
  return briefs.map((a) => {
    const row = graded.get(a.id);
    return row ? { ...a, score: row.score, submittedAt: row.submittedAt, codePending: row.codePending } : a;
  });
}

/**
 * A quiz's columns as a list shows it (and its own window and extension): never its Markdown description and
 * rendered HTML, which only the quiz's own page shows.
 */
const quizListColumns = {
  id: quizzes.id,
  slug: quizzes.slug,
  title: quizzes.title,
  opensAt: quizzes.opensAt,
  closesAt: quizzes.closesAt,
  durationMinutes: quizzes.durationMinutes,
  maxAttempts: quizzes.maxAttempts,
  showAnswers: quizzes.showAnswers,
  published: quizzes.published,
  publishAt: quizzes.publishAt,
  draws: quizzes.draws,
};

/** A lecture its page has already read and checked the viewer may read (lectures.ts `requireReadableLecture`). */
interface ReadLecture {
  id: string;
  groupId: string;
  instructorId: string | null;
  membershipStatus: string | null;
}

async function listQuizzes(ctx: ServiceContext, viewer: Actor, scope: { groupKey: string } | { lectureKey: string } | { lecture: ReadLecture }, now: number): Promise<QuizListItem[]> {
  let group: { id: string; instructorId: string | null; membershipStatus: string | null; status?: string | null } | undefined;
  let lectureId: string | null = null;
  if ("lecture" in scope) {
    group = { id: scope.lecture.groupId, instructorId: scope.lecture.instructorId, membershipStatus: scope.lecture.membershipStatus };
    lectureId = scope.lecture.id;
  } else if ("groupKey" in scope) {
    group = (await groupForUser(ctx, viewer.userId, scope.groupKey)) ?? undefined;
    if (!group) throw notFound("No such group.");
  } else {
    const [lecture] = await ctx.db
      .select({ id: lectures.id, published: lectures.published, groupId: groups.id, status: groups.status, instructorId: groups.instructorId, membershipStatus: memberships.status })
      .from(lectures)
      .innerJoin(groups, eq(groups.id, lectures.groupId))
      .leftJoin(memberships, and(eq(memberships.groupId, groups.id), eq(memberships.userId, viewer.userId)))
      .where(or(eq(lectures.id, scope.lectureKey), eq(lectures.slug, scope.lectureKey)))
      .limit(1);
    if (!lecture) throw notFound("No such lecture.");
    if (!lecture.published && !isStaffOf(viewer, lecture)) throw notFound("No such lecture.");
    group = { id: lecture.groupId, status: lecture.status, instructorId: lecture.instructorId, membershipStatus: lecture.membershipStatus };
    lectureId = lecture.id;
  }
  if (!can(viewer, "group.viewInside", { group: facts(group) })) throw outsider(viewer, group, "Only the group's members and staff can see its quizzes.", "lectureKey" in scope ? "No such lecture." : "No such group.");
  const staff = isStaffOf(viewer, group);
  const member = !staff && isMember(group);
  // The course home and the lecture pages run these: built once per isolate for each kind of list and viewer
  // (db/prepared.ts), with the group, the lecture and the viewer as named parameters.
  const kind = `${lectureId ? "lecture" : "group"}.${staff ? "staff" : "member"}`;
  const where = and(
    eq(quizzes.groupId, sql.placeholder("groupId")),
    lectureId ? eq(quizzes.lectureId, sql.placeholder("lectureId")) : undefined,
    staff ? undefined : and(eq(quizzes.published, true), eq(lectures.published, true)),
  );
  const values = { groupId: group.id, lectureId, userId: viewer.userId };
  // A member's own attempts come with each quiz, as a JSON list of what the list shows (a correlated subquery on the
  // attempts' user index), so the list is one statement; whole rows are read only to close attempts whose time ran out.
  const rows = await preparedOnce(ctx, `quizzes.list.${kind}`, (db) => {
    // Each quiz's fixed questions and their points come with it (correlated subqueries on the quiz's index).
    const fixedQuestions = db.select({ n: sql<number>`count(*)` }).from(questions).where(eq(questions.quizId, quizzes.id));
    const fixedPoints = db.select({ points: sql<number>`coalesce(sum(${questions.points}), 0)` }).from(questions).where(eq(questions.quizId, quizzes.id));
    const ownBriefs = sql<string | null>`(select json_group_array(json_array(${attempts.id}, ${attempts.score}, ${attempts.deadlineAt}, ${attempts.submittedAt}, ${attempts.codePending})) from ${attempts} where ${attempts.quizId} = ${quizzes.id} and ${attempts.userId} = ${sql.placeholder("userId")})`;
    return db
      .select({
        quiz: quizListColumns,
        lectureSlug: lectures.slug,
        lectureTitle: lectures.title,
        extension: { id: extensions.id, closesAt: extensions.closesAt, extraMinutes: extensions.extraMinutes, extraAttempts: extensions.extraAttempts },
        fixedCount: sql<number>`${fixedQuestions}`.mapWith(Number),
        fixedPoints: sql<number>`${fixedPoints}`.mapWith(Number),
        own: member ? ownBriefs : sql<string | null>`null`,
      })
      .from(quizzes)
      .innerJoin(lectures, eq(lectures.id, quizzes.lectureId))
      // The viewer's own extensions (none for staff): a student's list shows their own close and attempts.
      .leftJoin(extensions, extensionOf("quiz", quizzes.id, sql.placeholder("userId")))
      .where(where)
      .orderBy(asc(quizzes.opensAt), asc(quizzes.title));
  }).all(values);
  const mine = member ? await settleBriefs(ctx, rows.flatMap((r) => attemptBriefs(r.own, r.quiz.id)), now) : null;
  return rows.map(({ quiz: own_, lectureSlug, lectureTitle, extension, fixedCount, fixedPoints }) => {
    const quiz = withExtension({ ...own_, extension });
    const own = mine?.filter((a) => a.quizId === quiz.id) ?? [];
    const done = own.filter((a) => a.submittedAt);
    return {
      _id: quiz.id,
      slug: quiz.slug,
      title: quiz.title,
      lectureSlug,
      lectureTitle,
      opensAt: iso(quiz.opensAt),
      closesAt: iso(quiz.closesAt),
      durationMinutes: quiz.durationMinutes,
      maxAttempts: quiz.maxAttempts,
      showAnswers: quiz.showAnswers,
      published: quiz.published,
      publishAt: iso(quiz.publishAt),
      questionCount: fixedCount + quiz.draws.reduce((n, d) => n + d.count, 0),
      maxScore: fixedPoints + quiz.draws.reduce((n, d) => n + d.count * d.points, 0),
      window: windowOf(quiz, now),
      mine: mine ? { attempts: done.length, inProgress: own.some((a) => running(a, now)), bestScore: done.length ? Math.max(...done.map((a) => a.score ?? 0)) : null } : null,
    };
  });
}

/** GET /api/quizzes/groups/{id}: the group's quizzes (students: published ones, with their attempts and best score). */
export const listGroupQuizzes = (ctx: ServiceContext, viewer: Actor, groupKey: string, now = Date.now()) => listQuizzes(ctx, viewer, { groupKey }, now);
/** GET /api/quizzes/lecture/{id}: the same for one lecture. */
export const listLectureQuizzes = (ctx: ServiceContext, viewer: Actor, lectureKey: string, now = Date.now()) => listQuizzes(ctx, viewer, { lectureKey }, now);
/**
 * The same for a lecture its page has just read and checked (the lecture page): no second lookup, so the list goes
 * to D1 with the page's other reads. The group's rule (members and staff only) is still asked here.
 */
export const quizzesOfReadLecture = (ctx: ServiceContext, viewer: Actor, lecture: ReadLecture, now = Date.now()) => listQuizzes(ctx, viewer, { lecture }, now);

/* ---------------------------------------------------------------------------------------------------------------
 * One quiz, and taking it
 * ------------------------------------------------------------------------------------------------------------- */

export interface OpenAttemptDto {
  _id: string;
  number: number;
  startedAt: string;
  /** The server's deadline; null for homework with no closing time. */
  deadline: string | null;
  answers: AnswersMap;
  savedAt: string | null;
}

const toOpenAttempt = (a: AttemptRow): OpenAttemptDto => ({
  _id: a.id,
  number: a.number,
  startedAt: a.startedAt.toISOString(),
  deadline: iso(a.deadlineAt),
  answers: a.answers as AnswersMap,
  savedAt: iso(a.savedAt),
});

/** A question as a student may see it: never its correct answer. */
export const toQuestion = (q: QuestionRow) => ({
  _id: q.id,
  text: q.text,
  textHtml: renderMarkdown(q.text),
  type: q.type,
  options: q.options,
  optionsHtml: q.options.map(inlineHtml),
  points: q.points,
  // A code question shows its starter code and limits; its tests and reference never leave the server for a student.
  code: q.code ? { starterCode: q.code.starterCode, timeMs: q.code.timeMs, memoryMb: q.code.memoryMb, tests: q.code.tests.length } : null,
});

export const quizSummary = (quiz: QuizRecord, qs: QuestionRow[], now: number) => ({
  _id: quiz.id,
  slug: quiz.slug,
  title: quiz.title,
  description: quiz.description,
  descriptionHtml: quiz.descriptionHtml ?? renderMarkdown(quiz.description),
  durationMinutes: quiz.durationMinutes,
  opensAt: iso(quiz.opensAt),
  closesAt: iso(quiz.closesAt),
  maxAttempts: quiz.maxAttempts,
  showAnswers: quiz.showAnswers,
  published: quiz.published,
  window: windowOf(quiz, now),
  // With bank draws: the quiz's own questions and those each attempt draws.
  ...quizSize(quiz, qs),
  lecture: { _id: quiz.lectureId, slug: quiz.lectureSlug, title: quiz.lectureTitle },
  // `ended`: the group is archived, its course over: no attempt starts (course_ended).
  group: { _id: quiz.groupId, slug: quiz.groupSlug, title: quiz.groupTitle, ended: quiz.groupStatus === "archived" },
});

/**
 * GET /api/quizzes/{id}: the quiz and its questions. A student also gets their open attempt (saved answers, the
 * server's deadline) and how many attempts are left; staff also get each question's correct answer (the editor).
 *
 * A student gets the questions only while they can answer them: with their open attempt, or while an untimed quiz
 * is open. Before it opens, and for a timed quiz before the attempt starts (the countdown starts with the attempt),
 * they see the title, the rules, the number of questions and the points, and `questions` is empty.
 */
export async function getQuiz(ctx: ServiceContext, viewer: Actor, key: string, now = Date.now()) {
  const quiz = await requireReadableQuiz(ctx, viewer, key);
  const staff = isStaffOf(viewer, quiz);
  const [qs, own] = await Promise.all([questionsOf(ctx, [quiz.id]), !staff && isMember(quiz) ? ownAttempts(ctx, viewer.userId, [quiz.id]) : Promise.resolve([])]);
  const mine = await settle(ctx, own, now, qs);
  const open = mine.find((a) => !a.submittedAt) ?? null;
  const done = mine.filter((a) => a.submittedAt);
  // A quiz with papers gives its questions with the attempt (each student's own draw and order), never before.
  const answerable = staff || open !== null || (!usesPaper(quiz) && quiz.durationMinutes === null && windowOf(quiz, now) === "open");
  return {
    ...quizSummary(quiz, qs, now),
    questions: !answerable ? [] : staff ? qs.map((q) => ({ ...toQuestion(q), correct: q.correct, codeTests: q.code?.tests ?? null })) : questionsFor(qs, open).map(toQuestion),
    // The bank draws and shuffles, for the staff's editor.
    ...(staff ? { draws: quiz.draws, shuffleQuestions: quiz.shuffleQuestions, shuffleOptions: quiz.shuffleOptions, publishAt: iso(quiz.publishAt ?? null) } : {}),
    isStaff: staff,
    attempt: open ? toOpenAttempt(open) : null,
    attemptsUsed: mine.length,
    attemptsLeft: Math.max(0, quiz.maxAttempts - mine.length),
    // The member's own time on it (an accommodation), in minutes; the quiz's duration for staff.
    yourMinutes: staff ? quiz.durationMinutes : ownMinutes(quiz),
    // The student's extension: the quiz's own close and attempts it replaced, and the minutes it adds (closesAt,
    // maxAttempts and yourMinutes above are already theirs).
    extension: quiz.extendedFrom ? { originalClosesAt: iso(quiz.extendedFrom.closesAt), originalMaxAttempts: quiz.extendedFrom.maxAttempts, extraMinutes: quiz.extraMinutes } : null,
    bestScore: done.length ? Math.max(...done.map((a) => a.score ?? 0)) : null,
    serverNow: new Date(now).toISOString(),
  };
}

/** The viewer's time on a timed quiz: its duration times their accommodation (ADR 0021), still capped by the close. */
function ownMinutes(quiz: Pick<QuizRecord, "durationMinutes" | "quizTimePercent" | "extraMinutes">): number | null {
  if (quiz.durationMinutes === null) return null;
  // The accommodation multiplies the duration; an extension's extra minutes come on top.
  return (quiz.durationMinutes * (quiz.quizTimePercent ?? 100)) / 100 + quiz.extraMinutes;
}

function refuseToStart(quiz: QuizRecord, used: number, now: number) {
  const window = windowOf(quiz, now);
  if (window === "upcoming") throw new AppError(409, "quiz_not_open", `This quiz opens at ${quiz.opensAt!.toISOString()}.`);
  if (window === "closed") throw new AppError(409, "quiz_closed", "This quiz has closed.");
  if (used >= quiz.maxAttempts) throw new AppError(409, "no_attempts_left", `You have used all ${quiz.maxAttempts} of your attempts at this quiz.`);
}

/**
 * Inserts the next attempt unless one is open already (the unique indexes decide any race between two tabs).
 * `beforeWrite` sees the new attempt's questions (its own paper) before anything is written: a hand-in that opens the
 * attempt it hands in checks its answers there, so a refused hand-in spends no attempt.
 */
async function openAttempt(
  ctx: ServiceContext,
  viewer: Actor,
  quiz: QuizRecord,
  mine: AttemptRow[],
  now: number,
  qs: QuestionRow[],
  beforeWrite?: (given: QuestionRow[]) => void,
): Promise<{ created: boolean; attempt: AttemptRow }> {
  const open = mine.find((a) => !a.submittedAt);
  if (open) return { created: false, attempt: open };
  // An attempt already open when the course ended is still handed in (above); none starts after.
  requireCourseRunning(viewer, placeFacts(quiz));
  refuseToStart(quiz, mine.length, now);
  const number = Math.max(0, ...mine.map((a) => a.number)) + 1;
  // The attempt's own paper, fixed now: the same student, quiz and attempt number always give the same one.
  const paper = usesPaper(quiz)
    ? makePaper(`${quiz.id}:${viewer.userId}:${number}`, qs, quiz.draws.length > 0 ? await bankOf(ctx, quiz.groupId) : [], quiz)
    : null;
  // The bank lost questions since the quiz was published (deleted, or a copy that came without them): a paper short of
  // its draws would be scored out of points it never asked. Refused, so no attempt is spent on it.
  if (paper && paper.drawn.length < quiz.draws.reduce((n, d) => n + d.count, 0)) {
    throw new AppError(409, "conflict", "This quiz draws more questions from the group's question bank than the bank now holds. Ask your instructor to add questions to the bank.");
  }
  beforeWrite?.(questionsFor(qs, { quizId: quiz.id, paper }));
  // The quiz's close and duration are read again in the same transaction as the attempt is written (`rulesNow`).
  const [[inserted], [rulesNow]] = await ctx.db
    .batch([
      ctx.db
        .insert(attempts)
        .values({ id: newId(), quizId: quiz.id, userId: viewer.userId, number, answers: {}, paper, startedAt: new Date(now), deadlineAt: ((d) => (d === null ? null : new Date(d)))(attemptDeadline({ durationMinutes: ownMinutes(quiz), closesAt: ms(quiz.closesAt) }, now)) })
        .onConflictDoNothing()
        .returning(),
      ctx.db.select({ closesAt: quizzes.closesAt, durationMinutes: quizzes.durationMinutes }).from(quizzes).where(eq(quizzes.id, quiz.id)),
    ])
    .catch((e: unknown) => {
      // The quiz was deleted after it was read (or the account, in its last moments): no attempt was written.
      throw isForeignKeyViolation(e) ? notFound("No such quiz.") : e;
    });
  let row = inserted;
  if (row) {
    // Staff changed the close or the duration after this start read them, and retimed the open attempts before this
    // one existed: it is retimed now by the same rule (either this sees the change, or their retiming saw this attempt).
    const ownClose = quiz.extendedFrom ? quiz.extendedFrom.closesAt : quiz.closesAt;
    if (rulesNow && (ms(rulesNow.closesAt) !== ms(ownClose) || rulesNow.durationMinutes !== quiz.durationMinutes)) {
      await retimeOpenAttempts(ctx, quiz.id, now);
      const [retimed] = await ctx.db.select().from(attempts).where(eq(attempts.id, row.id));
      row = retimed ?? row;
    }
    await armClock(ctx, quiz.id, row.deadlineAt);
    return { created: true, attempt: row };
  }
  // Another tab started (or finished) one at the same moment: use the open one if there is one.
  const [again] = await ctx.db.select().from(attempts).where(and(eq(attempts.quizId, quiz.id), eq(attempts.userId, viewer.userId), isNull(attempts.submittedAt)));
  if (again) return { created: false, attempt: again };
  throw new AppError(409, "conflict", "This quiz was just started or handed in from another tab. Reload the page.");
}

/** POST /api/quizzes/{id}/start: starts the caller's next attempt, or resumes the open one. */
export async function startAttempt(ctx: ServiceContext, viewer: Actor, key: string, now = Date.now()) {
  const quiz = await requireTakeableQuiz(ctx, viewer, key);
  const [qs, own] = await Promise.all([questionsOf(ctx, [quiz.id]), ownAttempts(ctx, viewer.userId, [quiz.id])]);
  if (qs.length === 0 && quiz.draws.length === 0) throw new AppError(409, "conflict", "This quiz has no questions yet.");
  const mine = await settle(ctx, own, now, qs);
  const { created, attempt } = await openAttempt(ctx, viewer, quiz, mine, now, qs);
  return { created, attempt: toOpenAttempt(attempt), attemptsLeft: Math.max(0, quiz.maxAttempts - mine.length - (created ? 1 : 0)), serverNow: new Date(now).toISOString() };
}

/** Handed in by its clock (at its deadline exactly: settle and handInSaved), not by its student. */
const closedByClock = (a: AttemptRow) => a.submittedAt !== null && a.deadlineAt !== null && a.submittedAt.getTime() >= a.deadlineAt.getTime();
const timeIsUp = () => new AppError(409, "time_up", "Time is up: your attempt was handed in with the answers saved before the deadline.");

/** Whether answers arriving at `now` still count for the attempt: until the deadline plus the network allowance. */
const answersCount = (a: AttemptRow, now: number) => a.deadlineAt === null || now <= a.deadlineAt.getTime() + QUIZ_NETWORK_MS;

/**
 * Hands in an open attempt on the answers it already holds, dated at its deadline (a save or a hand-in whose answers
 * came too late). The caller's own write, so missing code verdicts are judged here. Answers the row as stored.
 */
async function handInSaved(ctx: ServiceContext, a: AttemptRow, quizQs: QuestionRow[]): Promise<AttemptRow | null> {
  const qs = questionsFor(quizQs, a);
  // Late saves sent at once each land here: one runs the code (the student's lease), the others find it handed in.
  const taken = await handInLease(ctx, a.userId, a.id, qs, a.answers, a.codeChecks);
  if ("handedIn" in taken) return null;
  try {
    const { verdicts, checks } = await codeVerdicts(ctx.runCode, qs as GradableQuestion[], a.answers, a.codeChecks);
    const result = grade(qs as GradableQuestion[], a.answers, verdicts, a.overrides);
    const [row] = await ctx.db
      .update(attempts)
      .set({ ...result, verdicts, codeChecks: checks, codePending: false, submittedAt: a.deadlineAt })
      .where(and(eq(attempts.id, a.id), isNull(attempts.submittedAt)))
      .returning();
    return row ?? null;
  } finally {
    await taken.lease?.release();
  }
}

/**
 * The student's lease for handing in `attemptId` when its answers hold code still to run (code-lease.ts), for as long
 * as that code may run; `lease: null` when nothing needs to run. The same hand-in sent again while the first runs (a
 * double tap, thirty at once, late saves) waits for it and gets the attempt as it handed it in, with no second run.
 */
async function handInLease(ctx: ServiceContext, userId: string, attemptId: string, qs: QuestionRow[], answers: Record<string, unknown>, checks: CodeChecks | null): Promise<{ lease: CodeLease | null } | { handedIn: AttemptRow }> {
  const toRun = (await knownVerdicts(qs as GradableQuestion[], answers, checks)).missing.length;
  if (toRun === 0) return { lease: null };
  const taken = await takeCodeLease(
    ctx,
    userId,
    async () => {
      const [latest] = await ctx.db.select().from(attempts).where(eq(attempts.id, attemptId));
      return latest?.submittedAt ? latest : null;
    },
    leaseFor(toRun),
  );
  return "instead" in taken ? { handedIn: taken.instead } : taken;
}

/**
 * PUT /api/quizzes/{id}/answers: replaces the open attempt's saved answers (idempotent; any number of times).
 * Answers arriving after the deadline plus the network allowance do not count: the attempt is handed in on what was
 * saved in time (409 time_up). Changed code answers are judged in the background.
 */
export async function saveAnswers(ctx: ServiceContext, viewer: Actor, key: string, input: { answers: AnswersMap; attemptId?: string; basedOn?: string | null }, now = Date.now()) {
  const quiz = await requireTakeableQuiz(ctx, viewer, key);
  const [qs, own] = await Promise.all([questionsOf(ctx, [quiz.id]), ownAttempts(ctx, viewer.userId, [quiz.id])]);
  const wasOpen = own.find((a) => !a.submittedAt);
  const mine = await settle(ctx, own, now, qs);
  const open = mine.find((a) => !a.submittedAt);
  if (!open) {
    // The attempt the answers are for (named, or the latest): closed by its clock, now or by an earlier read (which
    // hands it in at its deadline exactly), its answers came too late: time is up, not "handed in" by the student.
    const meant = input.attemptId ? mine.find((a) => a.id === input.attemptId) : mine.at(-1);
    if (meant && (meant.id === wasOpen?.id || closedByClock(meant))) throw timeIsUp();
    if (mine.length === 0) throw new AppError(409, "attempt_closed", "Start the quiz before answering: you have no attempt to save answers to.");
    throw new AppError(409, "attempt_closed", "This attempt was already handed in. Start a new attempt to answer again.");
  }
  if (input.attemptId && input.attemptId !== open.id) throw new AppError(409, "attempt_closed", "This attempt was already handed in. Reload the page to see your current attempt.");
  const given = questionsFor(qs, open);
  const clean = checkAnswers(given, input.answers);
  if (!answersCount(open, now)) {
    await handInSaved(ctx, open, qs);
    throw timeIsUp();
  }
  // The very answers already kept (a tab arriving, or a save repeated after its answer was lost on the way): nothing
  // to write, and nothing for another tab to be told about.
  if (sameAnswers(open.answers, clean)) return saved(open, version(open), now);
  // Answers saved meanwhile from another tab or device (`basedOn` names the save these follow): refused, not replaced
  // unseen.
  if (savedSince(open, input.basedOn)) throw answersChanged(open);
  const [row] = await ctx.db
    .update(attempts)
    .set({ answers: clean, savedAt: new Date(now) })
    .where(and(eq(attempts.id, open.id), isNull(attempts.submittedAt), ...(input.basedOn === undefined ? [] : [atVersion(open)])))
    .returning({ id: attempts.id });
  if (!row) {
    // Handed in from another tab, or (named save only) saved from one between the read above and this write.
    const [current] = await ctx.db.select().from(attempts).where(eq(attempts.id, open.id));
    if (current && !current.submittedAt) throw answersChanged(current);
    throw new AppError(409, "attempt_closed", "This attempt was just handed in from another tab.");
  }
  const { missing } = await knownVerdicts(given as GradableQuestion[], clean, open.codeChecks);
  if (missing.length > 0) checkLater(ctx, open.id, viewer.userId, missing);
  return saved(open, now, now);
}

const saved = (open: AttemptRow, at: number, now: number) => ({ attemptId: open.id, savedAt: new Date(at).toISOString(), deadline: iso(open.deadlineAt), serverNow: new Date(now).toISOString() });

/**
 * An attempt's answers as of which save: its last save, or its start before any (the answers it began with). A page
 * that has seen no save sends `basedOn` null, meaning the start.
 */
const version = (a: AttemptRow) => (a.savedAt ?? a.startedAt).getTime();
const seenVersion = (open: AttemptRow, basedOn: string | null) => (basedOn === null ? open.startedAt.getTime() : Date.parse(basedOn));
/** Whether the attempt's answers were saved since the save `basedOn` names (undefined: the sender does not say). */
const savedSince = (open: AttemptRow, basedOn: string | null | undefined) => basedOn !== undefined && version(open) !== seenVersion(open, basedOn);
/** The attempt still at the version read, in a write's WHERE: a save landing between the read and the write is not replaced either. */
const atVersion = (a: AttemptRow) => sql`coalesce(${attempts.savedAt}, ${attempts.startedAt}) = ${version(a)}`;
/** 409 answers_changed: the answers saved meanwhile (JSON) and when, for the page to offer them or keep its own. */
const answersChanged = (a: AttemptRow) =>
  new AppError(409, "answers_changed", "Your answers were changed in another tab or on another device since this page last saved them. Choose which answers to keep.", {
    savedAt: new Date(version(a)).toISOString(),
    answers: JSON.stringify(a.answers),
  });

const sameAnswers = (a: Record<string, unknown>, b: Record<string, unknown>) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
};
/** A submit repeated within this window with the same answers and no open attempt is a retry, not a new attempt. */
const RETRY_WINDOW_MS = 10 * 60_000;

export interface SubmitResult {
  /** False when this submit repeated one already graded (a retry after a dropped connection). */
  created: boolean;
  attempt: { _id: string; number: number; score: number; maxScore: number; startedAt: string; submittedAt: string };
  /** True when the answers arrived too late to count (deadline plus the network allowance), so the answers saved in time were graded. */
  gradedOnSaved: boolean;
  attemptsLeft: number;
}

const toGraded = (a: AttemptRow) => ({ _id: a.id, number: a.number, score: a.score ?? 0, maxScore: a.maxScore ?? 0, startedAt: a.startedAt.toISOString(), submittedAt: a.submittedAt!.toISOString() });

/**
 * POST /api/quizzes/{id}/submit and POST /api/quizzes/solve: grades and closes the caller's open attempt (opening
 * one first when there is none and the rules allow). Retrying a submit (same `attemptId`, or the same answers
 * within minutes) answers the graded attempt again instead of starting another.
 */
export async function submitQuiz(ctx: ServiceContext, viewer: Actor, key: string, input: { answers: AnswersMap; attemptId?: string; basedOn?: string | null }, now = Date.now()): Promise<SubmitResult> {
  const quiz = await requireTakeableQuiz(ctx, viewer, key);
  const [qs, own] = await Promise.all([questionsOf(ctx, [quiz.id]), ownAttempts(ctx, viewer.userId, [quiz.id])]);
  if (qs.length === 0 && quiz.draws.length === 0) throw new AppError(409, "conflict", "This quiz has no questions yet.");
  const left = (rows: AttemptRow[]) => Math.max(0, quiz.maxAttempts - rows.length);
  // A quiz with papers checks the answers against the attempt's own questions, once it is known (below).
  let clean = usesPaper(quiz) ? (input.answers as Record<string, AnswerValue>) : checkAnswers(qs, input.answers);
  // A hand-in of an attempt the server has closed answers its result; if its answers differ from those graded, they
  // came too late to count (the server closes an attempt once its answers no longer count), as the page must say.
  const repeat = (a: AttemptRow, rows: AttemptRow[]): SubmitResult => ({
    created: false,
    attempt: toGraded(a),
    gradedOnSaved: a.deadlineAt !== null && now > a.deadlineAt.getTime() + QUIZ_NETWORK_MS && !sameAnswers(a.answers, clean),
    attemptsLeft: left(rows),
  });

  if (input.attemptId) {
    const named = own.find((a) => a.id === input.attemptId);
    if (!named) throw notFound("No such attempt.");
    if (named.submittedAt) return repeat(named, own);
  }
  let mine = own;
  let open = mine.find((a) => !a.submittedAt);
  if (!open) {
    const last = mine.filter((a) => a.submittedAt).at(-1);
    if (last && now - last.submittedAt!.getTime() < RETRY_WINDOW_MS && sameAnswers(last.answers, clean)) return repeat(last, mine);
    // The hand-in of an attempt the server closed at its deadline, arriving within the grace (without its id, as
    // the spec's solve payload comes): that attempt's result, not a new attempt graded at once.
    if (last && last.deadlineAt && last.submittedAt!.getTime() === last.deadlineAt.getTime() && now <= last.deadlineAt.getTime() + QUIZ_GRACE_MS) return repeat(last, mine);
    // A paper's answers are checked against the paper before the attempt is written (a refused hand-in spends none).
    const opened = await openAttempt(ctx, viewer, quiz, mine, now, qs, usesPaper(quiz) ? (given) => void checkAnswers(given, input.answers) : undefined);
    open = opened.attempt;
    mine = [...mine, open];
  }
  const given = questionsFor(qs, open);
  if (usesPaper(quiz)) clean = checkAnswers(given, input.answers);
  // The answers sent count until the deadline plus the network allowance; a later hand-in (accepted within the
  // grace, or closing an expired attempt) is graded on the answers saved in time and dated at the deadline.
  const inTime = answersCount(open, now);
  // Handing in answers older than those saved from another tab or device: the student chooses first (a hand-in past
  // the deadline is graded on what was saved, whoever saved it, so it is not asked).
  const named = inTime && input.basedOn !== undefined;
  if (named && savedSince(open, input.basedOn) && !sameAnswers(open.answers, clean)) throw answersChanged(open);
  const answers = inTime ? clean : open.answers;
  // Never later than the deadline: the time an attempt records never exceeds its limit.
  const submittedAt = new Date(open.deadlineAt ? Math.min(now, open.deadlineAt.getTime()) : now);
  // Code to run takes the student's one run at a time (handInLease): a repeat of this hand-in answers its result.
  const taken = await handInLease(ctx, viewer.userId, open.id, given, answers, open.codeChecks);
  if ("handedIn" in taken) return repeat(taken.handedIn, mine);
  let row: AttemptRow | undefined;
  try {
    const { verdicts, checks } = await codeVerdicts(ctx.runCode, given as GradableQuestion[], answers, open.codeChecks);
    const result = grade(given as GradableQuestion[], answers, verdicts);
    [row] = await ctx.db
      .update(attempts)
      .set({ answers, ...result, verdicts, codeChecks: checks, codePending: false, submittedAt, savedAt: inTime ? new Date(now) : open.savedAt })
      .where(and(eq(attempts.id, open.id), isNull(attempts.submittedAt), ...(named ? [atVersion(open)] : [])))
      .returning();
  } finally {
    await taken.lease?.release();
  }
  if (!row) {
    // A submit from another tab (or the server closing it) got there first: answer that result. Still open, it was
    // saved from another tab meanwhile (a named hand-in only).
    const [done] = await ctx.db.select().from(attempts).where(eq(attempts.id, open.id));
    if (done && !done.submittedAt) throw answersChanged(done);
    return repeat(done!, mine);
  }
  return { created: true, attempt: toGraded(row), gradedOnSaved: !inTime, attemptsLeft: left(mine) };
}

/** POST /api/quizzes/solve: the same as submit, naming the quiz by its slug (platform-spec §3). */
export const solveQuiz = (ctx: ServiceContext, viewer: Actor, input: { slugQuize: string; answers: AnswersMap; attemptId?: string }, now = Date.now()) =>
  submitQuiz(ctx, viewer, input.slugQuize, { answers: input.answers, attemptId: input.attemptId }, now);

/* ---------------------------------------------------------------------------------------------------------------
 * Results and the review
 * ------------------------------------------------------------------------------------------------------------- */

/**
 * When the review (own answers beside the correct ones) may be shown. Never while an attempt is open. With
 * "after-submit", once the student has handed in and can take no further attempt (all used, or the quiz over):
 * showing the answers while attempts remain would hand them the next attempt's answers. With "after-close", once
 * the quiz is over. With "never", never.
 *
 * "Over" is not the closing time itself: other students' attempts may still be handed in during the grace after
 * it, and answers relayed from a review would then count. The quiz is over once its closing time plus the grace has
 * passed and no attempt of anyone can still be handed in (`othersCanHandIn`: an open attempt whose deadline plus the
 * grace is still ahead, or that has no deadline at all).
 */
export type ReviewWhen = "now" | "after-attempts" | "after-close" | "never";
export function reviewWhen(quiz: { showAnswers: ShowAnswers; closesAt: Date | null; maxAttempts: number }, mine: AttemptRow[], now: number, othersCanHandIn: boolean): ReviewWhen {
  if (quiz.showAnswers === "never") return "never";
  const closed = quizOver(quiz, now) && !othersCanHandIn;
  const handedIn = mine.some((a) => a.submittedAt);
  const open = mine.some((a) => !a.submittedAt);
  if (quiz.showAnswers === "after-close") return closed && handedIn && !open ? "now" : "after-close";
  return handedIn && !open && (closed || mine.length >= quiz.maxAttempts) ? "now" : "after-attempts";
}

/** Whether the quiz's closing time plus the grace has passed (no hand-in can arrive in time any more). */
const quizOver = (quiz: { closesAt: Date | null }, now: number) => quiz.closesAt !== null && now >= quiz.closesAt.getTime() + QUIZ_GRACE_MS;

/** How many students the review shows a key to now (the rule of `keysShownNow`, for each who took the quiz). */
async function studentsSeeingAnswers(ctx: ServiceContext, quiz: KeyedQuiz, now: number): Promise<number> {
  const [rows, others] = await Promise.all([ctx.db.select().from(attempts).where(eq(attempts.quizId, quiz.id)), anyoneCanHandIn(ctx, quiz.id, now)]);
  return (await keysShownNow(ctx, quiz, rows, now, others)).size;
}

/** The attempt a student's review shows: their best score (ties: the earlier attempt). */
const reviewedAttempt = (done: AttemptRow[]): AttemptRow => done.reduce((b, a) => ((a.score ?? 0) > (b.score ?? 0) ? a : b));

type KeyedQuiz = { id: string; groupId: string; showAnswers: ShowAnswers; closesAt: Date | null; maxAttempts: number };

/**
 * The students (among the authors of `rows`) whose review shows at least one correct answer now: the review is open
 * to them (`reviewWhen`) and the attempt it shows holds a question whose key is not kept back (a bank question that
 * another quiz still open draws from its tag is kept back, `drawableElsewhere`). A review that keeps every key back
 * has shown none, so it does not stand in the way of more attempts or a make-up. Two reads whatever the count.
 */
export async function keysShownNow(ctx: ServiceContext, quiz: KeyedQuiz, rows: AttemptRow[], now: number, othersCanHandIn: boolean): Promise<Set<string>> {
  const byStudent = new Map<string, AttemptRow[]>();
  for (const row of rows) {
    const own = byStudent.get(row.userId);
    if (own) own.push(row);
    else byStudent.set(row.userId, [row]);
  }
  const open = [...byStudent].filter(([, own]) => reviewWhen(quiz, own, now, othersCanHandIn) === "now");
  if (open.length === 0) return new Set();
  const shown = open.map(([userId, own]) => ({ userId, best: reviewedAttempt(own.filter((a) => a.submittedAt)) }));
  const qs = await questionsOf(ctx, [quiz.id]);
  const keptBack = await drawableElsewhere(ctx, quiz, [...new Set(shown.flatMap(({ best }) => (best.paper?.drawn ?? []).map((d) => d.id)))], now);
  return new Set(shown.filter(({ best }) => questionsFor(qs, best).some((q) => !keptBack.has(q.id))).map(({ userId }) => userId));
}

/** Whether anyone's attempt at the quiz can still be handed in (one indexed lookup; see reviewWhen). */
async function anyoneCanHandIn(ctx: ServiceContext, quizId: string, now: number): Promise<boolean> {
  const [[open], [extended]] = await Promise.all([
    ctx.db
      .select({ id: attempts.id })
      .from(attempts)
      .where(and(eq(attempts.quizId, quizId), isNull(attempts.submittedAt), or(isNull(attempts.deadlineAt), sql`${attempts.deadlineAt} >= ${now - QUIZ_GRACE_MS}`)))
      .limit(1),
    // A student whose extension closes later can still start: answers shown now would reach them.
    ctx.db
      .select({ id: extensions.id })
      .from(extensions)
      .where(and(eq(extensions.quizId, quizId), sql`${extensions.closesAt} >= ${now - QUIZ_GRACE_MS}`))
      .limit(1),
  ]);
  return !!open || !!extended;
}

/** GET /api/quizzes/{id}/result: the caller's graded attempts, their best score and, when allowed, the review. */
export async function getResult(ctx: ServiceContext, viewer: Actor, key: string, now = Date.now()) {
  const quiz = await requireTakeableQuiz(ctx, viewer, key);
  const [qs, own] = await Promise.all([questionsOf(ctx, [quiz.id]), ownAttempts(ctx, viewer.userId, [quiz.id])]);
  const mine = await settle(ctx, own, now, qs);
  const done = mine.filter((a) => a.submittedAt);
  if (done.length === 0) throw notFound("You have not handed in this quiz yet.");
  // The attempt that counts: the best score (ties: the earlier attempt). The review shows this one.
  const best = reviewedAttempt(done);
  const others = quiz.showAnswers !== "never" && quizOver(quiz, now) ? await anyoneCanHandIn(ctx, quiz.id, now) : false;
  const when = reviewWhen(quiz, mine, now, others);
  const checks = (best.codeChecks ?? {}) as CodeChecks;
  // The review shows what this attempt was given: its own draw, order and option order.
  const given = questionsFor(qs, best);
  const keptBack = when === "now" ? await drawableElsewhere(ctx, quiz, (best.paper?.drawn ?? []).map((d) => d.id), now) : new Set<string>();
  // The first review that shows answers is remembered: no more tries for anyone from then on, whatever the policy is
  // changed to later (updateQuiz, extensions). One conditional write, once per quiz. A review that kept every key
  // back (each question drawn from a tag another open quiz still draws from) has shown none.
  const showsAKey = given.some((q) => !keptBack.has(q.id));
  if (when === "now" && showsAKey && !quiz.answersShownAt) await ctx.db.update(quizzes).set({ answersShownAt: new Date(now) }).where(and(eq(quizzes.id, quiz.id), isNull(quizzes.answersShownAt)));
  return {
    quiz: quizSummary(quiz, qs, now),
    score: best.score ?? 0,
    maxScore: best.maxScore ?? maxScoreOf(given),
    attempts: done.map((a) => ({ ...toGraded(a), seconds: Math.max(0, Math.round((a.submittedAt!.getTime() - a.startedAt.getTime()) / 1000)) })),
    /** The number of the attempt whose score counts (and that the review shows). */
    bestAttempt: best.number,
    attemptsLeft: Math.max(0, quiz.maxAttempts - mine.length),
    /** An attempt with time left (one whose time is over is being handed in, never resumed). */
    inProgress: mine.some((a) => running(a, now)),
    /** Code answers of a closed attempt are still being judged: the score counts them wrong until then. */
    grading: done.some((a) => a.codePending),
    reviewWhen: when,
    review:
      when === "now"
        ? {
            attemptNumber: best.number,
            questions: await Promise.all(
              given.map(async (q) => {
                const answer = (best.answers as Record<string, unknown>)[q.id] ?? null;
                const right = isRight(q as GradableQuestion, answer, best.verdicts);
                // A code question: each test's outcome, as stored when this very code was judged (never run here).
                const tests = q.type === "code" ? await testOutcomes(answer, checks[q.id]) : null;
                // Staff's points for this answer, with the note they wrote for the student, replace the key's.
                const override = best.overrides?.[q.id] ?? null;
                // A bank question another quiz of the group may still give: the answer given, nothing that says the key.
                if (keptBack.has(q.id)) return { ...toQuestion(q), answer, correct: [] as (number | string)[], right: null, earned: null, override: null, tests: null, withheld: true };
                return { ...toQuestion(q), answer, correct: q.correct, right, earned: earned(q as GradableQuestion, answer, best.verdicts, best.overrides), override: override ? { points: Math.min(override.points, q.points), note: override.note } : null, tests, withheld: false };
              }),
            ),
          }
        : null,
  };
}

/**
 * The drawn questions (by bank id) that another quiz of the group may still give someone: it draws one of their tags
 * and is not over for everyone (its close, an extension, or an attempt still running). Drafts count: a draft is a
 * quiz its instructor may publish tomorrow, and a key read today would answer it (ADR 42).
 * Their keys stay out of this quiz's review, whatever its own policy says, until then. One statement for the other
 * quizzes, one for the questions' tags; none when nothing was drawn.
 */
async function drawableElsewhere(ctx: ServiceContext, quiz: { id: string; groupId: string }, drawnIds: string[], now: number): Promise<Set<string>> {
  if (drawnIds.length === 0) return new Set();
  const [others, drawn] = await Promise.all([
    drawingQuizzes(ctx, quiz.groupId, now, quiz.id),
    chunked(drawnIds, (ids) => ctx.db.select({ id: bankQuestions.id, tags: bankQuestions.tags }).from(bankQuestions).where(inArray(bankQuestions.id, ids))),
  ]);
  const live = new Set(others.flatMap((o) => o.tags));
  return new Set(drawn.filter((q) => q.tags.some((tag) => live.has(tag))).map((q) => q.id));
}

/** Whether this quiz's review may keep keys back now: it draws from a tag another quiz still draws from. */
export async function drawsShared(ctx: ServiceContext, quizId: string, now = Date.now()): Promise<boolean> {
  const [own] = await ctx.db.select({ groupId: quizzes.groupId, draws: quizzes.draws }).from(quizzes).where(eq(quizzes.id, quizId));
  if (!own || own.draws.length === 0) return false;
  const tags = new Set(own.draws.map((d) => d.tag));
  return (await drawingQuizzes(ctx, own.groupId, now, quizId)).some((o) => o.tags.some((tag) => tags.has(tag)));
}

/**
 * The group's quizzes (but `exceptId`) that may still give a drawn question to someone (open, not over for someone
 * with an extension or a running attempt, or a draft that may be published): each with the tags it draws from.
 * While one draws from a tag, the reviews of the group's other quizzes keep the keys of questions with that tag back.
 */
export async function drawingQuizzes(ctx: ServiceContext, groupId: string, now = Date.now(), exceptId?: string): Promise<{ id: string; title: string; tags: string[] }[]> {
  const stillOpen = or(
    isNull(quizzes.closesAt),
    sql`${quizzes.closesAt} >= ${now - QUIZ_GRACE_MS}`,
    sql`exists (select 1 from ${extensions} where ${extensions.quizId} = ${quizzes.id} and ${extensions.closesAt} >= ${now - QUIZ_GRACE_MS})`,
    sql`exists (select 1 from ${attempts} where ${attempts.quizId} = ${quizzes.id} and ${attempts.submittedAt} is null and (${attempts.deadlineAt} is null or ${attempts.deadlineAt} >= ${now - QUIZ_GRACE_MS}))`,
  );
  const rows = await ctx.db
    .select({ id: quizzes.id, title: quizzes.title, draws: quizzes.draws })
    .from(quizzes)
    .where(and(eq(quizzes.groupId, groupId), exceptId ? sql`${quizzes.id} <> ${exceptId}` : undefined, sql`json_array_length(${quizzes.draws}) > 0`, stillOpen));
  return rows.map((o) => ({ id: o.id, title: o.title, tags: [...new Set(o.draws.map((d) => d.tag))] }));
}

/** GET /api/quizzes/score/{id}: the caller's best score ({ score: null } before they hand anything in). */
export async function getScore(ctx: ServiceContext, viewer: Actor, key: string, now = Date.now()) {
  const quiz = await requireTakeableQuiz(ctx, viewer, key);
  const [qs, own] = await Promise.all([questionsOf(ctx, [quiz.id]), ownAttempts(ctx, viewer.userId, [quiz.id])]);
  const done = (await settle(ctx, own, now, qs)).filter((a) => a.submittedAt);
  return { score: done.length ? Math.max(...done.map((a) => a.score ?? 0)) : null, maxScore: quizSize(quiz, qs).maxScore };
}

/**
 * GET /api/quizzes/groups/{id}/results (staff): every quiz of the group (with its window and size), members x quizzes
 * with best scores and attempts, and for each question how many members' best attempts got it right. Five queries
 * however many members and quizzes; the staff quizzes page needs nothing else.
 */
export async function groupResults(ctx: ServiceContext, viewer: Actor, groupKey: string, now = Date.now()) {
  const [group] = await ctx.db
    .select({ id: groups.id, slug: groups.slug, title: groups.title, status: groups.status, instructorId: groups.instructorId })
    .from(groups)
    .where(or(eq(groups.id, groupKey), eq(groups.slug, groupKey)))
    .limit(1);
  if (!group) throw notFound("No such group.");
  if (!isStaffOf(viewer, group)) throw outsider(viewer, group, "Only this group's instructor or an admin can do that.");
  const [quizRows, qs, members, rows] = await Promise.all([
    ctx.db
      .select({ quiz: quizzes, lectureSlug: lectures.slug, lectureTitle: lectures.title })
      .from(quizzes)
      .innerJoin(lectures, eq(lectures.id, quizzes.lectureId))
      .where(eq(quizzes.groupId, group.id))
      .orderBy(asc(quizzes.opensAt), asc(quizzes.title)),
    ctx.db.select({ question: questions }).from(questions).innerJoin(quizzes, eq(quizzes.id, questions.quizId)).where(eq(quizzes.groupId, group.id)).orderBy(asc(questions.order)),
    ctx.db
      .select({ id: users.id, name: users.name, slug: users.slug })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.groupId, group.id), inArray(memberships.status, [...MEMBER_STATUSES])))
      .orderBy(asc(users.name)),
    ctx.db.select({ attempt: attempts }).from(attempts).innerJoin(quizzes, eq(quizzes.id, attempts.quizId)).where(eq(quizzes.groupId, group.id)),
  ]);
  byName(members, (m) => m.name);
  const questionRows = qs.map((r) => r.question);
  const settled = await settle(
    ctx,
    rows.map((r) => r.attempt),
    now,
    questionRows,
  );
  // Each member's best graded attempt per quiz (ties: the earlier attempt), and who has one open.
  const best = new Map<string, AttemptRow>();
  const tries = new Map<string, number>();
  const open = new Set<string>();
  for (const a of settled) {
    if (!a.submittedAt) {
      open.add(`${a.userId}:${a.quizId}`);
      continue;
    }
    const k = `${a.userId}:${a.quizId}`;
    tries.set(k, (tries.get(k) ?? 0) + 1);
    const b = best.get(k);
    if (!b || (a.score ?? 0) > (b.score ?? 0)) best.set(k, a);
  }
  const memberIdSet = new Set(members.map((m) => m.id));
  return {
    group: { _id: group.id, slug: group.slug, title: group.title },
    quizzes: quizRows.map(({ quiz, lectureSlug, lectureTitle }) => {
      const own = questionRows.filter((q) => q.quizId === quiz.id);
      const bests = [...best.values()].filter((a) => a.quizId === quiz.id && memberIdSet.has(a.userId));
      const maxScore = quizSize(quiz, own).maxScore;
      // Item statistics follow what each student was given: per attempt its own questions (drawn copies included)
      // and option order, mapped back to the options as written.
      const givenTo = new Map(bests.map((a) => [a.id, questionsFor(own, a)]));
      const seen = [...own];
      for (const list of givenTo.values()) for (const q of list) if (!seen.some((x) => x.id === q.id)) seen.push(unshuffled(q, bests));
      const answersTo = (q: QuestionRow) => bests.flatMap((a) => {
        const mine = givenTo.get(a.id)!.find((x) => x.id === q.id);
        return mine ? [{ a, q: mine }] : [];
      });
      return {
        _id: quiz.id,
        slug: quiz.slug,
        title: quiz.title,
        lectureSlug,
        lectureTitle,
        opensAt: iso(quiz.opensAt),
        closesAt: iso(quiz.closesAt),
        window: windowOf(quiz, now),
        published: quiz.published,
        publishAt: iso(quiz.publishAt ?? null),
        questionCount: quizSize(quiz, own).questionCount,
        maxScore,
        taken: bests.length,
        averagePercent: bests.length ? Math.round((bests.reduce((s, a) => s + scoreShare(a.score ?? 0, maxScore), 0) / bests.length) * 100) : null,
        questions: seen.map((q, i) => {
          const taken = answersTo(q);
          return {
            _id: q.id,
            number: i + 1,
            type: q.type,
            text: q.text.replace(/```[\s\S]*?```/g, "[code]").replace(/[`*_#>]/g, "").replace(/\s+/g, " ").trim().slice(0, 140),
            points: q.points,
            right: taken.filter(({ a, q: given }) => isRight(given as GradableQuestion, (a.answers as Record<string, unknown>)[q.id], a.verdicts)).length,
            answered: taken.length,
            // Item statistics: how often each option (as written) was chosen in the attempts that count.
            choices: CHOICE_TYPES.has(q.type)
              ? q.options.map((option, i) => ({
                  text: plainText(option).slice(0, 140),
                  chosen: taken.filter(({ a }) => chosenIndexes((a.answers as Record<string, unknown>)[q.id]).some((shown) => originalOption(a.paper, q.id, shown) === i)).length,
                  correct: (q.correct as unknown[]).includes(i),
                }))
              : null,
          };
        }),
      };
    }),
    students: members.map((m) => ({
      _id: m.id,
      name: m.name,
      slug: m.slug,
      results: quizRows.map(({ quiz }) => {
        const b = best.get(`${m.id}:${quiz.id}`);
        return { quizId: quiz.id, best: b ? (b.score ?? 0) : null, bestAttemptId: b?.id ?? null, attempts: tries.get(`${m.id}:${quiz.id}`) ?? 0, inProgress: open.has(`${m.id}:${quiz.id}`) };
      }),
    })),
  };
}

const CHOICE_TYPES = new Set<string>(["single", "multiple", "true-false"]);

/** A drawn question as written (its options in the bank's order), from the paper copy of any attempt that drew it. */
function unshuffled(q: QuestionRow, bests: AttemptRow[]): QuestionRow {
  for (const a of bests) {
    const copy = a.paper?.drawn.find((d) => d.id === q.id);
    if (copy) return { ...copy, quizId: a.quizId, code: null, order: 0 };
  }
  return q;
}
/** The option indexes an answer holds (one index, or a list of them; anything else: none). */
const chosenIndexes = (answer: unknown): number[] => (typeof answer === "number" ? [answer] : Array.isArray(answer) ? answer.filter((x): x is number => typeof x === "number") : []);
/** A question's or option's Markdown as one plain line for the statistics. */
const plainText = (source: string) => source.replace(/```[\s\S]*?```/g, "[code]").replace(/[`*_#>]/g, "").replace(/\s+/g, " ").trim();

/* ---------------------------------------------------------------------------------------------------------------
 * Staff: create, edit, delete
 * ------------------------------------------------------------------------------------------------------------- */

async function freeQuizSlug(ctx: ServiceContext, title: string): Promise<string> {
  for (const candidate of slugCandidates(title)) {
    const [row] = await ctx.db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.slug, candidate)).limit(1);
    if (!row) return candidate;
  }
  throw new AppError(409, "conflict", "Please try again.");
}

/**
 * A quiz's questions as INSERT statements for its batch: each row binds every column of the table and D1 binds at
 * most 100 values per statement, so a quiz of up to 100 questions is written in statements of 11.
 */
function insertQuestions(ctx: ServiceContext, rows: (typeof questions.$inferInsert)[]) {
  return slices(rows, Math.floor(D1_MAX_PARAMS / Object.keys(getTableColumns(questions)).length)).map((part) => ctx.db.insert(questions).values(part));
}

const questionRows = (quizId: string, list: QuestionInput[]) =>
  list.map((q, order) => ({ id: newId(), quizId, text: q.text, type: q.type, options: q.options, correct: q.correct, code: "code" in q ? q.code : null, points: q.points, order }));

/**
 * Every code question's reference solution must pass its tests before the quiz is saved: a 400 naming the first
 * question that fails (and which tests), and nothing written.
 */
async function checkCodeQuestions(ctx: ServiceContext, viewer: Actor, list: QuestionInput[]) {
  const withCode = list.filter((q) => "code" in q && q.code).length;
  if (withCode === 0) return;
  // The author's code takes the one-run-at-a-time lease too (code-lease.ts), for as long as all of it may run.
  await underCodeLease(ctx, viewer.userId, () => runCodeQuestions(ctx, list), leaseFor(withCode));
}

async function runCodeQuestions(ctx: ServiceContext, list: QuestionInput[]) {
  for (const [i, q] of list.entries()) {
    if (!("code" in q) || !q.code) continue;
    const report = await ctx.runCode("javascript", String(q.correct[0] ?? ""), q.code.tests, { timeMs: q.code.timeMs, memoryMb: q.code.memoryMb });
    const failing = report.results.filter((r) => !r.passed);
    if (failing.length > 0) {
      const message = `Question ${i + 1}: the reference solution fails ${failing.map((r) => `"${r.name}"`).join(", ")}. Fix it or the tests.`;
      throw new AppError(400, "validation_failed", message, { [`questions.${i}`]: message });
    }
  }
}

async function announce(ctx: ServiceContext, quiz: { title: string; slug: string }, place: { groupId: string; groupSlug: string; groupTitle: string; lectureSlug: string }) {
  await notifyUsers(ctx, await memberIds(ctx, place.groupId), {
    kind: "quiz-published",
    params: { quiz: quiz.title, group: place.groupTitle },
    link: `/course/${place.groupSlug}/lecture/${place.lectureSlug}/quiz/${quiz.slug}`,
  });
}

/** POST /api/quizzes (staff): the quiz and its questions in one batch; members are told when it is published. */
export async function createQuiz(ctx: ServiceContext, viewer: Actor, input: CreateQuizInput, now = Date.now()) {
  const [lecture] = await ctx.db
    .select({ id: lectures.id, slug: lectures.slug, published: lectures.published, groupId: groups.id, groupSlug: groups.slug, groupTitle: groups.title, status: groups.status, instructorId: groups.instructorId })
    .from(lectures)
    .innerJoin(groups, eq(groups.id, lectures.groupId))
    .where(or(eq(lectures.id, input.lectureId), eq(lectures.slug, input.lectureId)))
    .limit(1);
  if (!lecture) throw notFound("No such lecture.");
  if (!isStaffOf(viewer, lecture)) throw notStaffOf(viewer, lecture, !lecture.published, "No such lecture.");
  await checkCodeQuestions(ctx, viewer, input.questions);
  const bankAsJudged = await checkDraws(ctx, lecture.groupId, input.draws ?? []);
  const fields = {
    lectureId: lecture.id,
    groupId: lecture.groupId,
    title: input.title,
    description: input.description ?? "",
    descriptionHtml: withHtml(input.description ?? ""),
    durationMinutes: input.durationMinutes ?? null,
    opensAt: input.opensAt != null ? new Date(input.opensAt) : null,
    closesAt: input.closesAt != null ? new Date(input.closesAt) : null,
    maxAttempts: input.maxAttempts ?? 1,
    // After the quiz closes by default (answers shown at hand-in can be relayed to classmates still answering); a
    // quiz that never closes shows none unless staff choose otherwise.
    showAnswers: input.showAnswers ?? (input.closesAt != null ? "after-close" : "never"),
    published: input.published ?? false,
    draws: input.draws ?? [],
    shuffleQuestions: input.shuffleQuestions ?? false,
    shuffleOptions: input.shuffleOptions ?? false,
    createdAt: new Date(now),
  };
  // A quiz made only of bank draws has no questions of its own to insert. With draws, the same transaction takes the
  // quiz out again (its questions with it) when the bank is no longer the one its draws were judged against.
  // Two quizzes of one title made at the same moment may find the same slug free: the batch (one transaction) is
  // refused whole for the second, which is written again with another.
  const quiz = await withFreshSlugs(async () => {
    const quiz = { id: newId(), slug: await freeQuizSlug(ctx, input.title), ...fields };
    const undo = bankAsJudged ? [ctx.db.delete(quizzes).where(and(eq(quizzes.id, quiz.id), not(bankAsJudged))).returning({ id: quizzes.id })] : [];
    const made = await ctx.db.batch([ctx.db.insert(quizzes).values(quiz), ...insertQuestions(ctx, questionRows(quiz.id, input.questions)), ...undo]);
    if (undo.length > 0 && (made[made.length - 1] as unknown[]).length > 0) throw bankChanged();
    return quiz;
  });
  if (quiz.published && lecture.published) await announce(ctx, quiz, { groupId: lecture.groupId, groupSlug: lecture.groupSlug, groupTitle: lecture.groupTitle, lectureSlug: lecture.slug });
  return getQuiz(ctx, viewer, quiz.id, now);
}

/**
 * Every draw needs as many questions of its tag in the group's bank as it takes (a 400 naming the tag otherwise).
 * Returns the condition, in SQL, that the bank is still the one judged (undefined without draws): the write the
 * check allows carries it, so a question removed or retagged meanwhile cannot leave the quiz short (bankStill).
 */
export async function checkDraws(ctx: ServiceContext, groupId: string, draws: QuizDraw[]): Promise<SQL | undefined> {
  if (draws.length === 0) return undefined;
  const bank = await bankOf(ctx, groupId);
  const message = drawsUnfit(bank, draws);
  if (message) throw new AppError(400, "validation_failed", message, { draws: message });
  return bankStill(groupId, bank);
}

/** Whether any student has started the quiz (its questions are then frozen). One indexed lookup. */
export async function quizStarted(ctx: ServiceContext, quizId: string): Promise<boolean> {
  const [row] = await ctx.db.select({ id: attempts.id }).from(attempts).where(eq(attempts.quizId, quizId)).limit(1);
  return !!row;
}

/**
 * PUT /api/quizzes/{id} (staff). Questions, when sent, replace the list; they are frozen once a student has started
 * (their saved answers point at the questions). Open attempts keep the deadline they started with.
 */
export async function updateQuiz(ctx: ServiceContext, viewer: Actor, key: string, input: UpdateQuizInput, now = Date.now()) {
  const quiz = await requireManagedQuiz(ctx, viewer, key);
  const merged = {
    opensAt: input.opensAt !== undefined ? input.opensAt : ms(quiz.opensAt),
    closesAt: input.closesAt !== undefined ? input.closesAt : ms(quiz.closesAt),
    showAnswers: input.showAnswers ?? quiz.showAnswers,
  };
  if (merged.opensAt !== null && merged.closesAt !== null && merged.closesAt <= merged.opensAt) throw new AppError(400, "validation_failed", "The quiz must close after it opens.", { closesAt: "The quiz must close after it opens." });
  if (merged.showAnswers === "after-close" && merged.closesAt === null)
    throw new AppError(400, "validation_failed", "Answers shown after the quiz closes need a closing time.", { closesAt: "Answers shown after the quiz closes need a closing time." });
  const paperChange = input.draws !== undefined || input.shuffleQuestions !== undefined || input.shuffleOptions !== undefined;
  const sameRules = JSON.stringify(input.draws ?? quiz.draws) === JSON.stringify(quiz.draws) && (input.shuffleQuestions ?? quiz.shuffleQuestions) === quiz.shuffleQuestions && (input.shuffleOptions ?? quiz.shuffleOptions) === quiz.shuffleOptions;
  if ((input.questions || (paperChange && !sameRules)) && (await quizStarted(ctx, quiz.id))) {
    throw new AppError(409, "quiz_started", "Students have already started this quiz, so its questions can no longer change. Make a new quiz instead.");
  }
  // More attempts, or a later close of a quiz that is over, while someone already reads the answers would let them
  // answer again with the key in front of them (as an extension for them would: extensions.ts). Refused.
  const moreAttempts = input.maxAttempts !== undefined && input.maxAttempts > quiz.maxAttempts;
  const reopened = input.closesAt !== undefined && quizOver(quiz, now) && (input.closesAt === null || input.closesAt > quiz.closesAt!.getTime());
  if (moreAttempts || reopened) {
    // Seen now under the policy as it stands, or seen once before (a policy switched to "never" since hides nothing
    // from those who read them).
    const seeing = quiz.showAnswers === "never" ? 0 : await studentsSeeingAnswers(ctx, quiz, now);
    if (seeing > 0 || quiz.answersShownAt) {
      const who = seeing === 0 ? "Students have" : seeing === 1 ? "One student can" : `${seeing} students can`;
      throw new AppError(409, "answers_seen", `${who} already ${seeing === 0 ? "seen" : "see"} the answers, so more attempts or a later close would let them answer with the key. Give extra time to the others with extensions, or make a new quiz.`);
    }
  }
  // Worth a point at least in all (the schema checks what it was sent; here the part left as it was is added).
  if (input.questions !== undefined || input.draws !== undefined) {
    const own = input.questions ?? (await questionsOf(ctx, [quiz.id]));
    const size = quizSize({ draws: input.draws ?? quiz.draws }, own);
    if (size.questionCount === 0) throw new AppError(400, "validation_failed", NO_QUESTIONS, { questions: NO_QUESTIONS });
    if (size.maxScore === 0) throw new AppError(400, "validation_failed", WORTH_NOTHING, { questions: WORTH_NOTHING });
  }
  // Draws are checked when they change, and again when the quiz is published (its bank may have changed since); the
  // writes below then land only on the bank that was judged (`bankAsJudged`), all of them or none.
  const publishing = input.published === true && !quiz.published;
  const judged = input.draws ? await checkDraws(ctx, quiz.groupId, input.draws) : publishing ? await checkDraws(ctx, quiz.groupId, quiz.draws) : undefined;
  const drawsChange = input.draws !== undefined && JSON.stringify(input.draws) !== JSON.stringify(quiz.draws);
  const bankAsJudged = drawsChange || publishing ? judged : undefined;
  if (input.questions) await checkCodeQuestions(ctx, viewer, input.questions);
  const values = {
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.description !== undefined ? { description: input.description, descriptionHtml: withHtml(input.description) } : {}),
    ...(input.durationMinutes !== undefined ? { durationMinutes: input.durationMinutes } : {}),
    ...(input.opensAt !== undefined ? { opensAt: input.opensAt === null ? null : new Date(input.opensAt) } : {}),
    ...(input.closesAt !== undefined ? { closesAt: input.closesAt === null ? null : new Date(input.closesAt) } : {}),
    ...(input.maxAttempts !== undefined ? { maxAttempts: input.maxAttempts } : {}),
    ...(input.showAnswers !== undefined ? { showAnswers: input.showAnswers } : {}),
    // Published by hand: a schedule it had is done with.
    ...(input.published !== undefined ? { published: input.published, ...(input.published ? { publishAt: null } : {}) } : {}),
    ...(input.draws !== undefined ? { draws: input.draws } : {}),
    ...(input.shuffleQuestions !== undefined ? { shuffleQuestions: input.shuffleQuestions } : {}),
    ...(input.shuffleOptions !== undefined ? { shuffleOptions: input.shuffleOptions } : {}),
  };
  // Publishing is decided by the write, not by the read above: the first statement turns a draft into a published
  // quiz and says whether it did, so of requests sent at once only one announces it.
  const flip = ctx.db.update(quizzes).set({ published: true }).where(and(eq(quizzes.id, quiz.id), eq(quizzes.published, false), bankAsJudged)).returning({ id: quizzes.id });
  // The questions and the paper's rules change only while nobody has started (checked above), and the write checks it
  // again: a student who starts between the check and the batch keeps the paper they were given. The new questions
  // are then taken out again in the same transaction, and the quiz's own fields are left as they were.
  const freezes = !!input.questions || (paperChange && !sameRules);
  const notStarted = freezes ? sql`not exists (select 1 from ${attempts} where ${attempts.quizId} = ${quiz.id})` : undefined;
  const lands = and(notStarted, bankAsJudged);
  const newRows = input.questions ? questionRows(quiz.id, input.questions) : [];
  const undoIfStarted = slices(
    newRows.map((r) => r.id),
    90,
  ).map((ids) =>
    ctx.db
      .delete(questions)
      .where(and(inArray(questions.id, ids), or(sql`exists (select 1 from ${attempts} where ${attempts.quizId} = ${quiz.id})`, bankAsJudged ? not(bankAsJudged) : undefined)))
      .returning({ id: questions.id }),
  );
  const statements = [
    ...(Object.keys(values).length ? [ctx.db.update(quizzes).set(values).where(and(eq(quizzes.id, quiz.id), lands)).returning({ id: quizzes.id })] : []),
    ...(input.questions ? [ctx.db.delete(questions).where(and(eq(questions.quizId, quiz.id), lands)), ...insertQuestions(ctx, newRows)] : []),
    ...undoIfStarted,
  ];
  const results = input.published === true ? await ctx.db.batch([flip, ...statements]) : statements.length ? await ctx.db.batch(statements as [(typeof statements)[number], ...typeof statements]) : [];
  const flipped = input.published === true ? results[0] : [];
  const updated = Object.keys(values).length ? results[input.published === true ? 1 : 0] : null;
  const undone = undoIfStarted.length > 0 && results.slice(-undoIfStarted.length).some((r) => (r as unknown[]).length > 0);
  const notUpdated = updated !== null && (updated as unknown[]).length === 0;
  // Something the bank's condition guards did not land: when the bank is no longer the one judged, that is why, and
  // nothing of this change was saved (a draft flipped by another tab, or a quiz started, has its own answer below).
  if (bankAsJudged && (undone || notUpdated || (input.published === true && (flipped as unknown[]).length === 0))) await refuseIfBankChanged(ctx, quiz.groupId, bankAsJudged);
  if (freezes && (undone || notUpdated)) {
    throw new AppError(409, "quiz_started", "Students have already started this quiz, so its questions can no longer change. Make a new quiz instead.");
  }
  if (input.closesAt !== undefined || input.durationMinutes !== undefined) {
    await retimeOpenAttempts(ctx, quiz.id, now);
  }
  if (input.published === true && (flipped as { id: string }[]).length > 0 && quiz.lecturePublished) await announce(ctx, { title: input.title ?? quiz.title, slug: quiz.slug }, quiz);
  return getQuiz(ctx, viewer, quiz.id, now);
}

/**
 * The quiz's time changed (its close or its duration): every attempt still open takes the deadline it would have had
 * had it started under the rules as they now stand (its start plus the student's own duration, accommodation and
 * extension included, no later than the student's own close), as Moodle retimes open attempts when a quiz's timing
 * changes. An attempt started when the quiz had neither is bounded too, so nobody can keep answering, or keep the
 * after-close review from the class, past a close added later; a close moved into the past ends them now. (An
 * extension granted mid-attempt still leaves a running attempt as it started: extensions.ts.)
 */
async function retimeOpenAttempts(ctx: ServiceContext, quizId: string, now: number): Promise<void> {
  const open = await ctx.db
    .select({
      id: attempts.id,
      startedAt: attempts.startedAt,
      deadlineAt: attempts.deadlineAt,
      rules: { durationMinutes: quizzes.durationMinutes, closesAt: quizzes.closesAt },
      quizTimePercent: memberships.quizTimePercent,
      extension: { closesAt: extensions.closesAt, extraMinutes: extensions.extraMinutes },
    })
    .from(attempts)
    .innerJoin(quizzes, eq(quizzes.id, attempts.quizId))
    .leftJoin(memberships, and(eq(memberships.groupId, quizzes.groupId), eq(memberships.userId, attempts.userId)))
    .leftJoin(extensions, extensionOf("quiz", attempts.quizId, attempts.userId))
    .where(and(eq(attempts.quizId, quizId), isNull(attempts.submittedAt)));
  const changes = open.flatMap((a) => {
    const close = ownTime(a.rules.closesAt, a.extension?.closesAt ?? null);
    const minutes = ownMinutes({ durationMinutes: a.rules.durationMinutes, quizTimePercent: a.quizTimePercent, extraMinutes: a.extension?.extraMinutes ?? 0 });
    const rule = attemptDeadline({ durationMinutes: minutes, closesAt: close === null ? null : close.getTime() }, a.startedAt.getTime());
    // A time the new rules put in the past ends the attempt now (its answers saved so far count, handed in at this
    // moment), never before it started; one already over under its old deadline keeps that.
    const deadline = rule === null || rule >= now ? rule : Math.max(rule, Math.min(now, a.deadlineAt?.getTime() ?? now));
    return deadline === (a.deadlineAt?.getTime() ?? null) ? [] : [{ id: a.id, deadline: deadline === null ? null : new Date(deadline) }];
  });
  if (changes.length === 0) return;
  // Only a still-open attempt is retimed: one handed in meanwhile keeps its record.
  const writes = changes.map((c) => ctx.db.update(attempts).set({ deadlineAt: c.deadline }).where(and(eq(attempts.id, c.id), isNull(attempts.submittedAt))));
  await ctx.db.batch(writes as [(typeof writes)[number], ...typeof writes]);
  const soonest = changes.reduce<Date | null>((min, c) => (c.deadline && (!min || c.deadline < min) ? c.deadline : min), null);
  await armClock(ctx, quizId, soonest);
}

/** DELETE /api/quizzes/{id} (staff): the quiz, its questions and every attempt. */
export async function deleteQuiz(ctx: ServiceContext, viewer: Actor, key: string): Promise<{ message: string }> {
  const quiz = await requireManagedQuiz(ctx, viewer, key);
  await ctx.db.delete(quizzes).where(eq(quizzes.id, quiz.id));
  return { message: "The quiz was deleted." };
}
