/**
 * Page glue for code exercises: the student's background save and hand-in, and the staff's exercise editor on the
 * task form. Both call the same services as /api/exercises.
 */
import type { ServiceContext } from "../../worker/context";
import { AppError } from "../../worker/http/errors";
import { saveDraft, submitCode } from "../../worker/services/exercises";
import type { Viewer } from "../../worker/services/sessions";
import { codeInput } from "./exercise-schemas";
import { text } from "./group-actions.server";

const json = (body: object, status = 200) => Response.json(body, { status });

/** intent=draft (save the code) or intent=submit (grade it): JSON replies only. */
export async function exerciseSaveAction(svc: ServiceContext, viewer: Viewer, params: { slug?: string; slugTask?: string }, form: FormData) {
  const intent = text(form, "intent");
  const parsed = codeInput.safeParse({ code: form.get("code") });
  if (!parsed.success) return json({ ok: false, code: "validation_failed", message: parsed.error.issues[0]?.message ?? "The code could not be read." }, 400);
  try {
    if (intent === "draft") return json({ ok: true, ...(await saveDraft(svc, viewer, params.slugTask ?? "", parsed.data.code)) });
    if (intent === "submit") {
      const result = await submitCode(svc, viewer, params.slugTask ?? "", parsed.data.code);
      return json({ ok: true, ...result }, result.created ? 201 : 200);
    }
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return json({ ok: false, code: err.code, message: err.message }, err.status);
  }
  return json({ ok: false, code: "bad_request", message: "Unknown action." }, 400);
}
