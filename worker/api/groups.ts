/**
 * /api/groups: the public catalogue (personal when signed in: each group carries the caller's membership
 * status), plus the staff's group management, outline and students (groups-manage.ts, groups-content.ts,
 * groups-students.ts). `/manage` is registered before `/{id}`, and "manage" is never given as a slug.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { idOrSlugParam } from "../../app/lib/schemas";
import { optionalAuth } from "../auth/middleware";
import { getPublicGroup, listPublishedGroups } from "../services/groups";
import { createApi, errorResponse } from "./app";
import { catalogueGroupDetailDto, catalogueGroupDto } from "./groups-dto";
import { groupsContentApi } from "./groups-content";
import { groupsManageApi } from "./groups-manage";
import { groupsStudentsApi } from "./groups-students";
import { rubricsApi } from "./rubrics";
import { questionBankApi } from "./question-bank";
import { groupCopyApi } from "./course-copy";
import { announcementsApi } from "./announcements";
import { groupCertificatesApi } from "./certificates";

const list = createRoute({
  method: "get",
  path: "/",
  tags: ["Groups"],
  summary: "The course catalogue: every published group (with the caller's membershipStatus when signed in)",
  middleware: [optionalAuth] as const,
  responses: { 200: { description: "Published groups, soonest start first", content: { "application/json": { schema: z.array(catalogueGroupDto) } } } },
});

const one = createRoute({
  method: "get",
  path: "/{id}",
  tags: ["Groups"],
  summary: "One published group by id or slug, with its public outline (and the caller's membershipStatus when signed in)",
  middleware: [optionalAuth] as const,
  request: { params: idOrSlugParam },
  responses: {
    200: { description: "The group", content: { "application/json": { schema: catalogueGroupDetailDto } } },
    400: errorResponse("Malformed id"),
    404: errorResponse("No published group with that id or slug"),
  },
});

export const groupsApi = createApi()
  .openapi(list, async (c) => c.json(await listPublishedGroups(c.var.svc, c.var.viewer), 200))
  .route("/", groupsManageApi)
  .route("/", groupsContentApi)
  .route("/", groupsStudentsApi)
  .route("/", rubricsApi)
  .route("/", questionBankApi)
  .route("/", groupCopyApi)
  .route("/", announcementsApi)
  .route("/", groupCertificatesApi)
  .openapi(one, async (c) => c.json(await getPublicGroup(c.var.svc, c.req.valid("param").id, c.var.viewer), 200));
