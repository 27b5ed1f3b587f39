/**
 * Who may open which realtime room (POST /api/realtime/ticket). The rooms themselves trust the ticket, so this
 * is the one place their access rules live:
 * - `user-hub/{userId}`: only that user;
 * - `staff-inbox/all`: admins and instructors;
 * - `group-room/{groupId}`: the group's approved or special members, its instructor and admins.
 */
import { and, eq } from "drizzle-orm";
import { can } from "../../app/lib/permissions";
import type { RealtimeTicketInput } from "../../app/lib/schemas";
import { groups, memberships } from "../../db/schema";
import type { ServiceContext } from "../context";
import { forbidden, notFound } from "../http/errors";
import { STAFF_ROOM } from "../realtime/publish";
import { mintTicket } from "../realtime/tickets";
import type { Viewer } from "./sessions";

export async function issueRealtimeTicket(ctx: ServiceContext, viewer: Viewer, input: RealtimeTicketInput): Promise<{ ticket: string }> {
  const allowed = await mayJoin(ctx, viewer, input);
  if (!allowed) throw forbidden("You may not join this room.");
  return { ticket: await mintTicket(ctx.settings, viewer, input.party, input.room) };
}

/**
 * Whether the viewer may join the room now. Checked when the ticket is issued and again when its socket opens
 * (worker/realtime/router.ts): a ticket minted just before a right ended (an instructor replaced, a student
 * removed) opens nothing.
 */
export async function mayJoin(ctx: Pick<ServiceContext, "db">, viewer: Pick<Viewer, "userId" | "role">, { party, room }: RealtimeTicketInput): Promise<boolean> {
  switch (party) {
    case "user-hub":
      return room === viewer.userId;
    case "staff-inbox":
      if (room !== STAFF_ROOM) throw notFound("No such room.");
      return can(viewer, "staff.inbox");
    case "group-room": {
      const [group] = await ctx.db
        .select({ status: groups.status, instructorId: groups.instructorId, membershipStatus: memberships.status })
        .from(groups)
        .leftJoin(memberships, and(eq(memberships.groupId, groups.id), eq(memberships.userId, viewer.userId)))
        .where(eq(groups.id, room))
        .limit(1);
      const inside = !!group && can(viewer, "group.viewInside", { group });
      // A draft group's room is as unknown to someone outside it as a room that does not exist.
      if (!group || (group.status === "draft" && !inside)) throw notFound("No such room.");
      return inside;
    }
  }
}
