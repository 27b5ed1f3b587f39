/**
 * The Cohort tab of a group's staff pages (issue 22), for the instructor and admin areas alike: announcements, the
 * completion rule and certificates, and copying the group for its next cohort. Every intent goes through the same
 * services as the API, which check who may.
 */
import { eq, min } from "drizzle-orm";
import { announcementInput, completionRuleInput, copyGroupInput, publishingInput, revokeCertificateInput } from "./lifecycle-schemas";
import { attempt, formNumber, invalid, orHttpError, text, unknownIntent } from "./group-actions.server";
import { groups, lectures } from "../../db/schema";
import type { ServiceContext } from "../../worker/context";
import type { Viewer } from "../../worker/services/sessions";
import { deleteAnnouncement, listAnnouncements, postAnnouncement, type StaffAnnouncementDto } from "../../worker/services/announcements";
import { certificateRoster, issueCertificates, revokeCertificate, setCompletionRule } from "../../worker/services/certificates";
import { copyGroup } from "../../worker/services/course-copy";
import { updateGroup } from "../../worker/services/groups-admin";
import { requireManagedGroup } from "../../worker/services/group-access";
import { zoneOffset } from "../../worker/services/time-shift";
import type { ZoneChoice } from "./time-zones";

/** Time zones offered by the copy form (the group's own is added when it is not among them). */
export const COMMON_TIME_ZONES = [
  "Africa/Cairo",
  "Asia/Riyadh",
  "Asia/Dubai",
  "Asia/Kuwait",
  "Asia/Qatar",
  "Asia/Amman",
  "Asia/Beirut",
  "Asia/Baghdad",
  "Africa/Casablanca",
  "Africa/Tunis",
  "Africa/Algiers",
  "Europe/London",
  "Europe/Berlin",
  "America/New_York",
  "UTC",
];

/**
 * Each zone with its offset from UTC now, in minutes, worked out once here (the server's and the browser's ICU may
 * word an offset differently; a number renders the same on both). The screen names the zone's city in the reader's
 * language beside it.
 */
export function zoneChoices(zones: readonly string[], at: number): ZoneChoice[] {
  // Kept for the hour per isolate (offsets change at most at a whole hour, at daylight saving): the lecture list and
  // the cohort page ask for the same list at every request.
  const hour = Math.floor(at / 3_600_000);
  if (choicesHour !== hour) {
    choicesHour = hour;
    choicesKept.clear();
  }
  const key = zones.join(" ");
  let choices = choicesKept.get(key);
  if (!choices) {
    choices = zones.map((id) => ({ id, offsetMinutes: Math.round(zoneOffset(hour * 3_600_000, id) / 60_000) }));
    choicesKept.set(key, choices);
  }
  return choices;
}
let choicesHour = -1;
const choicesKept = new Map<string, ZoneChoice[]>();

export async function loadCohort(svc: ServiceContext, viewer: Viewer, slug: string) {
  const group = await orHttpError(requireManagedGroup(svc, viewer, slug));
  const [announcements, roster, [facts]] = await Promise.all([
    listAnnouncements(svc, viewer, group.id) as Promise<StaffAnnouncementDto[]>,
    certificateRoster(svc, viewer, group.id),
    svc.db
      .select({ timeZone: groups.timeZone, firstLecture: min(lectures.startsAt) })
      .from(groups)
      .leftJoin(lectures, eq(lectures.groupId, groups.id))
      .where(eq(groups.id, group.id))
      .groupBy(groups.id),
  ]);
  const timeZone = facts?.timeZone ?? "Africa/Cairo";
  return {
    group: { _id: group.id, slug: group.slug, title: group.title, status: group.status, timeZone },
    announcements,
    roster,
    firstLecture: facts?.firstLecture ? new Date(facts.firstLecture).toISOString() : null,
    timeZones: zoneChoices(COMMON_TIME_ZONES.includes(timeZone) ? COMMON_TIME_ZONES : [timeZone, ...COMMON_TIME_ZONES], Date.now()),
  };
}
export type CohortData = Awaited<ReturnType<typeof loadCohort>>;

const percentOrNull = (v: string) => (v === "" ? null : formNumber(v));
const instantOrUndefined = (v: string) => (v === "" ? null : v);

export async function cohortAction(svc: ServiceContext, viewer: Viewer, slug: string, form: FormData) {
  const intent = text(form, "intent");
  switch (intent) {
    case "announce": {
      const parsed = announcementInput.safeParse({ title: text(form, "title"), body: text(form, "body"), expiresAt: instantOrUndefined(text(form, "expiresAt")) });
      if (!parsed.success) return invalid(intent, parsed.error);
      return attempt(intent, async () => ({ announcement: await postAnnouncement(svc, viewer, slug, parsed.data) }));
    }
    case "delete-announcement":
      return attempt(intent, () => deleteAnnouncement(svc, viewer, slug, text(form, "announcementId")));
    case "rule": {
      const parsed = completionRuleInput.safeParse({ overall: percentOrNull(text(form, "overall")), attendance: percentOrNull(text(form, "attendance")) });
      if (!parsed.success) return invalid(intent, parsed.error);
      return attempt(intent, async () => ({ rule: await setCompletionRule(svc, viewer, slug, parsed.data) }));
    }
    case "issue-all":
      return attempt(intent, () => issueCertificates(svc, viewer, slug, {}));
    case "issue-one":
      return attempt(intent, () => issueCertificates(svc, viewer, slug, { userIds: [text(form, "userId")] }), text(form, "userId"));
    case "revoke": {
      const parsed = revokeCertificateInput.safeParse({ reason: text(form, "reason") });
      if (!parsed.success) return invalid(intent, parsed.error, text(form, "certificateId"));
      return attempt(intent, async () => ({ certificate: await revokeCertificate(svc, viewer, text(form, "certificateId"), parsed.data) }), text(form, "certificateId"));
    }
    case "publishing": {
      const parsed = publishingInput.safeParse({ status: text(form, "status") });
      if (!parsed.success) return invalid(intent, parsed.error);
      return attempt(intent, async () => ({ status: (await updateGroup(svc, viewer, slug, { status: parsed.data.status })).status }));
    }
    case "copy": {
      const parsed = copyGroupInput.safeParse({ title: text(form, "title"), startDate: text(form, "startDate"), timeZone: text(form, "timeZone") || undefined });
      if (!parsed.success) return invalid(intent, parsed.error);
      return attempt(intent, async () => {
        const result = await copyGroup(svc, viewer, slug, parsed.data);
        return { copy: { slug: result.group.slug, title: result.group.title }, copied: result.copied };
      });
    }
    default:
      return unknownIntent(intent);
  }
}
