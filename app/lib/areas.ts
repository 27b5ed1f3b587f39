import type { Role } from "./permissions";

/** One account page per person: staff keep theirs inside their area, students have /profile. */
export function accountPath(role: Role): string {
  return role === "admin" ? "/dashboard/admin/profile-admin" : role === "instructor" ? "/instructor/setting" : "/profile";
}
