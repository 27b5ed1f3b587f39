/**
 * The students screen's loader and action bodies, shared by /dashboard/admin/group/{slug}/students and
 * /instructor/group/{slug}/students. The routes guard (requireRole) and pass the viewer; the services check
 * that the viewer runs the group.
 */
import type { ServiceContext } from "../../worker/context";
import { getManagedGroupCard } from "../../worker/services/groups-admin";
import type { Viewer } from "../../worker/services/sessions";
import { listGroupStudents, setQuizTime, setStudentStatus } from "../../worker/services/students";
import { attempt, invalid, orHttpError, text, unknownIntent } from "./group-actions.server";
import { listSearch } from "./list-query";
import { notFoundResponse } from "./not-found.server";
import { groupStudentsQuery, idOrSlugParam, quizTimeInput, studentStatusInput } from "./schemas";

export function groupSlugParam(params: Record<string, string | undefined>): string {
  const slug = idOrSlugParam.safeParse({ id: params.slug });
  if (!slug.success) throw notFoundResponse();
  return slug.data.id;
}

/** The group's members (or the chosen status, or everyone), filtered by name or e-mail. */
export async function loadGroupStudents(svc: ServiceContext, viewer: Viewer, slug: string, url: URL) {
  // "members" (approved and special) is the service's default, so it is sent as no status at all.
  const status = url.searchParams.get("status");
  const raw = { search: listSearch(url.searchParams), status: status && status !== "members" ? status : undefined };
  const parsed = groupStudentsQuery.safeParse(raw);
  const query = parsed.success ? parsed.data : {};
  const [group, students] = await Promise.all([
    orHttpError(getManagedGroupCard(svc, viewer, slug)),
    orHttpError(listGroupStudents(svc, viewer, slug, query)),
  ]);
  return {
    group: { slug: group.slug, title: group.title, status: group.status, capacity: group.capacity, memberCount: group.memberCount },
    search: query.search ?? "",
    status: query.status ?? "members",
    students,
  };
}

/**
 * intent=status: switch a member between approved and special, remove them, or restore a removed student;
 * intent=quizTime: the member's time on timed quizzes (an accommodation).
 */
export async function groupStudentsAction(svc: ServiceContext, viewer: Viewer, slug: string, form: FormData) {
  const intent = text(form, "intent");
  if (intent === "quizTime") {
    const userId = text(form, "userId");
    const parsed = quizTimeInput.safeParse({ timeMultiplier: text(form, "timeMultiplier") });
    if (!parsed.success) return invalid(intent, parsed.error, userId);
    return attempt(intent, async () => ({ student: await setQuizTime(svc, viewer, slug, userId, parsed.data) }), userId);
  }
  if (intent !== "status") return unknownIntent(intent);
  const userId = text(form, "userId");
  const parsed = studentStatusInput.safeParse({ status: text(form, "status") });
  if (!parsed.success) return invalid(intent, parsed.error, userId);
  return attempt(intent, async () => ({ student: await setStudentStatus(svc, viewer, slug, userId, parsed.data) }), userId);
}
