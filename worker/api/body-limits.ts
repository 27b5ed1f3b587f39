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
 * Course work: a student's quiz answers and exercise code, and staff's course content (lectures, tasks, quizzes and
 * their question bank, announcements, exercises). Their text limits (a task's body 50,000 characters, a quiz's
 * questions 5,000 each, a code answer 20,000) pass 64 KB, above all in Arabic (3 bytes a letter in JSON, 9 in a
 * form), so their routes take up to this; the schemas still check every field's own limit.
 */
export const WORK_BODY_BYTES = 2 * 1024 * 1024;

/** The API routes of course work (quizzes.ts, exercises.ts, lectures.ts with its tasks, the bank, announcements). */
export const WORK_API_PATH = /^\/api\/(quizzes|exercises|lectures)(\/|$)|^\/api\/groups\/[^/]+\/(question-bank|announcements)(\/|$)/;

/** The pages that post course work: the staff areas and the students' answer and code save routes. */
export const WORK_PAGE_PATH = /^\/(instructor|dashboard)\/|^\/course\/[^/]+\/(quiz|exercise)\/[^/]+\/save$/;
