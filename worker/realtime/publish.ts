import { getServerByName } from "partyserver";
import type { CLOSE } from "../../app/lib/realtime-limits";
import type { ServerFrame } from "../../app/lib/realtime-protocol";
import type { Bindings } from "../env";
import { SESSION_ENDED } from "../http/errors";
import type { MessageDraft, MessageDto } from "../services/chat-store";
import type { CommitResult } from "../services/messages";
import type { GroupRoom } from "./group-room";
import type { Room } from "./room";
import type { UserHub } from "./rooms";
import type { RateLease, RateWindow } from "./chat-rate";

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

/** Pushes a frame to the group's staff connected to its room: every admin and the group's instructor. */
export async function publishToGroupRoomStaff(env: Bindings, groupId: string, instructorId: string | null, frame: ServerFrame): Promise<void> {
  const stub = await room(env.GroupRoom, groupId);
  await stub.publishToTags(frame, instructorId ? ["role:admin", `user:${instructorId}`] : ["role:admin"]);
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

/**
 * Closes one user's sockets in a group's room (4403): they left or were removed, or no longer teach it, so its
 * chat and attendance are no longer theirs. The client then asks for a new ticket, which answers what they may do now.
 */
export async function disconnectUserFromGroup(env: Bindings, groupId: string, userId: string, reason = "You are no longer a member of this group."): Promise<void> {
  const stub = await room(env.GroupRoom, groupId);
  await stub.disconnectUser(userId, reason);
}

/** Pushes a frame to the admins connected to the staff inbox, never to instructors (contact messages, feedback). */
export async function publishToAdmins(env: Bindings, frame: ServerFrame): Promise<void> {
  const stub = await room(env.StaffInbox, STAFF_ROOM);
  await stub.publishToTags(frame, ["role:admin"]);
}

function groupRoom(env: Bindings, groupId: string) {
  return getServerByName(env.GroupRoom as unknown as DurableObjectNamespace<GroupRoom>, groupId);
}

/** Has the group's room store a chat message and broadcast it, in the room's commit order (see sendMessage). */
export async function commitToGroupChat(env: Bindings, draft: MessageDraft): Promise<CommitResult> {
  const stub = await groupRoom(env, draft.groupId);
  return stub.commitMessage(draft);
}

/** Whether the group's room holds message `id` of its group (one not written through to D1 yet, for instance). */
export async function groupChatHas(env: Bindings, groupId: string, id: number): Promise<boolean> {
  const stub = await groupRoom(env, groupId);
  return stub.hasMessage(id);
}

/** A message the group's room stored and has not written through to D1 yet, or null. */
export async function pendingInGroupChat(env: Bindings, groupId: string, id: number): Promise<MessageDto | null> {
  const stub = await groupRoom(env, groupId);
  return stub.pendingMessage(id);
}

/** Has the group's room delete a chat message and broadcast `chat.deleted`; its deletion time, or null if it was deleted already. */
export async function deleteFromGroupChat(env: Bindings, groupId: string, id: number): Promise<string | null> {
  const stub = await groupRoom(env, groupId);
  return stub.deleteChatMessage(id);
}

/**
 * Asks the user's UserHub for their chat rate counter, for the group room `room` (worker/realtime/chat-rate.ts).
 * Addressed by id, without partyserver's extra naming round trip (the room's name is its id's name).
 */
export function acquireChatRateFrom(env: Bindings, userId: string, room: string): Promise<RateLease> {
  const hubs = env.UserHub as unknown as DurableObjectNamespace<UserHub>;
  return hubs.get(hubs.idFromName(userId)).acquireChatRate(room);
}

/** Has group room `groupId` give back the user's chat rate counter of lease `epoch` (its value, or null if it did not hold it). */
export function releaseChatRateIn(env: Bindings, groupId: string, userId: string, epoch: number): Promise<RateWindow | null> {
  const rooms = env.GroupRoom as unknown as DurableObjectNamespace<GroupRoom>;
  return rooms.get(rooms.idFromName(groupId)).releaseChatRate(userId, epoch);
}

/**
 * Closes the sockets opened under revoked sessions of one user: in their hub, the staff inbox and the rooms of
 * `groupIds`. Their other devices stay connected.
 */
export async function disconnectSessionsEverywhere(env: Bindings, userId: string, sessionIds: string[], groupIds: string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  const reason = SESSION_ENDED;
  const hub = await room(env.UserHub, userId);
  const staff = await room(env.StaffInbox, STAFF_ROOM);
  await Promise.all([
    hub.disconnectSessions(sessionIds, reason),
    staff.disconnectSessions(sessionIds, reason),
    ...groupIds.map(async (groupId) => (await room(env.GroupRoom, groupId)).disconnectSessions(sessionIds, reason)),
  ]);
}

/** How a user's sockets everywhere close: their session ended, or their rights changed and they should ask again. */
export type EverywhereClose = (typeof CLOSE)["sessionEnded" | "accessChanged"];

/**
 * Closes every socket a user has open: their hub, the staff inbox and the rooms of `groupIds` (the caller knows
 * which groups they could have been in: see `roomsOfUser` in services/realtime-access.ts). Used when an account
 * is deleted (`sessionEnded`: the client stops) or its role changes (`accessChanged`: the client asks for a new ticket,
 * which answers what the user may do now).
 */
export async function disconnectUserEverywhere(env: Bindings, userId: string, groupIds: string[], reason: string, code: EverywhereClose): Promise<void> {
  const hub = await room(env.UserHub, userId);
  const staff = await room(env.StaffInbox, STAFF_ROOM);
  await Promise.all([
    hub.disconnectUser(userId, reason, code),
    staff.disconnectUser(userId, reason, code),
    ...groupIds.map(async (groupId) => (await room(env.GroupRoom, groupId)).disconnectUser(userId, reason, code)),
  ]);
}
