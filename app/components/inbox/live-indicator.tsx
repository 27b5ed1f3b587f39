import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import type { RoomStatus } from "~/lib/use-room";

const TEXT: Record<RoomStatus, MessageKey> = {
  connecting: "live.connecting",
  open: "live.open",
  reconnecting: "live.reconnecting",
  closed: "live.closed",
};

/** "Live" while a screen's socket is open; otherwise what it is doing about it. */
export function LiveIndicator({ status }: { status: RoomStatus }) {
  const { t } = useT();
  return (
    <p className="live-indicator" data-status={status}>
      <span className="live-indicator-dot" aria-hidden="true" />
      {t(TEXT[status])}
    </p>
  );
}
