/**
 * The API's body limits, apart from the routes they concern, so that the API's entry (index.ts) applies them without
 * loading those routes: every route but the two uploads refuses a body above MAX_BODY_BYTES; the uploads have their
 * own, larger limits (uploads.ts, hand-in-files.ts).
 */

/** Request bodies above this are refused with 413 before they are read. */
export const MAX_BODY_BYTES = 64 * 1024;

/** The course-image upload's path (uploads.ts), which the general body limit leaves to that route. */
export const COURSE_IMAGE_UPLOAD_PATH = "/api/uploads/course-image";

/** The file hand-in's path (hand-in-files.ts), which the general body limit leaves to that route. */
export const HAND_IN_UPLOAD_PATH = /^\/api\/lectures\/[^/]+\/submit-task\/[^/]+\/file$/;

/**
 * A student's answers and code: a quiz's answer set (up to 100 questions, a code answer up to 20,000 characters) and an
 * exercise's code can pass 64 KB, above all in Arabic (3 bytes a letter in JSON, 9 in a form), so their routes take
 * up to this (the answer rules themselves are checked by the schemas).
 */
export const ANSWERS_BODY_BYTES = 2 * 1024 * 1024;

/** The API routes that carry a student's answers or code (quizzes.ts, exercises.ts). */
export const ANSWERS_API_PATH = /^\/api\/(quizzes\/(solve|[^/]+\/(answers|submit))|exercises\/[^/]+\/(draft|submit))$/;

/** The pages' resource routes that carry them (course.$slug.quiz.$slugQuiz.save, course.$slug.exercise.$slugTask.save). */
export const ANSWERS_PAGE_PATH = /^\/course\/[^/]+\/(quiz|exercise)\/[^/]+\/save$/;
