/** DELETE /api/user: delete one's own account (the spec's singular path). */
import { createRoute } from "@hono/zod-openapi";
import { deleteAccountInput } from "../../app/lib/schemas";
import { clientInfo } from "../auth/cookies";
import { noStore, requireAuth, viewerOf } from "../auth/middleware";
import { deleteAccount } from "../services/users";
import { createApi, errorResponse } from "./app";
import { jsonBody, jsonResponse, messageDto } from "./users-dto";

const deleteOwn = createRoute({
  method: "delete",
  path: "/",
  tags: ["Accounts"],
  summary: "Delete the caller's own account (password required); every session ends",
  middleware: [noStore, requireAuth] as const,
  request: { body: jsonBody(deleteAccountInput) },
  responses: {
    200: jsonResponse("Deleted; the refresh cookie is cleared", messageDto),
    400: errorResponse("Wrong password"),
    401: errorResponse("Not signed in"),
    409: errorResponse("last_admin: the last admin cannot delete their account"),
    429: errorResponse("Too many wrong passwords"),
  },
});

export const userApi = createApi().openapi(deleteOwn, async (c) => {
  const { setCookies, message } = await deleteAccount(c.var.svc, viewerOf(c), c.req.valid("json"), clientInfo(c.req.raw));
  for (const cookie of setCookies) c.header("Set-Cookie", cookie, { append: true });
  return c.json({ message }, 200);
});
