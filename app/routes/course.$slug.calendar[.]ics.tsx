import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { detectLang } from "~/i18n/config";
import { dictionary } from "~/i18n/index.server";
import { idOrSlugParam } from "~/lib/schemas";
import { requireViewer } from "../../worker/auth/viewer";
import { AppError } from "../../worker/http/errors";
import { groupCalendar } from "../../worker/services/calendar";

/**
 * /course/{slug}/calendar.ics: the group's lectures, due times and quiz windows as a calendar file for the
 * reader's own calendar app (worker/services/calendar.ts), with the words it adds in the reader's language.
 * Members and staff only; a refusal is a short text in the reader's language.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  const lang = detectLang(request);
  const refuse = (status: 403 | 404) =>
    new Response(dictionary(lang)[status === 403 ? "calendar.forbidden" : "calendar.notFound"], {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  const slug = idOrSlugParam.safeParse({ id: params.slug });
  if (!slug.success) return refuse(404);
  try {
    const file = await groupCalendar(context.svc, viewer, slug.data.id, { lang });
    // A header carries only ASCII: an Arabic slug goes in the encoded `filename*` (RFC 6266), beside a plain name.
    const plain = /^[A-Za-z0-9._-]+$/.test(file.filename) ? file.filename : "calendar.ics";
    return new Response(file.body, {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
        "Cache-Control": "private, no-store",
        "Content-Language": lang,
      },
    });
  } catch (err) {
    if (err instanceof AppError && (err.status === 403 || err.status === 404)) return refuse(err.status);
    throw err;
  }
}
