import type { MessageKey } from "~/i18n/en";

export const ROLE_LABEL: Record<"admin" | "instructor" | "user", MessageKey> = {
  admin: "role.admin",
  instructor: "role.instructor",
  user: "role.user",
};

export const MEMBERSHIP_LABEL: Record<"pending" | "approved" | "special" | "rejected" | "left" | "removed", MessageKey> = {
  pending: "account.membership.pending",
  approved: "account.membership.approved",
  special: "account.membership.special",
  rejected: "account.membership.rejected",
  left: "account.membership.left",
  removed: "account.membership.removed",
};
