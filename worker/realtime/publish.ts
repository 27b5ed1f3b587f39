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
