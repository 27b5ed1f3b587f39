import { OpenAPIHono } from "@hono/zod-openapi";
import type { Bindings } from "../env";
import type { ServiceContext } from "../context";
import { AppError } from "../http/errors";
import { humanIssue } from "../http/human-issue";
import type { Viewer } from "../services/sessions";

export interface ApiEnv {
  Bindings: Bindings;
  /** `viewer` is set by requireAuth / requireRole (worker/auth/middleware.ts) on routes that need a user. */
  Variables: { svc: ServiceContext; viewer?: Viewer };
}

/**
 * A sub-app whose validation failures all answer the one error shape:
 * 400 `{ message, code: "validation_failed", fields }`.
 */
export function createApi() {
  return new OpenAPIHono<ApiEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const fields: Record<string, string> = {};
        for (const issue of result.error.issues) {
          const key = issue.path.join(".") || "_";
          fields[key] ??= humanIssue(issue);
        }
        const first = Object.values(fields)[0] ?? "Invalid input";
        throw new AppError(400, "validation_failed", first, fields);
      }
    },
  });
}

/** Shared OpenAPI component for error responses. */
export const errorResponse = (description: string) => ({
  description,
  content: {
    "application/json": {
      schema: {
        type: "object" as const,
        properties: {
          message: { type: "string" as const },
          code: { type: "string" as const },
          fields: { type: "object" as const, additionalProperties: { type: "string" as const } },
        },
        required: ["message", "code"],
      },
    },
  },
});
