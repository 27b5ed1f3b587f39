/** POST /api/realtime/ticket: a 60-second ticket for one realtime room, for people allowed in it. */
import { createRoute } from "@hono/zod-openapi";
import { realtimeTicketInput } from "../../app/lib/schemas";
import { noStore, requireAuth, viewerOf } from "../auth/middleware";
import { issueRealtimeTicket } from "../services/realtime-tickets";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse, ticketDto } from "./users-dto";

const ticketRoute = createRoute({
  method: "post",
  path: "/ticket",
  tags: ["Realtime"],
  summary: "Mint a single-use ticket to open /parties/{party}/{room}",
  middleware: [noStore, requireAuth] as const,
  request: { body: jsonBody(realtimeTicketInput) },
  responses: {
    200: jsonResponse("The ticket (valid 60 seconds, once)", ticketDto),
    400: errorResponse("Invalid party or room"),
    401: errorResponse("Not signed in"),
    403: errorResponse("Not allowed in this room"),
    404: errorResponse("No such room"),
  },
});

export const realtimeApi = createApi().openapi(ticketRoute, async (c) => c.json(await issueRealtimeTicket(c.var.svc, viewerOf(c), c.req.valid("json")), 200));
