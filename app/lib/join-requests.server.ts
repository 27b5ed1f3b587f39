/**
 * The join-request inbox's loader and action bodies, shared by /dashboard/admin/email-request (every group) and
 * /instructor/email-request (the instructor's own groups; the services scope both lists and decisions).
 */
import type { ServiceContext } from "../../worker/context";
import { listManagedGroups } from "../../worker/services/groups-admin";
import { decideMembershipRequest, listMembershipRequests } from "../../worker/services/membership-requests";
import type { Viewer } from "../../worker/services/sessions";
import { attempt, invalid, orHttpError, text, unknownIntent } from "./group-actions.server";
import { idOrSlugParam, membershipDecisionInput } from "./schemas";

/** How many pending requests the inbox shows at once (newest first). */
export const INBOX_SIZE = 100;

/** Pending requests, newest first, optionally for one group (`?group=<slug>`), and the groups to filter by. */
export async function loadJoinRequests(svc: ServiceContext, viewer: Viewer, url: URL) {
  const wanted = idOrSlugParam.safeParse({ id: url.searchParams.get("group") ?? "" });
  const groupId = wanted.success ? wanted.data.id : undefined;
  const [requests, groups] = await Promise.all([
    orHttpError(listMembershipRequests(svc, viewer, { status: "pending", groupId, page: 1, pageSize: INBOX_SIZE })),
    listManagedGroups(svc, viewer, { page: 1, pageSize: 100 }),
  ]);
  return {
    requests: requests.map(({ decidedAt: _decided, ...r }) => r),
    groups: groups.groups.map((g) => ({ id: g._id, slug: g.slug, title: g.title, pendingCount: g.pendingCount })),
    group: groupId ? (groups.groups.find((g) => g.slug === groupId || g._id === groupId)?.slug ?? groupId) : "",
  };
}

/** intent=decide: approve, approve as special or reject one pending request. */
export async function joinRequestsAction(svc: ServiceContext, viewer: Viewer, form: FormData) {
  const intent = text(form, "intent");
  if (intent !== "decide") return unknownIntent(intent);
  const id = text(form, "id");
  const parsed = membershipDecisionInput.safeParse({ decision: text(form, "decision") });
  if (!parsed.success) return invalid(intent, parsed.error, id);
  return attempt(intent, async () => ({ decided: await decideMembershipRequest(svc, viewer, id, parsed.data) }), id);
}
