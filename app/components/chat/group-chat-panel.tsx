export interface GroupChatPanelProps {
  /** The group's id: also the name of its realtime room (`/parties/group-room/{groupId}`). */
  groupId: string;
  /** The group's slug, for links (e.g. /instructor/group/{slug}/messages). */
  groupSlug: string;
  /** Whether the viewer may delete anyone's message (the group's staff). */
  canModerate?: boolean;
}

/**
 * The group chat, mounted on the member's course home (/course/{slug}) and on the staff group overview
 * (/dashboard/admin/group/{slug}). The chat engineer fills this component in (history, live messages through
 * `useRoom` from app/lib/use-room.ts, sending, deleting); until then it renders nothing, and the section that
 * holds it collapses.
 */
export function GroupChatPanel(_props: GroupChatPanelProps) {
  return null;
}
