import { useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { renderSVG } from "uqr";
import { AlertIcon, UsersIcon } from "~/components/icons";
import { LiveIndicator } from "~/components/inbox/live-indicator";
import type { MessageKey } from "~/i18n/en";
import { failureText, type FailureLike } from "~/lib/group-errors";
import { useT } from "~/lib/i18n";
import { usePropState } from "~/lib/use-prop-state";
import type { AttendanceCounts, AttendanceFlag, AttendanceRecordFrameBody, ServerFrame } from "~/lib/realtime-protocol";
import { apiFetch } from "~/lib/session-client";
import { applyMark } from "~/lib/attendance-roster";
import { useRoom } from "~/lib/use-room";
import { useHydrated } from "~/hooks/use-hydrated";
import { When } from "./when";
import { DeliberateSelect } from "~/components/deliberate-select";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { NameSearch, useNameSearch } from "~/components/name-search";
import { focusIfLost } from "~/lib/focus";
import { RefusalText } from "~/components/form-field";

export interface AttendanceState {
  session: {
    open: boolean;
    code: string | null;
    rotateSeconds: number;
    opensAt: string;
    closesAt: string;
    lateAfterMinutes: number | null;
    nextCodeAt: string | null;
    serverTime: string;
  } | null;
  /** The lecture counts as held (progress's rule): a member without a record counts as absent. */
  held: boolean;
  counts: AttendanceCounts;
  roster: AttendanceRecordFrameBody[];
}

type Result = ({ ok: true; intent: string; state?: AttendanceState; record?: AttendanceRecordFrameBody } | (FailureLike & { ok: false; intent: string })) & { target?: string };

const STATUS_KEYS: Record<string, MessageKey> = {
  present: "attendance.status.present",
  late: "attendance.status.late",
  excused: "attendance.status.excused",
  absent: "attendance.status.absent",
};

/** Each reason a record is flagged for, with its short label and the explanation shown with it. */
const FLAG_KEYS: Record<AttendanceFlag, { label: MessageKey; hint: MessageKey }> = {
  elsewhere: { label: "attendance.flag.elsewhere", hint: "attendance.flag.elsewhereHint" },
  device: { label: "attendance.flag.device", hint: "attendance.flag.deviceHint" },
  browser: { label: "attendance.flag.browser", hint: "attendance.flag.browserHint" },
  address: { label: "attendance.flag.address", hint: "attendance.flag.addressHint" },
};

/** The projector's clock corrected by the server's: `offset` = server time - this device's time. */
function useServerClock(state: AttendanceState) {
  const [offset, setOffset] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (state.session) setOffset(Date.parse(state.session.serverTime) - Date.now());
  }, [state.session]);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, []);
  return now + offset;
}

/**
 * A lecture's attendance for its staff: open it (a fixed code, or one that rotates), the projector view (the code in
 * huge digits, a QR code that opens the check-in on a phone, the countdown to the next code, the live count and the
 * names as students check in, full screen), and the roster with manual marks and shared-device flags. Live through
 * the group's room; after every (re)connection and at every rotation the state is read again from the server.
 */
