/**
 * Loader and action bodies of the lecture screens, shared by the admin pages (/dashboard/admin/group/{slug}/lectures…)
 * and the instructor pages (/instructor/group/{slug}/lectures…), and the student's lecture page. They call the same
 * services as the API; the services check who may do what.
 */
import type { ServiceContext } from "../../worker/context";
import type { CheckinClient } from "../../worker/services/attendance-client";
import { attend, closeAttendance, getAttendanceState, markAttendance, openAttendance } from "../../worker/services/attendance";
import { groupForUser, managedGroupHeading } from "../../worker/services/group-access";
import { COMMON_TIME_ZONES, zoneChoices } from "./cohort.server";
import { quizzesOfReadLecture } from "../../worker/services/quizzes";
import { createLecture, deleteLecture, getLecture, lectureItemsForStaff, lectureWork, listLectures, reorderLectures, requireReadableLecture, scheduleLectures, sortLecturesByDate, updateLecture } from "../../worker/services/lectures";
import type { Viewer } from "../../worker/services/sessions";
import { allInOrder, attempt, formNumber, invalid, jsonField, orHttpError, rawText, text, unknownIntent } from "./group-actions.server";
import { attendInput, createLectureInput, lectureOrderInput, lectureSeriesInput, markAttendanceInput, openAttendanceInput, updateLectureInput } from "./lecture-schemas";
import { renderMarkdown } from "./markdown.server";
import { idOrSlugParam } from "./schemas";
import { notFoundResponse } from "./not-found.server";
import { copyTargets } from "../../worker/services/course-copy";
import { can } from "./permissions";

function slugParam(value: string | undefined): string {
  const parsed = idOrSlugParam.safeParse({ id: value ?? "" });
  if (!parsed.success) throw notFoundResponse();
  return parsed.data.id;
}


/**
 * The group's lectures for its staff, with the group's time zone (a weekly series is set in it unless another is
 * chosen) and the zones offered.
 */
export async function loadStaffLectures(svc: ServiceContext, viewer: Viewer, params: { slug?: string }) {
  const group = await orHttpError(managedGroupHeading(svc, viewer, slugParam(params.slug)));
  // The same row the heading was read from (once per request).
  const [lectures, row] = await Promise.all([orHttpError(listLectures(svc, viewer, group._id)), groupForUser(svc, viewer.userId, group._id)]);
  const timeZone = row?.timeZone ?? "Africa/Cairo";
  const timeZones = zoneChoices(COMMON_TIME_ZONES.includes(timeZone) ? COMMON_TIME_ZONES : [timeZone, ...COMMON_TIME_ZONES], Date.now());
  return { group: { id: group._id, slug: group.slug, title: group.title, timeZone }, timeZones, lectures };
}

/** intent=create | schedule | order | order-by-date | publish | delete on the lecture list. */
export async function staffLecturesAction(svc: ServiceContext, viewer: Viewer, params: { slug?: string }, form: FormData) {
  const slug = slugParam(params.slug);
  const intent = text(form, "intent");
  switch (intent) {
    case "create": {
      const parsed = createLectureInput.safeParse(jsonField(form, "lecture"));
      if (!parsed.success) return invalid(intent, parsed.error);
      return attempt(intent, async () => ({ lecture: await createLecture(svc, viewer, slug, parsed.data) }));
    }
    case "schedule": {
      const parsed = lectureSeriesInput.safeParse(jsonField(form, "series"));
      if (!parsed.success) return invalid(intent, parsed.error);
      return attempt(intent, async () => ({ lectures: await scheduleLectures(svc, viewer, slug, parsed.data) }));
    }
    case "order": {
      const parsed = lectureOrderInput.safeParse({ ids: jsonField(form, "ids") });
      if (!parsed.success) return invalid(intent, parsed.error);
      return attempt(intent, async () => ({ lectures: await reorderLectures(svc, viewer, slug, parsed.data) }));
    }
    case "order-by-date":
      return attempt(intent, async () => ({ lectures: await sortLecturesByDate(svc, viewer, slug) }));
    case "publish": {
      const id = text(form, "id");
      return attempt(intent, async () => ({ lecture: await updateLecture(svc, viewer, id, { published: text(form, "published") === "true" }) }), id);
    }
    case "delete": {
      const id = text(form, "id");
      return attempt(intent, () => deleteLecture(svc, viewer, id), id);
    }
    default:
      return unknownIntent(intent);
  }
}

/** One lecture for its editor. */
export async function loadLectureEditor(svc: ServiceContext, viewer: Viewer, params: { slug?: string; slugLecture?: string }) {
  const [group, lecture] = await allInOrder(orHttpError(managedGroupHeading(svc, viewer, slugParam(params.slug))), orHttpError(getLecture(svc, viewer, slugParam(params.slugLecture))));
  if (lecture.group._id !== group._id) throw notFoundResponse();
  // The groups the lecture can be copied into (the ones the viewer runs, issue 22), and what is set on it.
  const [copyTo, items] = await Promise.all([copyTargets(svc, viewer), lectureItemsForStaff(svc, lecture._id)]);
  return { group: { id: group._id, slug: group.slug, title: group.title }, lecture, copyTo, items };
}

