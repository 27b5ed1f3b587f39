import { z } from "@hono/zod-openapi";

/** Response schemas, for the OpenAPI document (responses are built by services, not parsed). */
export const groupDto = z
  .object({
    _id: z.string(),
    title: z.string(),
    slug: z.string(),
    description: z.string(),
    imageCourse: z.string().nullable(),
    start_date: z.string().nullable().openapi({ example: "2026-12-05" }),
    instructorName: z.string(),
    status: z.enum(["draft", "published", "archived"]),
    capacity: z.number().int().nullable(),
  })
  .openapi("Group");

export const courseContentDto = z
  .object({ _id: z.string(), title: z.string(), body: z.string().openapi({ description: "Markdown" }), order: z.number().int() })
  .openapi("CourseContent");

export const groupDetailDto = groupDto.extend({ content: z.array(courseContentDto) }).openapi("GroupDetail");

export const feedbackDto = z
  .object({ _id: z.string(), name: z.string(), groupSlug: z.string(), userFeedback: z.string(), rating: z.number().int().min(0).max(5) })
  .openapi("Feedback");

export const mailDto = z
  .object({ id: z.string(), to: z.string(), subject: z.string(), text: z.string(), html: z.string(), createdAt: z.string() })
  .openapi("Mail");