export function AttendanceScreen({
  lectureId,
  lectureSlug,
  groupId,
  initial,
  origin,
  published,
  startsAt = null,
}: {
  lectureId: string;
  lectureSlug: string;
  groupId: string;
  initial: AttendanceState;
  origin: string;
  /** False for a draft: opening attendance publishes it, and the form says so. */
  published: boolean;
  /** The lecture's date: opening attendance long before it is probably the wrong lecture, and the form says so. */
  startsAt?: string | null;
}) {
  const { t } = useT();
  const hydrated = useHydrated();
  const [state, setState] = usePropState(initial);
  const fetcher = useFetcher<Result>();
  const projector = useRef<HTMLDivElement>(null);
  const serverNow = useServerClock(state);
  const handled = useRef<unknown>(null);
  const rosterRef = useRef(state.roster);
  rosterRef.current = state.roster;

  const reload = useCallback(async () => {
    const res = await apiFetch(`/api/lectures/${encodeURIComponent(lectureId)}/attendance`);
    if (res.ok) setState((await res.json()) as AttendanceState);
  }, [lectureId]);

  useEffect(() => {
    const result = fetcher.data;
    if (!result || handled.current === result || fetcher.state !== "idle") return;
    handled.current = result;
    if (result.ok && result.state) setState(result.state);
    if (result.ok && result.record) {
      const record = result.record;
      setState((s) => ({ ...s, roster: s.roster.map((r) => (r.user._id === record.user._id ? record : r)) }));
      void reload();
    }
  }, [fetcher.data, fetcher.state, reload]);

  const onFrame = useCallback(
    (frame: ServerFrame) => {
      if (!("lectureId" in frame) || frame.lectureId !== lectureId) return;
      if (frame.type === "attendance.marked") {
        const known = rosterRef.current.some((r) => r.user._id === frame.record.user._id);
        if (known) setState((s) => applyMark(s, frame.record) ?? s);
        // A flag names the other student(s) too, and a student not on the roster joined since: read it all again.
        if (frame.record.flagged || !known) void reload();
      } else {
        void reload();
      }
    },
    [lectureId, reload],
  );
  const { status } = useRoom({ party: "group-room", room: groupId, onFrame, onOpen: () => void reload() });

  // A new code at every rotation: read the state again when the server's window ends.
  const nextCodeAt = state.session?.open && state.session.nextCodeAt ? Date.parse(state.session.nextCodeAt) : null;
  useEffect(() => {
    if (!nextCodeAt) return;
    const wait = Math.max(50, nextCodeAt - serverNow + 150);
    const timer = window.setTimeout(() => void reload(), wait);
    return () => window.clearTimeout(timer);
    // serverNow moves every 250 ms; the timer only needs to follow the window and the clock's offset.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nextCodeAt, reload]);

  const closesAt = state.session ? Date.parse(state.session.closesAt) : 0;
  const open = !!state.session?.open && serverNow < closesAt;
  useEffect(() => {
    if (state.session?.open && serverNow >= closesAt) void reload();
  }, [state.session?.open, serverNow, closesAt, reload]);

  const code = open ? state.session?.code ?? null : null;
  const link = code ? `${origin}/attend/${encodeURIComponent(lectureSlug)}?code=${code}` : "";
  const qr = useMemo(() => (link ? renderSVG(link, { ecc: "M", border: 2, pixelSize: 8 }) : ""), [link]);
  // The countdown runs on the device's clock, so it is drawn once the page runs there (the server's first render
  // shows a full window).
  const secondsLeft = nextCodeAt ? (hydrated ? Math.max(0, Math.ceil((nextCodeAt - serverNow) / 1000)) : state.session?.rotateSeconds ?? 0) : null;
  const here = state.counts.present + state.counts.late;
  // Who is here, newest first, always from the roster (the frames update it): a student marked absent after
  // checking in leaves the list, and nobody marked earlier drops off it.
  const arrived = state.roster
    .filter((r) => r.status === "present" || r.status === "late")
    .sort((a, b) => (b.markedAt ?? "").localeCompare(a.markedAt ?? ""))
    .slice(0, 12);

  const [confirmingClose, setConfirmingClose] = useState(false);
  // Opening or closing replaces the form (and the button that had the focus) with the other: the keyboard goes on
  // from the screen's heading, not from the top of the page.
  const heading = useRef<HTMLHeadingElement>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current === open) return;
    wasOpen.current = open;
    focusIfLost(() => heading.current);
  }, [open]);

  // The button follows the browser's state (Esc, F11 and the browser's own controls leave full screen too).
  const [isFullScreen, setFullScreen] = useState(false);
  useEffect(() => {
    const follow = () => setFullScreen(!!document.fullscreenElement && document.fullscreenElement === projector.current);
    document.addEventListener("fullscreenchange", follow);
    return () => document.removeEventListener("fullscreenchange", follow);
  }, []);
  const fullScreen = () => {
    const el = projector.current;
    if (!el) return;
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void el.requestFullscreen?.().catch(() => undefined);
  };

  return (
    <div className="attendance-screen">
      <div className="section-head">
        <h2 ref={heading} tabIndex={-1} className="block-title">
          {t(open ? "attendance.title" : "attendance.titleIdle")}
        </h2>
        {/* "Live" only while the session runs (then the badge says how the connection is doing). */}
        {open ? (
          <LiveIndicator status={status} />
        ) : (
          <p className="badge session-badge" data-session={state.session ? "closed" : "none"}>
            {t(state.session ? "attendance.sessionClosed" : "attendance.sessionNotOpened")}
          </p>
        )}
      </div>

      {open && state.session ? (
        <div ref={projector} className="projector" data-rotating={state.session.rotateSeconds > 0 || undefined}>
          <div className="projector-code-block">
            <p className="projector-label">{t("attendance.codeLabel")}</p>
            <p className="projector-code" dir="ltr" aria-live="polite" aria-atomic="true">
              <span className="visually-hidden">{t("attendance.codeSpoken")} </span>
              {code ? `${code.slice(0, 3)} ${code.slice(3)}` : "------"}
            </p>
            {secondsLeft !== null && state.session.rotateSeconds > 0 ? (
              <div className="projector-countdown">
                <div className="countdown-bar" aria-hidden="true">
                  <span style={{ inlineSize: `${Math.min(100, (secondsLeft / state.session.rotateSeconds) * 100)}%` }} />
                </div>
                <p>{t("attendance.nextCode", { seconds: secondsLeft })}</p>
              </div>
            ) : (
              <p className="projector-fixed">{t("attendance.fixedCode")}</p>
            )}
            <p className="projector-hint">{t("attendance.howTo", { host: origin.replace(/^https?:\/\//, "") })}</p>
          </div>
          <div className="projector-qr" aria-label={t("attendance.qrLabel")} role="img" dangerouslySetInnerHTML={{ __html: qr }} />
          <div className="projector-count">
            {/* A fraction reads left to right in both languages, like every score (quiz-pages.tsx). */}
            <p className="projector-number" aria-live="polite" dir="ltr">
              <span data-testid="present-count">{here}</span>
              <span className="projector-of"> / {state.counts.members}</span>
            </p>
            <p className="projector-label">{t("attendance.presentOf")}</p>
            <ul className="arrivals" role="list" aria-label={t("attendance.arrivals")}>
              {arrived.map((r) => (
                <li key={r.user._id} className="arrival" dir="auto">
                  {r.user.name}
                  {r.status === "late" ? <span className="badge badge-amber">{t("attendance.status.late")}</span> : null}
                </li>
              ))}
            </ul>
          </div>
          <div className="projector-actions">
            <button type="button" className="btn btn-outline btn-sm" onClick={fullScreen} data-full-screen={isFullScreen || undefined}>
              {t(isFullScreen ? "attendance.exitFullScreen" : "attendance.fullScreen")}
            </button>
            {/* Closing marks everyone not checked in absent, next to the full-screen button: asked first. */}
            <button type="button" className="btn btn-ghost btn-sm btn-destructive-ghost" disabled={fetcher.state !== "idle"} onClick={() => setConfirmingClose(true)}>
              {t("attendance.close")}
            </button>
            <p className="muted projector-closes">
              {t("attendance.closesAtLabel")} <When iso={state.session.closesAt} />
            </p>
          </div>
        </div>
      ) : (
        <OpenForm
          fetcher={fetcher}
          lastClosed={state.session ? state.session.closesAt : null}
          draft={!published}
          // More than 12 hours ahead of the server's clock: another day's lecture.
          aheadOf={startsAt && Date.parse(startsAt) - serverNow > 12 * 3_600_000 ? startsAt : null}
        />
      )}

      <Roster state={state} fetcher={fetcher} />
      <ConfirmDialog
        danger
        open={confirmingClose}
        title={t("attendance.closeTitle")}
        confirmLabel={t("attendance.close")}
        busy={fetcher.state !== "idle" && fetcher.formData?.get("intent") === "close"}
        onConfirm={() => {
          setConfirmingClose(false);
          fetcher.submit({ intent: "close" }, { method: "post" });
        }}
        onClose={() => setConfirmingClose(false)}
      >
        <p>{t("attendance.closeBody")}</p>
      </ConfirmDialog>
    </div>
  );
}

type AttendanceFetcher = ReturnType<typeof useFetcher<Result>>;

function OpenForm({ fetcher, lastClosed, draft, aheadOf }: { fetcher: AttendanceFetcher; lastClosed: string | null; draft: boolean; aheadOf: string | null }) {
  const { t } = useT();
  const failed = fetcher.data && !fetcher.data.ok && fetcher.data.intent === "open" ? fetcher.data : null;
  const lateRefused = !!failed?.fields?.lateAfterMinutes;
  return (
    <fetcher.Form method="post" className="card form-card attendance-open">
      <h3 className="form-card-title">{t("attendance.openTitle")}</h3>
      <p className="muted">
        {lastClosed ? (
          <>
            {t("attendance.lastClosedLabel")} <When iso={lastClosed} />
          </>
        ) : (
          t("attendance.openLead")
        )}
      </p>
      {lastClosed ? <p className="muted">{t("attendance.closedAbsent")}</p> : null}
      {draft ? (
        <p className="attendance-draft" id="att-draft">
          {t("attendance.draftNotice")}
        </p>
      ) : null}
      {aheadOf ? (
        <p className="attendance-draft" id="att-ahead">
          {t("attendance.aheadNotice")} <When iso={aheadOf} />
        </p>
      ) : null}
      <div className="field-row">
        <div className="field">
          <label htmlFor="att-rotate">{t("attendance.rotate")}</label>
          <select id="att-rotate" name="rotateSeconds" defaultValue="30">
            <option value="0">{t("attendance.rotate.fixed")}</option>
            <option value="15">{t("attendance.rotate.every", { seconds: 15 })}</option>
            <option value="30">{t("attendance.rotate.every", { seconds: 30 })}</option>
            <option value="60">{t("attendance.rotate.every", { seconds: 60 })}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="att-late">{t("attendance.lateAfter")}</label>
          <input
            id="att-late"
            name="lateAfterMinutes"
            type="number"
            min={0}
            max={240}
            defaultValue={10}
            className="input-narrow"
            aria-invalid={lateRefused || undefined}
            aria-describedby={lateRefused ? "att-late-error att-late-hint" : "att-late-hint"}
          />
          <p id="att-late-hint" className="field-hint">
            {t("attendance.lateAfterHint")}
          </p>
          {lateRefused ? (
            <p id="att-late-error" className="field-error">
              {t("attendance.error.lateAfter")}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="att-duration">{t("attendance.duration")}</label>
          <input id="att-duration" name="durationMinutes" type="number" min={1} max={480} defaultValue={120} className="input-narrow" required />
        </div>
      </div>
      {failed ? (
        <RefusalText className="form-error" attempt={failed}>
          {t(lateRefused ? "attendance.error.lateAfter" : "attendance.openFailed")}
        </RefusalText>
      ) : null}
      <div className="form-actions">
        <button
          type="submit"
          name="intent"
          value="open"
          className="btn btn-primary"
          disabled={fetcher.state !== "idle"}
          aria-describedby={[draft ? "att-draft" : "", aheadOf ? "att-ahead" : ""].filter(Boolean).join(" ") || undefined}
        >
          <UsersIcon />
          {t(draft ? "attendance.openAndPublish" : "attendance.open")}
        </button>
      </div>
    </fetcher.Form>
  );
}

/** A roster row without a record, by what it counts as. */
const UNMARKED_KEYS = { "joined-after": "attendance.joinedAfter", absent: "attendance.noCheckIn", "not-yet": "attendance.notYet" } as const satisfies Record<string, MessageKey>;

/** A mark refused by the rules of marking (worker/services/attendance.ts markAttendance), in the reader's words. */
const MARK_REFUSALS: Partial<Record<string, MessageKey>> = { lecture_not_held: "attendance.error.notHeld", lecture_draft: "attendance.error.draftLecture" };

const rosterName = (r: AttendanceRecordFrameBody) => r.user.name;

function Roster({ state, fetcher }: { state: AttendanceState; fetcher: AttendanceFetcher }) {
  const { t } = useT();
  const c = state.counts;
  // A refused mark (a lecture not held yet, a draft) is said above the list; the row's choice goes back by itself.
  const markFailed = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok && fetcher.data.intent === "mark" ? fetcher.data : null;
  const seen = new Set(state.roster.flatMap(flagsOf));
  const joinedAfter = state.roster.filter((r) => !r.status && r.joinedAfter).length;
  // What a row without a record is: as Progress counts it (absent on a held lecture; nothing for a late joiner).
  const unmarked = (r: AttendanceRecordFrameBody): keyof typeof UNMARKED_KEYS => (r.joinedAfter ? "joined-after" : state.held ? "absent" : "not-yet");
  const shownFlags = (Object.keys(FLAG_KEYS) as AttendanceFlag[]).filter((flag) => seen.has(flag));
  const search = useNameSearch(state.roster, rosterName);
  return (
    <section className="roster" aria-labelledby="roster-title">
      <div className="section-head">
        <h3 id="roster-title" className="block-title">
          {t("attendance.roster")}
        </h3>
        <p className="roster-counts">
          {t(state.held ? "attendance.countsHeld" : "attendance.counts", { present: c.present, late: c.late, excused: c.excused, absent: c.absent, members: c.members })}
        </p>
        {joinedAfter > 0 ? <p className="field-hint">{t("attendance.joinedAfterCount", { count: joinedAfter })}</p> : null}
      </div>
      {markFailed ? (
        <RefusalText className="form-error" attempt={markFailed}>
          {MARK_REFUSALS[markFailed.code] ? t(MARK_REFUSALS[markFailed.code]!) : failureText(t, markFailed)}
        </RefusalText>
      ) : null}
      {state.roster.length === 0 ? (
        <p className="empty-inline">{t("attendance.noMembers")}</p>
      ) : (
        <NameSearch id="roster-search" controls="roster-table" search={search} />
      )}
      {search.shown.length === 0 ? null : (
        <div id="roster-table" className="gtable-wrap" tabIndex={0} data-scroll-stop="" aria-labelledby="roster-title">
          <table className="gtable roster-table">
            <thead>
              <tr>
                <th scope="col">{t("attendance.col.student")}</th>
                <th scope="col">{t("attendance.col.status")}</th>
                <th scope="col">{t("attendance.col.time")}</th>
                <th scope="col">{t("attendance.col.mark")}</th>
              </tr>
            </thead>
            <tbody>
              {search.shown.map((r) => {
                const busy = fetcher.state !== "idle" && fetcher.formData?.get("userId") === r.user._id;
                return (
                  <tr key={r.user._id} data-flagged={r.flagged || undefined}>
                    <td data-label={t("attendance.col.student")}>
                      <span className="user-text" dir="auto">
                        {r.user.name}
                      </span>
                      {flagsOf(r).map((flag) => (
                        <span key={flag} className="flag" data-flag={flag}>
                          <AlertIcon />
                          <span>
                            <span className="visually-hidden">{t("attendance.flagReasons")} </span>
                            {t(FLAG_KEYS[flag].label)}
                          </span>
                          <span className="visually-hidden"> {t(FLAG_KEYS[flag].hint)}</span>
                        </span>
                      ))}
                    </td>
                    <td data-label={t("attendance.col.status")}>
                      {r.status ? (
                        <span className="badge attendance-badge" data-status={r.status}>
                          {t(STATUS_KEYS[r.status]!)}
                          {r.method === "manual" ? ` · ${t("attendance.byHand")}` : ""}
                        </span>
                      ) : (
                        <span className="muted" data-unmarked={unmarked(r)}>
                          {t(UNMARKED_KEYS[unmarked(r)])}
                        </span>
                      )}
                    </td>
                    <td data-label={t("attendance.col.time")}>{r.markedAt ? <When iso={r.markedAt} /> : "—"}</td>
                    <td data-label={t("attendance.col.mark")}>
                      <fetcher.Form method="post" className="mark-form">
                        <input type="hidden" name="intent" value="mark" />
                        <input type="hidden" name="userId" value={r.user._id} />
                        <label className="visually-hidden" htmlFor={`mark-${r.user._id}`}>
                          {t("attendance.markFor", { name: r.user.name })}
                        </label>
                        <DeliberateSelect
                          id={`mark-${r.user._id}`}
                          name="status"
                          value={r.status ?? ""}
                          disabled={busy}
                          onCommit={(status) => fetcher.submit({ intent: "mark", userId: r.user._id, status }, { method: "post" })}
                        >
                          <option value="" disabled>
                            {t(UNMARKED_KEYS[unmarked(r)])}
                          </option>
                          {(["present", "late", "excused", "absent"] as const).map((s) => (
                            <option key={s} value={s}>
                              {t(STATUS_KEYS[s]!)}
                            </option>
                          ))}
                        </DeliberateSelect>
                      </fetcher.Form>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <FlagLegend flags={shownFlags} />
    </section>
  );
}

/** A row's flags (an older session's row carries only `flagged`, which meant a shared device). */
function flagsOf(row: { flags?: AttendanceFlag[] | null; flagged?: boolean }): AttendanceFlag[] {
  return row.flags ?? (row.flagged ? ["device"] : []);
}

/**
 * What each flag shown in the roster means, under it: a tooltip reaches neither a phone nor a keyboard, and the
 * instructor decides from this whether to ask who was really there.
 */
function FlagLegend({ flags }: { flags: AttendanceFlag[] }) {
  const { t } = useT();
  if (flags.length === 0) return null;
  return (
    <div className="flag-legend">
      <h4 className="flag-legend-title">{t("attendance.flagLegend")}</h4>
      <dl>
        {flags.map((flag) => (
          <div key={flag} className="flag-legend-row">
            <dt>
              <span className="flag">
                <AlertIcon />
                {t(FLAG_KEYS[flag].label)}
              </span>
            </dt>
            <dd>{t(FLAG_KEYS[flag].hint)}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
