/**
 * Quizzes under /api/quizzes (platform-spec §7; issue "Quizzes"): `{id}` accepts a quiz's, group's or lecture's
 * id or slug. Thin handlers over worker/services/quizzes.ts, which the quiz pages call too.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { idOrSlugParam } from "../../app/lib/schemas";
import { createQuizInput, previewCheckInput, previewQuery, saveAnswersInput, solveQuizInput, submitQuizInput, updateQuizInput, QUESTION_TYPES, SHOW_ANSWERS } from "../../app/lib/quiz-schemas";
import { noStore, requireAuth, requireStaffRole, viewerOf } from "../auth/middleware";
import { createQuiz, deleteQuiz, getQuiz, getResult, getScore, groupResults, listGroupQuizzes, listLectureQuizzes, saveAnswers, solveQuiz, startAttempt, submitQuiz, updateQuiz } from "../services/quizzes";
import { checkPreview, previewQuiz } from "../services/quiz-preview";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse, messageDto } from "./users-dto";

const tags = ["Quizzes"];
const guards = { 401: errorResponse("Not signed in"), 403: errorResponse("Not allowed for this group"), 404: errorResponse("No such quiz, lecture or group") };
const closed = { 409: errorResponse("Not open yet, closed, no attempts left, time up or already handed in") };

const window = z.enum(["upcoming", "open", "closed"]);
const answers = z.record(z.string(), z.union([z.number(), z.array(z.number()), z.string()]));
const listItem = z
  .object({
    _id: z.string(),
    slug: z.string(),
    title: z.string(),
    lectureSlug: z.string(),
    lectureTitle: z.string(),
    opensAt: z.string().nullable(),
    closesAt: z.string().nullable(),
    durationMinutes: z.number().nullable(),
    maxAttempts: z.number(),
    showAnswers: z.enum(SHOW_ANSWERS),
    published: z.boolean(),
    publishAt: z.string().nullable().openapi({ description: "A draft the server publishes (and announces) at this time; null when not scheduled" }),
    questionCount: z.number(),
    maxScore: z.number(),
    window,
    mine: z.object({ attempts: z.number(), inProgress: z.boolean(), bestScore: z.number().nullable() }).nullable(),
  })
  .openapi("QuizListItem");
const question = z.object({
  _id: z.string(),
  text: z.string(),
  textHtml: z.string(),
  type: z.enum(QUESTION_TYPES),
  options: z.array(z.string()),
  optionsHtml: z.array(z.string()),
  points: z.number(),
  code: z
    .object({ starterCode: z.string(), timeMs: z.number(), memoryMb: z.number(), tests: z.number().openapi({ description: "How many tests grade it (they are never sent to a student)" }) })
    .nullable()
    .openapi({ description: "A code question's starter code and limits; null for other types" }),
  correct: z.array(z.union([z.number(), z.string()])).optional().openapi({ description: "Staff only (a code question: its reference solution)" }),
  codeTests: z.array(z.object({ name: z.string(), call: z.string(), expected: z.string(), points: z.number(), hidden: z.boolean() })).nullable().optional().openapi({ description: "Staff only: a code question's tests" }),
});
const openAttempt = z
  .object({ _id: z.string(), number: z.number(), startedAt: z.string(), deadline: z.string().nullable(), answers, savedAt: z.string().nullable() })
  .openapi("OpenAttempt");
const ref = z.object({ _id: z.string(), slug: z.string(), title: z.string() });
const summary = {
  _id: z.string(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  descriptionHtml: z.string(),
  durationMinutes: z.number().nullable(),
  opensAt: z.string().nullable(),
  closesAt: z.string().nullable(),
  maxAttempts: z.number(),
  showAnswers: z.enum(SHOW_ANSWERS),
  published: z.boolean(),
  window,
  questionCount: z.number(),
  maxScore: z.number(),
  lecture: ref,
  group: ref.extend({ ended: z.boolean().openapi({ description: "The group is archived: its course has ended and no attempt starts (409 course_ended)" }) }),
};
const quizDto = z
  .object({
    ...summary,
    questions: z.array(question).openapi({
      description: "Staff: always. A student: only with their open attempt, or while an untimed quiz is open (empty before a timed quiz's attempt starts and before the quiz opens)",
    }),
    isStaff: z.boolean(),
    attempt: openAttempt.nullable(),
    attemptsUsed: z.number(),
    attemptsLeft: z.number(),
    yourMinutes: z.number().nullable().openapi({ description: "A timed quiz: the caller's own time in minutes (the duration times their accommodation, PUT /api/groups/{id}/students/{userId}/quiz-time, plus an extension's extra minutes)" }),
    extension: z
      .object({ originalClosesAt: z.string().nullable(), originalMaxAttempts: z.number().int(), extraMinutes: z.number().int() })
      .nullable()
      .openapi({ description: "The caller's extension (PUT /api/quizzes/{id}/extensions): closesAt and maxAttempts above are already theirs; these are the quiz's own" }),
    bestScore: z.number().nullable(),
    serverNow: z.string(),
  })
  .openapi("Quiz");
const graded = z.object({ _id: z.string(), number: z.number(), score: z.number(), maxScore: z.number(), startedAt: z.string(), submittedAt: z.string() });
const submitDto = z.object({ created: z.boolean(), attempt: graded, gradedOnSaved: z.boolean(), attemptsLeft: z.number() }).openapi("QuizSubmitResult");
const resultDto = z
  .object({
    quiz: z.object(summary),
    score: z.number(),
    maxScore: z.number(),
    attempts: z.array(graded.extend({ seconds: z.number() })),
    bestAttempt: z.number().openapi({ description: "The number of the attempt whose score counts; the review shows that attempt" }),
    attemptsLeft: z.number(),
    inProgress: z.boolean().openapi({ description: "An open attempt with time left (one whose time is over is being handed in by the server)" }),
    grading: z.boolean().openapi({ description: "Code answers of a closed attempt are still being judged in the background; the score counts them wrong until then" }),
    reviewWhen: z.enum(["now", "after-attempts", "after-close", "never"]),
    review: z
      .object({
        attemptNumber: z.number(),
        questions: z.array(
          question.extend({
            answer: z.unknown(),
            correct: z.array(z.union([z.number(), z.string()])).openapi({ description: "The key (empty while withheld)" }),
            right: z.boolean().nullable().openapi({ description: "Null while withheld" }),
            earned: z.number().nullable().openapi({ description: "Null while withheld" }),
            withheld: z.boolean().openapi({ description: "A bank question another quiz of the group may still give: its key, whether the answer was right and its points wait until that quiz is over for everyone" }),
            override: z.object({ points: z.number(), note: z.string() }).nullable().openapi({ description: "Staff gave this answer these points instead of the key's, with a note for the student" }),
            tests: z
              .array(z.object({ name: z.string(), passed: z.boolean(), hidden: z.boolean() }))
              .nullable()
              .openapi({ description: "A code question: each test's name and result when this answer was judged; null otherwise (or for an attempt graded before results were kept)" }),
          }),
        ),
      })
      .nullable(),
  })
  .openapi("QuizResult");
const resultsDto = z
  .object({
    group: ref,
    quizzes: z.array(
      z.object({
        _id: z.string(),
        slug: z.string(),
        title: z.string(),
        lectureSlug: z.string(),
        lectureTitle: z.string(),
        opensAt: z.string().nullable(),
        closesAt: z.string().nullable(),
        window,
        published: z.boolean(),
        questionCount: z.number(),
        maxScore: z.number(),
        taken: z.number(),
        averagePercent: z.number().nullable(),
        questions: z.array(
          z.object({
            _id: z.string(),
            number: z.number(),
            type: z.enum(QUESTION_TYPES),
            text: z.string(),
            points: z.number(),
            right: z.number(),
            answered: z.number(),
            choices: z
              .array(z.object({ text: z.string(), chosen: z.number(), correct: z.boolean() }))
              .nullable()
              .openapi({ description: "Choice questions: how many best attempts chose each option (a bad question shows itself); null for text and code" }),
          }),
        ),
      }),
    ),
    students: z.array(
      z.object({
        _id: z.string(),
        name: z.string(),
        slug: z.string(),
        results: z.array(
          z.object({
            quizId: z.string(),
            best: z.number().nullable(),
            bestAttemptId: z.string().nullable().openapi({ description: "The attempt that counts (GET /api/quizzes/{id}/attempts/{attemptId})" }),
            attempts: z.number().openapi({ description: "Attempts handed in (or closed by the server at their deadline)" }),
            inProgress: z.boolean().openapi({ description: "An attempt is open now" }),
          }),
        ),
      }),
    ),
  })
  .openapi("QuizResults");


const groupListRoute = createRoute({
  method: "get",
  path: "/groups/{id}",
  tags,
  summary: "A group's quizzes (students: published ones, with their attempts and best score)",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Quizzes", z.array(listItem)), ...guards },
});
const lectureListRoute = createRoute({
  method: "get",
  path: "/lecture/{id}",
  tags,
  summary: "A lecture's quizzes",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Quizzes", z.array(listItem)), ...guards },
});
const resultsRoute = createRoute({
  method: "get",
  path: "/groups/{id}/results",
  tags,
  summary: "Staff: members x quizzes with best scores, and per question how many got it right",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Results", resultsDto), ...guards },
});
const scoreRoute = createRoute({
  method: "get",
  path: "/score/{id}",
  tags,
  summary: "The caller's best score: { score, maxScore } (score null before any attempt)",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Score", z.object({ score: z.number().nullable(), maxScore: z.number() })), ...guards },
});
const quizRoute = createRoute({
  method: "get",
  path: "/{id}",
  tags,
  summary: "The quiz; its questions for staff, or for a student with an open attempt or an open untimed quiz (never the correct answers)",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("The quiz", quizDto), ...guards },
});
const resultRoute = createRoute({
  method: "get",
  path: "/{id}/result",
  tags,
  summary: "The caller's graded attempts and best score; the review of their answers when the quiz's showAnswers allows",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("The result", resultDto), ...guards },
});
const startRoute = createRoute({
  method: "post",
  path: "/{id}/start",
  tags,
  summary: "Start the caller's next attempt (201) or resume the open one (200); answers the server's deadline",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam },
  responses: {
    200: jsonResponse("Resumed", z.object({ created: z.boolean(), attempt: openAttempt, attemptsLeft: z.number(), serverNow: z.string() })),
    201: jsonResponse("Started", z.object({ created: z.boolean(), attempt: openAttempt, attemptsLeft: z.number(), serverNow: z.string() })),
    ...closed,
    ...guards,
  },
});
const saveRoute = createRoute({
  method: "put",
  path: "/{id}/answers",
  tags,
  summary: "Save the open attempt's answers (replaces them; idempotent). After the deadline plus 5 s they no longer count: 409 time_up, handed in on what was saved",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam, body: jsonBody(saveAnswersInput) },
  responses: {
    200: jsonResponse("Saved", z.object({ attemptId: z.string(), savedAt: z.string(), deadline: z.string().nullable(), serverNow: z.string() })),
    400: errorResponse("Malformed answers"),
    ...closed,
    ...guards,
  },
});
const submitResponses = { 200: jsonResponse("Already graded (a retried submit)", submitDto), 201: jsonResponse("Graded", submitDto), 400: errorResponse("Malformed answers"), ...closed, ...guards };
const submitRoute = createRoute({
  method: "post",
  path: "/{id}/submit",
  tags,
  summary:
    "Hand in and grade the open attempt (or a new one); a retried submit answers the same result. Accepted up to 60 s after the deadline, but answers sent later than 5 s after it do not count (gradedOnSaved); the server closes an attempt nobody hands in 5 s after its deadline, and a later hand-in answers that result (200)",
  middleware: [noStore, requireAuth] as const,
  request: { params: idOrSlugParam, body: jsonBody(submitQuizInput) },
  responses: submitResponses,
});
const solveRoute = createRoute({
  method: "post",
  path: "/solve",
  tags,
  summary: "The same as submit, naming the quiz by slug: { slugQuize, answers }",
  middleware: [noStore, requireAuth] as const,
  request: { body: jsonBody(solveQuizInput) },
  responses: submitResponses,
});
const createQuizRoute = createRoute({
  method: "post",
  path: "/",
  tags,
  summary: "Create a quiz with its questions on a lecture (staff); members are told when it is published",
  middleware: [noStore, requireStaffRole] as const,
  request: { body: jsonBody(createQuizInput) },
  responses: { 201: jsonResponse("The quiz", quizDto), 400: errorResponse("Invalid fields"), ...guards },
});
const updateQuizRoute = createRoute({
  method: "put",
  path: "/{id}",
  tags,
  summary: "Edit a quiz (staff); questions, when sent, replace the list and are frozen once a student has started",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(updateQuizInput) },
  responses: { 200: jsonResponse("The quiz", quizDto), 400: errorResponse("Invalid fields"), 409: errorResponse("Questions frozen: students have started"), ...guards },
});
const deleteQuizRoute = createRoute({
  method: "delete",
  path: "/{id}",
  tags,
  summary: "Delete a quiz with its questions and attempts (staff)",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam },
  responses: { 200: jsonResponse("Deleted", messageDto), ...guards },
});

const studentQuestion = question.omit({ correct: true, codeTests: true });
const previewDto = z
  .object({
    quiz: z.object(summary),
    draw: z.string().openapi({ description: "This paper's draw: the same draw gives the same paper (send it with the answers)" }),
    paper: z
      .object({ drawsFromBank: z.boolean(), shuffleQuestions: z.boolean(), shuffleOptions: z.boolean() })
      .nullable()
      .openapi({ description: "Each student gets a paper of their own (drawn from the bank, shuffled): this is one of them; null when every student gets the quiz as written" }),
    missing: z.number().int().openapi({ description: "Questions the bank no longer holds for the quiz's draws; above 0 a student cannot start the quiz" }),
    questions: z.array(studentQuestion).openapi({ description: "As a student's browser receives them: never the key" }),
  })
  .openapi("QuizPreview");
const previewRoute = createRoute({
  method: "get",
  path: "/{id}/preview",
  tags,
  summary: "The quiz as one of its students would get it (staff): its rules and one paper, without the key; nothing is stored",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, query: previewQuery },
  responses: { 200: jsonResponse("One paper of the quiz", previewDto), 400: errorResponse("A draw that is not 1 to 32 letters, digits, - or _"), ...guards },
});
const previewCheckRoute = createRoute({
  method: "post",
  path: "/{id}/preview",
  tags,
  summary: "Answers to a preview's paper checked as a hand-in would be (code run in the sandbox), with the key; nothing is stored",
  middleware: [noStore, requireStaffRole] as const,
  request: { params: idOrSlugParam, body: jsonBody(previewCheckInput) },
  responses: {
    200: jsonResponse(
      "The paper's score and each question beside its key",
      z
        .object({
          draw: z.string(),
          score: z.number(),
          maxScore: z.number(),
          questions: z.array(
            studentQuestion.extend({
              answer: z.unknown(),
              correct: z.array(z.union([z.number(), z.string()])),
              right: z.boolean(),
              earned: z.number(),
              tests: z.array(z.object({ name: z.string(), passed: z.boolean(), hidden: z.boolean() })).nullable(),
            }),
          ),
        })
        .openapi("QuizPreviewCheck"),
    ),
    400: errorResponse("Answers to questions not on this paper, or of the wrong shape"),
    429: errorResponse("Code of the caller's is already running"),
    ...guards,
  },
});

export const quizzesApi = createApi()
  .openapi(groupListRoute, async (c) => c.json(await listGroupQuizzes(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(lectureListRoute, async (c) => c.json(await listLectureQuizzes(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(resultsRoute, async (c) => c.json(await groupResults(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(scoreRoute, async (c) => c.json(await getScore(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(solveRoute, async (c) => {
    const result = await solveQuiz(c.var.svc, viewerOf(c), c.req.valid("json"));
    return result.created ? c.json(result, 201) : c.json(result, 200);
  })
  .openapi(createQuizRoute, async (c) => c.json(await createQuiz(c.var.svc, viewerOf(c), c.req.valid("json")), 201))
  .openapi(previewRoute, async (c) => c.json(await previewQuiz(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("query").draw), 200))
  .openapi(previewCheckRoute, async (c) => c.json(await checkPreview(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(quizRoute, async (c) => c.json(await getQuiz(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(updateQuizRoute, async (c) => c.json(await updateQuiz(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(deleteQuizRoute, async (c) => c.json(await deleteQuiz(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(resultRoute, async (c) => c.json(await getResult(c.var.svc, viewerOf(c), c.req.valid("param").id), 200))
  .openapi(startRoute, async (c) => {
    const result = await startAttempt(c.var.svc, viewerOf(c), c.req.valid("param").id);
    return result.created ? c.json(result, 201) : c.json(result, 200);
  })
  .openapi(saveRoute, async (c) => c.json(await saveAnswers(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(submitRoute, async (c) => {
    const result = await submitQuiz(c.var.svc, viewerOf(c), c.req.valid("param").id, c.req.valid("json"));
    return result.created ? c.json(result, 201) : c.json(result, 200);
  });
