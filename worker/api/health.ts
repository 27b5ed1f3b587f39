import { createRoute, z } from "@hono/zod-openapi";
import { createApi } from "./app";

const health = createRoute({
  method: "get",
  path: "/",
  tags: ["Health"],
  summary: "Liveness: answers without touching the database (for uptime checks and as a benchmark baseline)",
  responses: { 200: { description: "The Worker is up", content: { "application/json": { schema: z.object({ ok: z.literal(true) }) } } } },
});

export const healthApi = createApi().openapi(health, (c) => c.json({ ok: true as const }, 200));
