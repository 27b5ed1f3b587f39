import { createRoute, z } from "@hono/zod-openapi";
import { contactInput } from "../../app/lib/schemas";
import { createContactMessage } from "../services/contact";
import { createApi, errorResponse } from "./app";

const send = createRoute({
  method: "post",
  path: "/",
  tags: ["Contact"],
  summary: "Send a contact-form message to the team",
  request: { body: { required: true, content: { "application/json": { schema: contactInput } } } },
  responses: {
    201: { description: "Stored; the admins are notified", content: { "application/json": { schema: z.object({ _id: z.string(), message: z.string() }) } } },
    400: errorResponse("Missing or invalid fields"),
    429: errorResponse("Too many messages from this address; see Retry-After"),
  },
});

export const contactApi = createApi().openapi(send, async (c) => {
  const { _id } = await createContactMessage(c.var.svc, c.req.valid("json"));
  return c.json({ _id, message: "Thank you for contacting us! We'll get back to you soon." }, 201);
});
