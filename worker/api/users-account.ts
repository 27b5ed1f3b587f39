/** The signed-in user's own account: /api/users/profile, PUT /api/users, /api/users/password, /api/users/sessions. */
import { createRoute, z } from "@hono/zod-openapi";
import { changePasswordInput, updateProfileInput } from "../../app/lib/schemas";
import { requireAuth, viewerOf } from "../auth/middleware";
import { listSessions, revokeSession } from "../services/sessions";
import { changePassword, getProfile, updateProfile } from "../services/users";
import { createApi, errorResponse } from "./app";
import { deviceSessionDto, jsonBody, jsonResponse, messageDto, profileDto } from "./users-dto";

const tags = ["Accounts"];
const signedOut = errorResponse("Not signed in");

const profileRoute = createRoute({
  method: "get",
  path: "/profile",
  tags,
  summary: "The caller's profile with their groups and membership statuses",
  middleware: [requireAuth] as const,
  responses: { 200: jsonResponse("Profile", profileDto), 401: signedOut },
});

const updateRoute = createRoute({
  method: "put",
  path: "/",
  tags,
  summary: "Edit the caller's own name, phone number and country",
  middleware: [requireAuth] as const,
  request: { body: jsonBody(updateProfileInput) },
  responses: { 200: jsonResponse("Updated profile", profileDto), 400: errorResponse("Invalid fields"), 401: signedOut },
});

const passwordRoute = createRoute({
  method: "put",
  path: "/password",
  tags,
  summary: "Change the password (current one required); the caller's other devices are signed out",
  middleware: [requireAuth] as const,
  request: { body: jsonBody(changePasswordInput) },
  responses: { 200: jsonResponse("Changed", messageDto), 400: errorResponse("Wrong current password or invalid new one"), 401: signedOut, 429: errorResponse("Too many wrong passwords") },
});

const sessionsRoute = createRoute({
  method: "get",
  path: "/sessions",
  tags,
  summary: "The caller's signed-in devices",
  middleware: [requireAuth] as const,
  responses: { 200: jsonResponse("Devices, most recently used first", z.array(deviceSessionDto)), 401: signedOut },
});

const revokeRoute = createRoute({
  method: "delete",
  path: "/sessions/{id}",
  tags,
  summary: "Sign one of the caller's devices out",
  middleware: [requireAuth] as const,
  request: { params: z.object({ id: z.string().min(1).max(64) }) },
  responses: { 200: jsonResponse("Signed out", messageDto), 401: signedOut, 404: errorResponse("No such session of the caller") },
});

export const usersAccountApi = createApi()
  .openapi(profileRoute, async (c) => c.json(await getProfile(c.var.svc, viewerOf(c)), 200))
  .openapi(updateRoute, async (c) => c.json(await updateProfile(c.var.svc, viewerOf(c), c.req.valid("json")), 200))
  .openapi(passwordRoute, async (c) => c.json(await changePassword(c.var.svc, viewerOf(c), c.req.valid("json")), 200))
  .openapi(sessionsRoute, async (c) => c.json(await listSessions(c.var.svc, viewerOf(c)), 200))
  .openapi(revokeRoute, async (c) => c.json(await revokeSession(c.var.svc, viewerOf(c), c.req.valid("param").id), 200));
