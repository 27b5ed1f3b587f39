import { useFetchers } from "@remix-run/react";
import { useCallback, useRef } from "react";
import type { ServerFrame } from "~/lib/realtime-protocol";
import { apiFetch } from "~/lib/session-client";
import { useRoom, type RoomStatus } from "~/lib/use-room";

export interface StaffInboxOptions<S> {
  /** The API path whose answer is a fresh snapshot of what the screen shows. */
  snapshotPath: string;
  /** A live frame (each frame once, as it arrives). */
  onFrame: (frame: ServerFrame) => void;
  /** A fresh snapshot, with the frames that arrived while it was being read (apply them on top). */
  onSnapshot: (snapshot: S, framesSince: ServerFrame[]) => void;
}

/**
 * The admins' live inboxes: the staff-inbox room (`party: "staff-inbox"`, room `all`), plus a fresh snapshot over
 * the API each time the socket (re)opens, since frames sent while it was down (or before it first opened) are
 * gone. A snapshot is dropped when one of the page's own changes (a fetcher) was under way at any moment while
 * it was read: that change's revalidation brings newer data, and an older snapshot must not overwrite it.
 * (A Remix `revalidate()` here would race the same way: a revalidation started before an action can finish
 * after it and win.)
 */
export function useStaffInbox<S>({ snapshotPath, onFrame, onSnapshot }: StaffInboxOptions<S>): RoomStatus {
  const fetchers = useFetchers();
  const busy = fetchers.some((f) => f.state !== "idle");
  const lastChange = useRef(0);
  const busyRef = useRef(busy);
  // A change starts, or ends (its action has committed by then): either way, a snapshot read before is stale.
  // Noted during render, not in an effect: a snapshot that resolves between this render and its effects would
  // otherwise see neither a busy fetcher nor the change, and overwrite the fresher list.
  if (busyRef.current !== busy) lastChange.current = Date.now();
  busyRef.current = busy;
  const buffer = useRef<ServerFrame[] | null>(null);
  const handlers = useRef({ onFrame, onSnapshot });
  handlers.current = { onFrame, onSnapshot };

  const refresh = useCallback(async () => {
    const started = Date.now();
    const frames: ServerFrame[] = [];
    buffer.current = frames;
    try {
      const res = await apiFetch(snapshotPath);
      if (!res.ok) return;
      const snapshot = (await res.json()) as S;
      if (busyRef.current || lastChange.current >= started) return;
      handlers.current.onSnapshot(snapshot, frames);
    } catch {
      // Offline or the server is away: the socket's next open tries again.
    } finally {
      if (buffer.current === frames) buffer.current = null;
    }
  }, [snapshotPath]);

  const { status } = useRoom({
    party: "staff-inbox",
    room: "all",
    onFrame: (frame) => {
      buffer.current?.push(frame);
      handlers.current.onFrame(frame);
    },
    onOpen: () => void refresh(),
  });
  return status;
}
