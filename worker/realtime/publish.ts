import { getServerByName } from "partyserver";
import type { ServerFrame } from "../../app/lib/realtime-protocol";
import type { Bindings } from "../env";
import type { Room } from "./room";

/** The staff inbox is a single room. */
export const STAFF_ROOM = "all";

type RoomNamespace = DurableObjectNamespace<Room>;

async function room(ns: DurableObjectNamespace, name: string) {
  return getServerByName(ns as unknown as RoomNamespace, name);
}

/** Pushes a frame to every open tab of one user. */
export async function publishToUser(env: Bindings, userId: string, frame: ServerFrame): Promise<void> {
  const stub = await room(env.UserHub, userId);
  await stub.publish(frame);
}

/** Pushes a frame to the staff inbox (every connected admin and instructor). */
export async function publishToStaff(env: Bindings, frame: ServerFrame): Promise<void> {
  const stub = await room(env.StaffInbox, STAFF_ROOM);
  await stub.publish(frame);
}

/** Pushes a frame to everyone connected to a group's room. */
export async function publishToGroup(env: Bindings, groupId: string, frame: ServerFrame): Promise<void> {
  const stub = await room(env.GroupRoom, groupId);
  await stub.publish(frame);
}

/**
 * Pushes a frame about one group to the staff inbox, for the people who run that group only:
 * every admin and the group's instructor.
 */
export async function publishToGroupStaff(env: Bindings, instructorId: string | null, frame: ServerFrame): Promise<void> {
  const stub = await room(env.StaffInbox, STAFF_ROOM);
  await stub.publishToTags(frame, instructorId ? ["role:admin", `user:${instructorId}`] : ["role:admin"]);
}

/** Closes one user's sockets in a group's room (they left or were removed, so its chat is no longer theirs). */
export async function disconnectUserFromGroup(env: Bindings, groupId: string, userId: string): Promise<void> {
  const stub = await room(env.GroupRoom, groupId);
  await stub.disconnectUser(userId, "You are no longer a member of this group.");
}
