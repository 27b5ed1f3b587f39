/**
 * POST /api/uploads/course-image: a course image into R2 (multipart/form-data, field `file`). The API's 64 KB
 * body limit skips this path (worker/api/index.ts, body-limits.ts); this route has its own, just above the 2 MB image limit
 * so that an image of exactly 2 MB with its multipart framing still gets through to the precise check.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { COURSE_IMAGE } from "../../app/lib/schemas";
import { noStore, requireStaffRole, viewerOf } from "../auth/middleware";
import { AppError } from "../http/errors";
import { uploadCourseImage } from "../services/uploads";
import { createApi, errorResponse } from "./app";
import { uploadDto } from "./groups-dto";
import { jsonResponse } from "./users-dto";

const MULTIPART_OVERHEAD_BYTES = 16 * 1024;
const TOO_LARGE = `Images are limited to ${COURSE_IMAGE.maxBytes / 1024 / 1024} MB.`;

const uploadForm = z.object({
  file: z
    .custom<File>((v) => v instanceof File, "Attach the image as the form field `file`.")
    .openapi({ type: "string", format: "binary", description: "PNG, JPEG or WebP, at most 2 MB" }),
});

const uploadRoute = createRoute({
  method: "post",
  path: "/course-image",
  tags: ["Uploads"],
  summary: "Upload a course image (admins and instructors); answers the URL for imageCourse",
  middleware: [
    noStore,
    requireStaffRole,
    bodyLimit({
      maxSize: COURSE_IMAGE.maxBytes + MULTIPART_OVERHEAD_BYTES,
      onError: () => {
        throw new AppError(413, "payload_too_large", TOO_LARGE);
      },
    }),
  ] as const,
  request: { body: { required: true, content: { "multipart/form-data": { schema: uploadForm } } } },
  responses: {
    201: jsonResponse("Stored; serve it from the URL", uploadDto),
    400: errorResponse("invalid_image: not a PNG, JPEG or WebP (by its bytes), or no file"),
    401: errorResponse("Not signed in"),
    403: errorResponse("Not an admin or instructor"),
    413: errorResponse("Larger than 2 MB"),
    415: errorResponse("Not multipart/form-data"),
  },
});

export const uploadsApi = createApi().openapi(uploadRoute, async (c) => c.json(await uploadCourseImage(c.var.svc, viewerOf(c), c.req.valid("form").file), 201));
