import { z } from "@hono/zod-openapi";

/** Response schemas of the account endpoints, for the OpenAPI document (responses are built by services). */
export const messageDto = z.object({ message: z.string() }).openapi("Message");

const role = z.enum(["admin", "instructor", "user"]);

export const loginDto = z
  .object({
    message: z.string().openapi({ example: "Login Successfully" }),
    accessToken: z.string().openapi({ description: "JWT (HS256) with sub, sid, role, exp; send it in Authorization, raw or as `Bearer <token>`" }),
    role,
    user: z.object({ _id: z.string(), name: z.string(), email: z.string(), role }),
  })
  .openapi("Login");

export const tokenDto = z.object({ accessToken: z.string(), role }).openapi("AccessToken");

export const userDto = z
  .object({
    _id: z.string(),
    slug: z.string(),
    name: z.string(),
    email: z.string(),
    role,
    phone_number: z.string().nullable(),
    country: z.string().nullable(),
    emailVerified: z.boolean(),
    createdAt: z.string(),
  })
  .openapi("User");

export const profileDto = userDto
  .extend({
    hasPassword: z.boolean(),
    googleLinked: z.boolean(),
    groups: z.array(
      z.object({
        _id: z.string(),
        title: z.string(),
        slug: z.string(),
        status: z.enum(["pending", "approved", "special", "rejected", "left", "removed"]),
      }),
    ),
  })
  .openapi("Profile");

export const userPageDto = z
  .object({
    users: z.array(userDto),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    /** The search's matches per role, whatever the role filter. */
    counts: z.object({ admin: z.number().int(), instructor: z.number().int(), user: z.number().int() }),
  })
  .openapi("UserPage");

export const deviceSessionDto = z
  .object({ id: z.string(), userAgent: z.string().nullable(), createdAt: z.string(), lastUsedAt: z.string(), current: z.boolean() })
  .openapi("DeviceSession");

export const ticketDto = z.object({ ticket: z.string() }).openapi("RealtimeTicket");

/** JSON body helper for createRoute. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ required: true, content: { "application/json": { schema } } });
export const jsonResponse = <T extends z.ZodType>(description: string, schema: T) => ({ description, content: { "application/json": { schema } } });
