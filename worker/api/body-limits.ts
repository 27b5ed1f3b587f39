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
