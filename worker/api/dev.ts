import { createRoute, z } from "@hono/zod-openapi";
import { mailboxQuery } from "../../app/lib/schemas";
import { seedDemoData } from "../../db/seed";
import { notFound } from "../http/errors";
import { listOutbox } from "../services/mail";
import { createApi, errorResponse } from "./app";
import { mailDto } from "./dto";

const mailbox = createRoute({
  method: "get",
  path: "/mailbox",
  tags: ["Development"],
  summary: "The local outbox for one address, newest first (development only; 404 otherwise)",
  request: { query: mailboxQuery },
  responses: {
    200: { description: "Mails sent to that address", content: { "application/json": { schema: z.array(mailDto) } } },
    400: errorResponse("Missing or invalid ?to"),
    404: errorResponse("Not in development"),
  },
});

const seed = createRoute({
  method: "post",
  path: "/seed",
  tags: ["Development"],
  summary: "Seed the demo data into an empty local database (idempotent; development only)",
  responses: {
    200: { description: "Whether anything was inserted", content: { "application/json": { schema: z.object({ seeded: z.boolean() }) } } },
    404: errorResponse("Not in development"),
  },
});

/** Development helpers; every route answers 404 unless ENVIRONMENT is development. */
export const devApi = createApi();
devApi.use(async (c, next) => {
  if (c.var.svc.settings.environment !== "development") throw notFound();
  await next();
});
devApi
  .openapi(mailbox, async (c) => {
    const rows = await listOutbox(c.var.svc, c.req.valid("query").to);
    return c.json(rows.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })), 200);
  })
  .openapi(seed, async (c) => c.json({ seeded: await seedDemoData(c.var.svc) }, 200));
