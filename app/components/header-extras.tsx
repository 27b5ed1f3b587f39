import { useScriptless } from "~/hooks/use-scriptless";
import { useViewer } from "~/hooks/use-viewer";
import { NotificationBell } from "./notifications/notification-bell";

/**
 * The header's slot for signed-in widgets: the notifications bell. Rendered only for a signed-in viewer, in the
 * header bar itself (beside the menu button on small screens, after the menu on wide ones), so the unread
 * count is always in sight. A screen sent without its scripts (use-scriptless.ts) has no bell: its panel needs them.
 */
export function HeaderExtras() {
  const { viewer } = useViewer();
  const scriptless = useScriptless();
  if (!viewer || scriptless) return null;
  return (
    <div className="header-extras">
      <NotificationBell userId={viewer.userId} />
    </div>
  );
}
