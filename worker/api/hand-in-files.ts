/**
 * File hand-ins (issue 21): POST /api/lectures/{lectureId}/submit-task/{taskId}/file (multipart: `file`, `notes`) and
 * GET .../tasks/{taskId}/submissions/{submissionId}/file. The API's 64 KB body limit skips the upload
 * (worker/api/index.ts); this route has its own, just above the largest file a task may take (20 MB).
 *
 * A file is never served as HTML from the site's origin: its type is what its bytes were judged to be when it was
 * handed in (PDF, PNG/JPEG/WebP, ZIP or text/plain), `X-Content-Type-Options: nosniff` and a sandbox CSP go with it,
 * and it is an attachment unless `?inline=1` asks for a preview of an image, PDF or text.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { MAX_FILE_MB } from "../../app/lib/hand-in-files";
import { noStore, requireAuth, viewerOf } from "../auth/middleware";
import { AppError } from "../http/errors";
import { fileHandInTask, readSubmissionFile, submitFile } from "../services/tasks";
import { fileResponse } from "../http/hand-in-file";
import { createApi, errorResponse } from "./app";

const tags = ["Tasks and submissions"];
const key = z.string().min(1).max(120).regex(/^[\p{L}\p{M}\p{N}_-]+$/u, "Invalid id");
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

const uploadForm = z.object({
  file: z.custom<File>((v) => v instanceof File, "Attach the file as the form field `file`.").openapi({ type: "string", format: "binary", description: "A PDF, image, text or ZIP file, as the task allows" }),
  notes: z.string().max(2000, "Notes are limited to 2000 characters.").optional(),
});

const uploadRoute = createRoute({
  method: "post",
  path: "/{lectureId}/submit-task/{taskId}/file",
  tags,
  summary: "Hand in a file (members, for a task that asks for one); the kind is judged by the file's content, the size by the task's limit",
  middleware: [
    noStore,
    requireAuth,
    // The task, the caller's right to hand in to it and the size it allows, before the body is read: a stranger's or
    // an oversized upload is refused without parsing megabytes of multipart (the declared size; the file is checked
    // again once read). The body allowance of a form's other fields is the overhead's.
    async (c, next) => {
      const declared = Number(c.req.header("content-length"));
      const bytes = Number.isFinite(declared) && declared > MULTIPART_OVERHEAD_BYTES ? declared - MULTIPART_OVERHEAD_BYTES : null;
      await fileHandInTask(c.var.svc, viewerOf(c), c.req.param("lectureId") ?? "", c.req.param("taskId") ?? "", bytes);
      await next();
    },
    bodyLimit({
      maxSize: MAX_FILE_MB.max * 1024 * 1024 + MULTIPART_OVERHEAD_BYTES,
      onError: () => {
        throw new AppError(413, "payload_too_large", `Files are limited to ${MAX_FILE_MB.max} MB.`);
      },
    }),
  ] as const,
  request: { params: z.object({ lectureId: key, taskId: key }), body: { required: true, content: { "multipart/form-data": { schema: uploadForm } } } },
  responses: {
    201: { description: "Handed in (first time)", content: { "application/json": { schema: z.object({ created: z.boolean(), submission: z.unknown() }) } } },
    200: { description: "Replaced", content: { "application/json": { schema: z.object({ created: z.boolean(), submission: z.unknown() }) } } },
    400: errorResponse("Empty, or not a kind the task takes (by content)"),
    401: errorResponse("Not signed in"),
    403: errorResponse("Not a student of the group"),
    404: errorResponse("No such task"),
    409: errorResponse("Graded already, past the due time, or the task asks for a link"),
    413: errorResponse("Larger than the task allows"),
  },
});

const fileRoute = createRoute({
  method: "get",
  path: "/{lectureId}/tasks/{taskId}/submissions/{submissionId}/file",
  tags,
  summary: "A hand-in's file (its student and the group's staff): an attachment, or inline (?inline=1) for images, PDFs and text; ?version=N for an earlier version",
  middleware: [requireAuth] as const,
  request: {
    params: z.object({ lectureId: key, taskId: key, submissionId: key }),
    query: z.object({ inline: z.enum(["1"]).optional(), version: z.coerce.number().int().min(1).max(1000).optional() }),
  },
  responses: {
    200: { description: "The file" },
    401: errorResponse("Not signed in"),
    404: errorResponse("No such file, or not the caller's and not their group's"),
  },
});

export const handInFilesApi = createApi()
  .openapi(uploadRoute, async (c) => {
    const p = c.req.valid("param");
    const form = c.req.valid("form");
    const result = await submitFile(c.var.svc, viewerOf(c), p.lectureId, p.taskId, form.file, form.notes);
    return result.created ? c.json(result, 201) : c.json(result, 200);
  })
  .openapi(fileRoute, async (c) => {
    const p = c.req.valid("param");
    const q = c.req.valid("query");
    const file = await readSubmissionFile(c.var.svc, viewerOf(c), p.lectureId, p.taskId, p.submissionId, q.version);
    return fileResponse(file, q.inline === "1") as never;
  });
