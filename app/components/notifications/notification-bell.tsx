import { Link, useLocation, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { TimeAgo } from "~/components/groups/time-ago";
import { BellIcon, CheckAllIcon } from "~/components/realtime-icons";
import { useT } from "~/lib/i18n";
import { localNotificationText } from "~/lib/notification-text";
import type { NotificationFrameBody, ServerFrame } from "~/lib/realtime-protocol";
import { apiFetch } from "~/lib/session-client";
import { useRoom } from "~/lib/use-room";
import type { RootData } from "~/root";

/** A link's path ("/a/b?x=1#c" -> "/a/b"), decoded: Arabic slugs compare the same however they were written. */
const pathOf = (link: string) => {
  try {
    return decodeURI(new URL(link, "http://cohort.invalid").pathname);
  } catch {
    return null;
  }
};

/**
 * Whether a notification's link is about the page being read: the page itself, or something within it (a lecture,
 * task or quiz published on its schedule, announced while its course's home is open). Not the landing page ("/").
 */
const concerns = (link: string, page: string | null) => {
  const at = pathOf(link);
  if (!at || !page || page === "/") return false;
  return at === page || at.startsWith(page.endsWith("/") ? page : `${page}/`);
};

type Item = NotificationFrameBody;

const PAGE = 10;

/** Only our own paths become links (a notification's link is data; it must not send anyone off-site). */
const isLocalPath = (link: string | null): link is string => !!link && link.startsWith("/") && !link.startsWith("//") && !link.startsWith("/\\");

const badgeText = (n: number) => (n > 99 ? "99+" : String(n));

interface Page {
  notifications: Item[];
  unread: number;
  nextBefore: string | null;
}

async function fetchPage(limit: number, before?: string): Promise<Page> {
  const query = new URLSearchParams({ limit: String(limit) });
  if (before) query.set("before", before);
  const res = await apiFetch(`/api/notifications?${query}`);
  if (!res.ok) throw new Error(`notifications ${res.status}`);
  return (await res.json()) as Page;
}

/**
 * The header's notifications bell (PRODUCT.md §3 "Notifications"). The unread count comes from the root loader
 * and then follows the viewer's own hub (`user-hub/{userId}`): `notification` frames carry the new count,
 * `notification.read` frames (from any of the viewer's tabs) too. Opening the panel reads the latest
 * notifications; a click on one marks it read and follows its link. A disclosure: Escape, the focus leaving it or a click outside
 * closes it and focus returns to the bell.
 */
export function NotificationBell({ userId }: { userId: string }) {
  const { t } = useT();
  const root = useRouteLoaderData<RootData>("root");
  const location = useLocation();
  const pathRef = useRef<string | null>(null);
  pathRef.current = pathOf(location.pathname);
  const [count, setCount] = useState(root?.unreadNotifications ?? 0);
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<Item[] | null>(null);
  const [nextBefore, setNextBefore] = useState<string | null>(null);
  const [phase, setPhase] = useState<"idle" | "loading" | "error">("idle");
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  /** When the count last changed here (a frame, a click): an answer requested before that is stale. */
  const changedAt = useRef(0);
  const revalidator = useRevalidator();
  const id = useId();

  // Whenever the root reloads (after any action), its count is the newest word.
  useEffect(() => {
    if (root) setCount(root.unreadNotifications);
  }, [root]);

  const load = useCallback(async () => {
    const started = Date.now();
    setPhase("loading");
    try {
      const page = await fetchPage(PAGE);
      if (changedAt.current >= started) {
        // Something changed while this page was read: read again rather than show an older state.
        void load();
        return;
      }
      setItems(page.notifications);
      setNextBefore(page.nextBefore);
      setCount(page.unread);
      setPhase("idle");
    } catch {
      setPhase("error");
    }
  }, []);

  const [arrived, setArrived] = useState("");
  const tRef = useRef(t);
  tRef.current = t;
  const onFrame = useCallback((frame: ServerFrame) => {
    // A decision about one's own membership changes what the page and the header show (a course opens, My Courses
    // appears): the loaders run again, so an open course page follows it without a reload.
    if (frame.type === "membership.decided" && frame.decision.userId === userId) revalidator.revalidate();
    // A notification about the page being read or something in it (grades released on this task, a message on this
    // hand-in, a new hand-in in this grader, a lecture published in this course): the page reads its data again, so it
    // says what the bell says.
    if (frame.type === "notification" && frame.notification.link && concerns(frame.notification.link, pathRef.current)) revalidator.revalidate();
    if (frame.type === "notification" || frame.type === "notification.read" || frame.type === "notification.removed") changedAt.current = Date.now();
    if (frame.type === "notification") {
      // Said to a screen reader as it arrives (the bell's own name only changes its count, which nothing announces).
      setArrived(tRef.current("bell.arrived", { text: localNotificationText(tRef.current, frame.notification) }));
      setCount(frame.unread);
      setItems((list) => (list ? [frame.notification, ...list.filter((n) => n._id !== frame.notification._id)] : list));
    } else if (frame.type === "notification.removed") {
      setCount(frame.unread);
      const ids = new Set(frame.ids);
      setItems((list) => list?.filter((n) => !ids.has(n._id)) ?? list);
    } else if (frame.type === "notification.read") {
      setCount(frame.unread);
      const at = new Date().toISOString();
      const ids = frame.ids === "all" ? null : new Set(frame.ids);
      setItems((list) => list?.map((n) => (!n.readAt && (ids === null || ids.has(n._id)) ? { ...n, readAt: at } : n)) ?? list);
    }
  }, [userId, revalidator]);

  const { status } = useRoom({
    party: "user-hub",
    room: userId,
    onFrame,
    // Frames sent while the socket was down (or before it first opened) are gone: read the count again.
    onOpen: () => {
      if (itemsRef.current) return void load();
      const started = Date.now();
      void fetchPage(1)
        .then((page) => {
          if (changedAt.current < started) setCount(page.unread);
        })
        .catch(() => undefined);
    },
  });

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    // A notification followed from the panel: the panel goes with the old page, and the keyboard goes on from the new
    // page's content (the root's own move runs before this, while the focus is still in the panel).
    if (wrapRef.current?.contains(document.activeElement) && document.activeElement !== buttonRef.current) document.getElementById("main")?.focus({ preventScroll: true });
    setOpen(false);
  }, [location.pathname, location.search]);

  useEffect(() => {
    if (!open) return;
    panelRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.stopPropagation();
        close(true);
      }
    };
    const onPointer = (e: PointerEvent) => {
      if (wrapRef.current && !wrapRef.current.contains(e.target as Node)) close(false);
    };
    // Tabbing out of the panel closes it too: it would otherwise cover what the focus moved to (a small screen).
    const onFocus = (e: FocusEvent) => {
      if (wrapRef.current && e.target instanceof Node && !wrapRef.current.contains(e.target)) close(false);
    };
    document.addEventListener("keydown", onKey, true);
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("focusin", onFocus);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("focusin", onFocus);
    };
  }, [open, close]);

  const toggle = () => {
    if (open) return close(false);
    setOpen(true);
    void load();
  };

  const markRead = (n: Item) => {
    if (n.readAt) return;
    changedAt.current = Date.now();
    const at = new Date().toISOString();
    setItems((list) => list?.map((x) => (x._id === n._id ? { ...x, readAt: at } : x)) ?? list);
    setCount((c) => Math.max(0, c - 1));
    void apiFetch(`/api/notifications/${encodeURIComponent(n._id)}/read`, { method: "PUT" })
      .then(async (res) => {
        if (res.ok) setCount(((await res.json()) as { unread: number }).unread);
      })
      .catch(() => undefined);
  };

  const markAll = () => {
    changedAt.current = Date.now();
    const at = new Date().toISOString();
    setItems((list) => list?.map((x) => (x.readAt ? x : { ...x, readAt: at })) ?? list);
    setCount(0);
    // The button disables itself (nothing is unread): the panel keeps the focus instead of the page.
    panelRef.current?.focus();
    void apiFetch("/api/notifications/read-all", { method: "PUT" })
      .then(async (res) => {
        if (res.ok) setCount(((await res.json()) as { unread: number }).unread);
      })
      .catch(() => undefined);
  };

  const older = async () => {
    if (!nextBefore) return;
    try {
      const page = await fetchPage(PAGE, nextBefore);
      setItems((list) => [...(list ?? []), ...page.notifications.filter((n) => !list?.some((x) => x._id === n._id))]);
      setNextBefore(page.nextBefore);
    } catch {
      setPhase("error");
    }
  };

  const label = count > 0 ? t("bell.labelUnread", { count }) : t("bell.label");

  return (
    <div className="bell" ref={wrapRef} data-live={status}>
      <span className="bell-spot">
        <button
          ref={buttonRef}
          type="button"
          className="btn btn-ghost btn-icon bell-button"
          aria-label={label}
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          data-unread={count}
          onClick={toggle}
        >
          <BellIcon />
        </button>
        {/* The count drawn over the bell, outside the button: the button's name already says it in words ("one unread",
            which need not contain the digit), and a number inside the button would be visible text missing from its
            name (WCAG 2.5.3, label in name). Clicks pass through it to the button. */}
        {count > 0 ? (
          <span className="bell-badge" aria-hidden="true">
            {badgeText(count)}
          </span>
        ) : null}
      </span>
      <span className="visually-hidden" role="status" aria-live="polite">
        {arrived}
      </span>
      <div
        ref={panelRef}
        id={`${id}-panel`}
        className="bell-panel"
        role="dialog"
        aria-labelledby={`${id}-title`}
        tabIndex={-1}
        hidden={!open}
      >
        <div className="bell-head">
          <h2 id={`${id}-title`} className="bell-title">
            {t("bell.title")}
          </h2>
          <button type="button" className="btn btn-ghost btn-sm bell-mark-all" onClick={markAll} disabled={count === 0}>
            <CheckAllIcon />
            {t("bell.markAll")}
          </button>
        </div>
        {phase === "error" ? (
          <div className="bell-state" role="alert">
            <p>{t("bell.loadFailed")}</p>
            <button type="button" className="btn btn-outline btn-sm" onClick={() => void load()}>
              {t("bell.retry")}
            </button>
          </div>
        ) : items === null ? (
          <div className="bell-state">
            <span className="spinner" aria-hidden="true" />
            <p>{t("common.loading")}</p>
          </div>
        ) : items.length === 0 ? (
          <p className="bell-state bell-empty">{t("bell.empty")}</p>
        ) : (
          <ul className="bell-list" role="list">
            {items.map((n) => (
              <li key={n._id} className="bell-item" data-unread={!n.readAt || undefined}>
                {isLocalPath(n.link) ? (
                  <Link to={n.link} className="bell-link" onClick={() => markRead(n)}>
                    <NotificationBody n={n} />
                  </Link>
                ) : (
                  <button type="button" className="bell-link" onClick={() => markRead(n)}>
                    <NotificationBody n={n} />
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {items && nextBefore ? (
          <div className="bell-foot">
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => void older()}>
              {t("bell.older")}
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}

function NotificationBody({ n }: { n: Item }) {
  const { t } = useT();
  return (
    <>
      <span className="bell-dot" aria-hidden="true" />
      <span className="bell-text">
        {!n.readAt ? <span className="visually-hidden">{t("bell.unread")}: </span> : null}
        <span className="bell-item-title">
          {localNotificationText(t, n)}
        </span>
        <span className="bell-time">
          <TimeAgo iso={n.createdAt} />
        </span>
      </span>
    </>
  );
}
