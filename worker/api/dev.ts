import { createRoute, z } from "@hono/zod-openapi";
import { mailboxQuery } from "../../app/lib/schemas";
import { seedDemoData } from "../../db/seed";
import { seedSoakGroup, SOAK_MAX_USERS } from "../../db/soak-seed";
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
  description:
    "With `{ soak: { users: N } }` it also creates a fresh group with N approved students for the benches; with `coursework: true` the group also has held lectures, attendance, graded tasks and a taken quiz (bench/progress.mjs).",
  request: {
    body: {
      required: false,
      content: { "application/json": { schema: z.object({ soak: z.object({ users: z.number().int().min(1).max(SOAK_MAX_USERS), coursework: z.boolean().optional() }).optional() }) } },
    },
  },
  responses: {
    200: {
      description: "Whether the demo data was inserted, and the soak group when asked for",
      content: {
        "application/json": {
          schema: z.object({
            seeded: z.boolean(),
            soak: z.object({ group: z.object({ _id: z.string(), slug: z.string() }), password: z.string(), emails: z.array(z.string()) }).optional(),
          }),
        },
      },
    },
    400: errorResponse("Invalid soak request"),
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
  .openapi(seed, async (c) => {
    const seeded = await seedDemoData(c.var.svc);
    const soak = c.req.valid("json")?.soak;
    return c.json(soak ? { seeded, soak: await seedSoakGroup(c.var.svc, soak.users, { coursework: soak.coursework ?? false }) } : { seeded }, 200);
  });
