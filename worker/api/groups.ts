import { createRoute, z } from "@hono/zod-openapi";
import { idOrSlugParam } from "../../app/lib/schemas";
import { getPublicGroup, listPublishedGroups } from "../services/groups";
import { createApi, errorResponse } from "./app";
import { groupDetailDto, groupDto } from "./dto";

const list = createRoute({
  method: "get",
  path: "/",
  tags: ["Groups"],
  summary: "The course catalogue: every published group",
  responses: { 200: { description: "Published groups, soonest start first", content: { "application/json": { schema: z.array(groupDto) } } } },
});

const one = createRoute({
  method: "get",
  path: "/{id}",
  tags: ["Groups"],
  summary: "One published group by id or slug, with its public outline",
  request: { params: idOrSlugParam },
  responses: {
    200: { description: "The group", content: { "application/json": { schema: groupDetailDto } } },
    400: errorResponse("Malformed id"),
    404: errorResponse("No published group with that id or slug"),
  },
});

export const groupsApi = createApi()
  .openapi(list, async (c) => c.json(await listPublishedGroups(c.var.svc), 200))
  .openapi(one, async (c) => c.json(await getPublicGroup(c.var.svc, c.req.valid("param").id), 200));
