import { createRoute, z } from "@hono/zod-openapi";
import { listPublicFeedback } from "../services/feedback";
import { createApi } from "./app";
import { feedbackDto } from "./dto";

const list = createRoute({
  method: "get",
  path: "/",
  tags: ["Feedback"],
  summary: "Public student feedback (no e-mail addresses), newest first",
  responses: { 200: { description: "Visible feedback", content: { "application/json": { schema: z.array(feedbackDto) } } } },
});

export const feedbackApi = createApi().openapi(list, async (c) => c.json(await listPublicFeedback(c.var.svc), 200));
