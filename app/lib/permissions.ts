/**
 * Who may do what, in one place. The API, the Remix loaders/actions and the UI (to hide what the server
 * would refuse) all ask `can(actor, action, resource)`. Client-safe: it reads only the facts it is given.
 */
export type Role = "admin" | "instructor" | "user";

export interface Actor {
  userId: string;
  role: Role;
  /** The session acting, when known (sockets): its revocation ends the actor's rights at once. */
  sessionId?: string;
}

/** The facts about a group that permissions depend on. */
export interface GroupFacts {
  instructorId: string | null;
  /** The actor's membership status in this group, if any. */
  membershipStatus?: string | null;
  /** The group's own status (draft, published, archived), where the rule depends on it. */
  status?: string | null;
}

const MEMBER = new Set(["approved", "special"]);

export type Action =
  /** See lectures, tasks, quizzes, chat and progress of a group. */
  | "group.viewInside"
  /** Run a group: lectures, attendance, tasks, grading, quizzes, students, join requests, chat moderation. */
  | "group.manage"
  /** Create groups, assign instructors, change any group's status. */
  | "group.create"
  /** Start a new group from this one's material (its instructor: a draft of their own; admins: any group). */
  | "group.copy"
  /**
   * Add to a group's course: hand in, start a quiz, check in, write in its chat. Those who see inside it, while the
   * course runs: an archived group's course has ended, and its members keep what they have but add nothing more.
   */
  | "group.contribute"
  /** Ask to join a group (students only). */
  | "group.requestJoin"
  /** Delete a chat message. */
  | "message.delete"
  /** Read contact messages, moderate feedback, manage users and roles. */
  | "site.admin"
  /** Staff inboxes (join requests): admins for every group, instructors for their own. */
  | "staff.inbox";

type Resource = { group?: GroupFacts; message?: { authorId: string | null; group: GroupFacts } };

export function isStaffOf(actor: Actor | null, group: GroupFacts): boolean {
  if (!actor) return false;
  return actor.role === "admin" || (actor.role === "instructor" && group.instructorId === actor.userId);
}

export function can(actor: Actor | null, action: Action, resource: Resource = {}): boolean {
  if (!actor) return false;
  switch (action) {
    case "group.viewInside":
      return !!resource.group && (isStaffOf(actor, resource.group) || MEMBER.has(resource.group.membershipStatus ?? ""));
    case "group.contribute":
      return can(actor, "group.viewInside", resource) && resource.group!.status !== "archived";
    case "group.manage":
    case "group.copy":
      return !!resource.group && isStaffOf(actor, resource.group);
    case "group.create":
    case "site.admin":
      return actor.role === "admin";
    case "group.requestJoin":
      return actor.role === "user";
    case "message.delete":
      return !!resource.message && (resource.message.authorId === actor.userId || isStaffOf(actor, resource.message.group));
    case "staff.inbox":
      return actor.role === "admin" || actor.role === "instructor";
  }
}