/** intent=save | preview | delete in the editor. */
export async function lectureEditorAction(svc: ServiceContext, viewer: Viewer, params: { slugLecture?: string }, form: FormData) {
  const id = slugParam(params.slugLecture);
  const intent = text(form, "intent");
  switch (intent) {
    case "save": {
      const parsed = updateLectureInput.safeParse(jsonField(form, "lecture"));
      if (!parsed.success) return invalid(intent, parsed.error);
      return attempt(intent, async () => ({ lecture: await updateLecture(svc, viewer, id, parsed.data) }));
    }
    case "preview": {
      const body = rawText(form, "body").slice(0, 50_000);
      return attempt(intent, async () => ({ html: renderMarkdown(body) }));
    }
    case "delete":
      return attempt(intent, () => deleteLecture(svc, viewer, id));
    default:
      return unknownIntent(intent);
  }
}

/** The attendance screen: the lecture and its attendance state. */
export async function loadAttendanceScreen(svc: ServiceContext, viewer: Viewer, params: { slug?: string; slugLecture?: string }) {
  const { group, lecture } = await loadLectureEditor(svc, viewer, params);
  const state = await orHttpError(getAttendanceState(svc, viewer, lecture._id));
  return { group, lecture: { id: lecture._id, slug: lecture.slug, title: lecture.title, startsAt: lecture.startsAt, published: lecture.published }, state };
}

/** intent=open | close | mark on the attendance screen. */
export async function attendanceAction(svc: ServiceContext, viewer: Viewer, params: { slugLecture?: string }, form: FormData) {
  const lectureId = slugParam(params.slugLecture);
  const intent = text(form, "intent");
  switch (intent) {
    case "open": {
      const late = text(form, "lateAfterMinutes");
      const parsed = openAttendanceInput.safeParse({
        rotateSeconds: formNumber(text(form, "rotateSeconds") || "0"),
        lateAfterMinutes: late === "" ? null : formNumber(late),
        durationMinutes: formNumber(text(form, "durationMinutes") || "0"),
      });
      if (!parsed.success) return invalid(intent, parsed.error);
      return attempt(intent, async () => ({ state: await openAttendance(svc, viewer, lectureId, parsed.data) }));
    }
    case "close":
      return attempt(intent, async () => ({ state: await closeAttendance(svc, viewer, lectureId) }));
    case "mark": {
      const parsed = markAttendanceInput.safeParse({ lectureId, userId: text(form, "userId"), status: text(form, "status") });
      if (!parsed.success) return invalid(intent, parsed.error, text(form, "userId"));
      return attempt(intent, async () => ({ record: await markAttendance(svc, viewer, parsed.data) }), parsed.data.userId);
    }
    default:
      return unknownIntent(intent);
  }
}

/** The student's lecture page (members and staff): the lecture with its rendered body and one's attendance. */
export async function loadLecturePage(svc: ServiceContext, viewer: Viewer, params: { slug?: string; slugLecture?: string }) {
  const readable = await orHttpError(requireReadableLecture(svc, viewer, slugParam(params.slugLecture)));
  if (readable.groupSlug !== slugParam(params.slug) && readable.groupId !== params.slug) throw notFoundResponse();
  // The group's staff see all of its work; anyone else (a member, whatever their role) what students see.
  const staff = can(viewer, "group.manage", { group: { instructorId: readable.instructorId } });
  // The lecture's details and its work read together (the check above is remembered for getLecture).
  // Its quizzes as every quiz list shows them (when each opens or closes, the student's attempts and best score).
  const now = Date.now();
  const [lecture, work, quizList] = await Promise.all([
    orHttpError(getLecture(svc, viewer, readable.id)),
    lectureWork(svc, readable.id, staff ? null : viewer.userId),
    orHttpError(quizzesOfReadLecture(svc, viewer, readable, now)),
  ]);
  const quizzes = quizList
    .filter((q) => q.published)
    .map(({ _id, slug, title, opensAt, closesAt, maxScore, maxAttempts, window, mine }) => ({ _id, slug, title, opensAt, closesAt, maxScore, maxAttempts, window, mine }));
  return { lecture, work: { ...work, quizzes } };
}

/** intent=attend on the lecture page: the typed code. */
export async function lecturePageAction(svc: ServiceContext, viewer: Viewer, params: { slugLecture?: string }, form: FormData, client: CheckinClient = { browser: null }) {
  const intent = text(form, "intent");
  if (intent !== "attend") return unknownIntent(intent);
  const parsed = attendInput.safeParse({ slugLec: slugParam(params.slugLecture), code: text(form, "code"), fingerprint: text(form, "fingerprint") || undefined });
  if (!parsed.success) return invalid(intent, parsed.error);
  return attempt(intent, async () => ({ result: await attend(svc, viewer, parsed.data, Date.now(), client) }));
}
