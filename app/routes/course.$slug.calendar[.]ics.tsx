import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { notFoundResponse } from "~/lib/not-found.server";
import { orHttpError } from "~/lib/group-actions.server";
import { idOrSlugParam } from "~/lib/schemas";
import { requireViewer } from "../../worker/auth/viewer";
import { listLectures } from "../../worker/services/lectures";
import { getGroupForMember } from "../../worker/services/my-groups";

/** iCalendar text: escape , ; \ and line breaks; fold nothing (our lines are short). */
const esc = (s: string) => s.replace(/\\/g, "\\\\").replace(/([,;])/g, "\\$1").replace(/\r?\n/g, "\\n");
const stamp = (iso: string) => iso.replace(/[-:]/g, "").replace(/\.\d{3}/, "");

/**
 * /course/{slug}/calendar.ics: the group's dated lectures as a calendar file (RFC 5545) for the member's own
 * calendar app, each an hour and a half long, linking back to its page. Members and staff only.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(context.svc, request);
  const slug = idOrSlugParam.safeParse({ id: params.slug });
  if (!slug.success) throw notFoundResponse();
  const group = await orHttpError(getGroupForMember(context.svc, viewer, slug.data.id));
  const lectures = await orHttpError(listLectures(context.svc, viewer, group._id));
  const origin = new URL(request.url).origin;
  const now = stamp(new Date().toISOString());
  const events = lectures
    .filter((l) => l.startsAt && l.published)
    .map((l) => {
      const end = new Date(Date.parse(l.startsAt!) + 90 * 60_000).toISOString();
      const link = `${origin}/course/${group.slug}/lecture/${l.slug}`;
      return ["BEGIN:VEVENT", `UID:${l._id}@cohort`, `DTSTAMP:${now}`, `DTSTART:${stamp(l.startsAt!)}`, `DTEND:${stamp(end)}`, `SUMMARY:${esc(l.title)}`, `DESCRIPTION:${esc(`${group.title}\n${link}`)}`, `URL:${link}`, "END:VEVENT"].join("\r\n");
    });
  const body = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Cohort//Lectures//EN", "CALSCALE:GREGORIAN", `X-WR-CALNAME:${esc(group.title)}`, ...events, "END:VCALENDAR", ""].join("\r\n");
  return new Response(body, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `attachment; filename="${group.slug}.ics"`,
      "Cache-Control": "private, no-store",
    },
  });
}
