import { useViewer } from "~/hooks/use-viewer";
import { NotificationBell } from "./notifications/notification-bell";

/**
 * The header's slot for signed-in widgets: the notifications bell. Rendered only for a signed-in viewer, in the
 * header bar itself (beside the menu button on small screens, after the menu on wide ones), so the unread
 * count is always in sight.
 */
export function HeaderExtras() {
  const { viewer } = useViewer();
  if (!viewer) return null;
  return (
    <div className="header-extras">
      <NotificationBell userId={viewer.userId} />
    </div>
  );
}
