import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";

export type GroupStatus = "draft" | "published" | "archived";
export type MembershipStatus = "pending" | "approved" | "special" | "rejected" | "left" | "removed";

const GROUP_STATUS: Record<GroupStatus, MessageKey> = {
  draft: "group.status.draft",
  published: "group.status.published",
  archived: "group.status.archived",
};

export const MEMBERSHIP_STATUS: Record<MembershipStatus, MessageKey> = {
  pending: "groups.membership.pending",
  approved: "groups.membership.approved",
  special: "groups.membership.special",
  rejected: "groups.membership.rejected",
  left: "groups.membership.left",
  removed: "groups.membership.removed",
};

/** A group's publication status (draft, published, archived) as a coloured badge. */
export function GroupStatusBadge({ status }: { status: GroupStatus }) {
  const { t } = useT();
  return (
    <span className="badge status-badge" data-status={status}>
      {t(GROUP_STATUS[status])}
    </span>
  );
}

/** A membership status (pending, approved, special, ...) as a coloured badge. */
export function MembershipBadge({ status }: { status: MembershipStatus }) {
  const { t } = useT();
  return (
    <span className="badge membership-badge" data-membership={status}>
      {t(MEMBERSHIP_STATUS[status])}
    </span>
  );
}
