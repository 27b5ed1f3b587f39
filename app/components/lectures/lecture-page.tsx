import { Link, useFetcher, useRevalidator } from "@remix-run/react";
import { CourseBreadcrumb } from "~/components/breadcrumb";
import { useCallback, useEffect, useRef, useState } from "react";
import { ArrowIcon, CalendarIcon, CheckIcon, SettingsIcon } from "~/components/icons";
import { ExternalIcon } from "~/components/groups/extra-icons";
import type { MessageKey } from "~/i18n/en";
import { failureText, type FailureLike } from "~/lib/group-errors";
import { toLatinDigits } from "~/lib/digits";
import { useT } from "~/lib/i18n";
import type { SubmissionState } from "~/lib/task-schemas";
import { STATE_KEYS } from "~/components/tasks/state";
import type { ServerFrame } from "~/lib/realtime-protocol";
import { deviceFingerprint } from "~/lib/session-client";
import { useRoom } from "~/lib/use-room";
import { videoEmbed, type VideoEmbed } from "~/lib/video-embed";
import { QuizStanding, QuizWhen, type CourseQuiz } from "~/components/quizzes/course-quizzes";
import { When } from "./when";
import { focusRefused } from "~/lib/focus";
import { RefusalText } from "~/components/form-field";

export interface PageLecture {
  _id: string;
  slug: string;
  title: string;
  bodyHtml: string;
  startsAt: string | null;
  videoUrl: string | null;
  resources: { title: string; url: string }[];
  group: { _id: string; slug: string; title: string; ended: boolean };
  attendance: { status: string; markedAt: string; byStaff: boolean } | null;
  attendanceOpen: boolean;
  /** Held while the viewer was a member, and no record of theirs: Progress counts it as not attended. */
  missed: boolean;
  /** The viewer joined after the lecture took place and has no record of it: it counts nowhere for them. */
  joinedAfter: boolean;
}

type Result = ({ ok: true; intent: string; result: { status: string; markedAt: string } } | (FailureLike & { ok: false; intent: string })) & { target?: string };

const STATUS: Record<string, MessageKey> = {
  present: "attendance.youArePresent",
  late: "attendance.youAreLate",
  excused: "attendance.youAreExcused",
  absent: "attendance.youAreAbsent",
};

/**
 * A lecture for the group's members: its content, video and resources, and, while attendance is open, the check-in
 * box (the 6-digit code on the screen). The box appears and disappears live through the group's room. `manageHref`
 * is set for the group's staff (they run attendance from their own screen instead).
 */
export interface LectureWork {
  /** `state` is the reader's own submission state (students); null for staff. */
  tasks: { slug: string; title: string; dueAt: string | null; state: SubmissionState | null }[];
  /** As the quiz lists show them: when each opens or closes, and the reader's own standing (students). */
  quizzes: Omit<CourseQuiz, "lectureSlug">[];
}

export function LecturePage({ lecture, work, manageHref, justCheckedIn }: { lecture: PageLecture; work: LectureWork; manageHref: string | null; justCheckedIn: boolean }) {
  const { t } = useT();
  const revalidator = useRevalidator();
  const onFrame = useCallback(
    (frame: ServerFrame) => {
      if ((frame.type === "attendance.opened" || frame.type === "attendance.closed") && frame.lectureId === lecture._id) revalidator.revalidate();
    },
    [lecture._id, revalidator],
  );
  // A socket that dropped (a phone asleep in class, a train) missed any opening or closing meanwhile: read again.
  const onOpen = useCallback(({ reconnected }: { reconnected: boolean }) => void (reconnected && revalidator.revalidate()), [revalidator]);
  useRoom({ party: "group-room", room: lecture.group._id, onFrame, onOpen });
  const base = `/course/${lecture.group.slug}`;
  const embed = videoEmbed(lecture.videoUrl);

  return (
    <main id="main" tabIndex={-1} className="page page-lecture">
      <div className="page-band page-band-compact">
        <div className="container">
          <CourseBreadcrumb course={{ title: lecture.group.title, href: base }} trail={[{ label: lecture.title, userText: true }]} />
          <h1 className="page-title user-text">{lecture.title}</h1>
          <p className="lecture-when-line">
            <CalendarIcon />
            <When iso={lecture.startsAt} />
          </p>
        </div>
      </div>

      <div className="container lecture-layout">
        {/* First in the page's order, where a phone shows it (the check-in is what a student opens it for in class). */}
        <aside className="lecture-aside">
          {manageHref ? (
            <div className="card lecture-card">
              <p>{t("lectures.staffNote")}</p>
              <Link to={manageHref} className="btn btn-outline btn-sm">
                <SettingsIcon />
                {t("lectures.runAttendance")}
              </Link>
            </div>
          ) : (
            <CheckInCard lecture={lecture} justCheckedIn={justCheckedIn} />
          )}
          {lecture.videoUrl && !embed ? (
            <div className="card lecture-card">
              <h2 className="lecture-card-title">{t("lectures.video")}</h2>
              <a href={lecture.videoUrl} target="_blank" rel="noopener noreferrer" className="btn btn-primary btn-sm">
                {t("lectures.watch")}
                <ExternalIcon />
                <span className="visually-hidden"> {t("common.newTab")}</span>
              </a>
            </div>
          ) : null}
          <div className="card lecture-card">
            <h2 className="lecture-card-title">{t("lectures.resources")}</h2>
            {lecture.resources.length ? (
              <ul className="resource-list" role="list">
                {lecture.resources.map((r, i) => (
                  <li key={i}>
                    <a href={r.url} target="_blank" rel="noopener noreferrer" dir="auto">
                      {r.title}
                      <span className="visually-hidden"> {t("common.newTab")}</span>
                    </a>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">{t("lectures.noResources")}</p>
            )}
          </div>
          <Link to={base} className="btn btn-ghost btn-sm lecture-back">
            <ArrowIcon className="icon-back" />
            {t("lectures.backToCourse")}
          </Link>
        </aside>
        <div className="lecture-content">
          {embed && lecture.videoUrl ? <VideoPlayer embed={embed} link={lecture.videoUrl} title={lecture.title} /> : null}
          {lecture.bodyHtml.trim() ? (
            <article className="prose lecture-body" dir="auto" dangerouslySetInnerHTML={{ __html: lecture.bodyHtml }} />
          ) : (
            <p className="empty-inline">{t("lectures.noContent")}</p>
          )}
          {work.tasks.length + work.quizzes.length > 0 ? (
            <section className="lecture-work" aria-labelledby="lecture-work-title">
              <h2 id="lecture-work-title" className="block-title">
                {t("lectures.work")}
              </h2>
              <ul className="lecture-work-list" role="list">
                {work.tasks.map((task) => (
                  <li key={task.slug} className="lecture-work-item">
                    <span className="badge">{t("lectures.task")}</span>
                    <Link to={`/course/${lecture.group.slug}/lecture/${lecture.slug}/Add-Task/${task.slug}`} className="lecture-work-title" dir="auto">
                      {task.title}
                    </Link>
                    <span className="muted">
                      {task.dueAt ? (
                        <>
                          {t("lectures.due")} <When iso={task.dueAt} />
                        </>
                      ) : (
                        t("lectures.noDue")
                      )}
                    </span>
                    {task.state ? (
                      <span className="badge task-state" data-state={task.state}>
                        {t(STATE_KEYS[task.state])}
                      </span>
                    ) : null}
                  </li>
                ))}
                {work.quizzes.map((quiz) => (
                  <li key={quiz.slug} className="lecture-work-item" data-window={quiz.window}>
                    <span className="badge badge-amber">{t("lectures.quiz")}</span>
                    <Link to={`/course/${lecture.group.slug}/lecture/${lecture.slug}/quiz/${quiz.slug}`} className="lecture-work-title" dir="auto">
                      {quiz.title}
                    </Link>
                    <span className="muted">
                      <QuizWhen quiz={quiz} ended={lecture.group.ended} />
                    </span>
                    <QuizStanding quiz={quiz} ended={lecture.group.ended} />
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>
      </div>
    </main>
  );
}

/**
 * A YouTube or Vimeo recording, played in the page: a poster (no request to the video's host) until the reader
 * presses play, then the privacy-enhanced player in a titled iframe. The plain link stays underneath.
 */
function VideoPlayer({ embed, link, title }: { embed: VideoEmbed; link: string; title: string }) {
  const { t } = useT();
  const [playing, setPlaying] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    if (playing) frame.current?.focus();
  }, [playing]);
  return (
    <section className="lecture-video" aria-labelledby="lecture-video-title">
      <h2 id="lecture-video-title" className="block-title">
        {t("lectures.video")}
      </h2>
      <div className="video-frame" data-provider={embed.provider}>
        {playing ? (
          <iframe
            ref={frame}
            src={`${embed.src}&autoplay=1`}
            title={t("lectures.videoFrame", { title })}
            loading="lazy"
            allow="autoplay; encrypted-media; fullscreen; picture-in-picture"
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
          />
        ) : (
          <button type="button" className="video-poster" data-embed-src={embed.src} onClick={() => setPlaying(true)} aria-describedby="lecture-video-note">
            <span className="video-play" aria-hidden="true">
              <svg viewBox="0 0 24 24" focusable="false">
                <path d="M8 5.5v13l11-6.5z" fill="currentColor" />
              </svg>
            </span>
            <span className="video-poster-text">{t("lectures.videoPlay")}</span>
          </button>
        )}
      </div>
      <p className="video-foot">
        <span id="lecture-video-note" className="muted">
          {t("lectures.videoNote", { provider: embed.provider })}
        </span>
        <a href={link} target="_blank" rel="noopener noreferrer" className="video-link">
          {t("lectures.watch")}
          <ExternalIcon />
          <span className="visually-hidden"> {t("common.newTab")}</span>
        </a>
      </p>
    </section>
  );
}

function CheckInCard({ lecture, justCheckedIn }: { lecture: PageLecture; justCheckedIn: boolean }) {
  const { t } = useT();
  const fetcher = useFetcher<Result>();
  const [code, setCode] = useState("");
  const [fingerprint, setFingerprint] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const result = fetcher.data;
  const record = result?.ok ? result.result : lecture.attendance;
  useEffect(() => setFingerprint(deviceFingerprint()), []);
  // A code of the wrong length is said at the field, not by a button that silently does nothing.
  const [short, setShort] = useState(false);
  const done = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result && !result.ok) focusRefused(input.current);
    // Checked in: the form is gone, and the card that says so takes the keyboard's place.
    if (result?.ok) done.current?.focus();
  }, [result]);

  if (record && record.status !== "absent") {
    return (
      <div ref={done} tabIndex={-1} className="card lecture-card checkin-done" role="status">
        <span className="checkin-icon" aria-hidden="true">
          <CheckIcon />
        </span>
        <p className="checkin-status">{t(STATUS[record.status] ?? "attendance.youArePresent")}</p>
        <p className="muted">
          <When iso={record.markedAt} />
        </p>
        {justCheckedIn ? <p className="muted">{t("attendance.scannedNote")}</p> : null}
      </div>
    );
  }
  // Marked absent by staff: a code would change nothing, so no form, and the student knows whom to ask.
  if (lecture.attendance?.status === "absent" && lecture.attendance.byStaff) {
    return (
      <div className="card lecture-card" role="status">
        <h2 className="lecture-card-title">{t("attendance.checkInTitle")}</h2>
        <p className="muted">{t("attendance.staffMarkedAbsent")}</p>
      </div>
    );
  }
  if (!lecture.attendanceOpen) {
    return (
      <div className="card lecture-card">
        <h2 className="lecture-card-title">{t("attendance.checkInTitle")}</h2>
        <p className="muted">
          {t(record?.status === "absent" ? "attendance.youAreAbsent" : lecture.missed ? "attendance.youMissed" : lecture.joinedAfter ? "attendance.youJoinedAfter" : "attendance.notOpenYet")}
        </p>
      </div>
    );
  }
  const error = short ? t("attendance.error.format") : result && !result.ok ? localizedError(t, result as FailureLike) : null;
  return (
    <fetcher.Form
      method="post"
      noValidate
      className="card lecture-card checkin-card"
      aria-labelledby="checkin-title"
      onSubmit={(e) => {
        if (code.replace(/\D/g, "").length === 6) return setShort(false);
        e.preventDefault();
        setShort(true);
        focusRefused(input.current);
      }}
    >
      <h2 id="checkin-title" className="lecture-card-title">
        {t("attendance.checkInTitle")}
      </h2>
      <p className="muted">{t("attendance.checkInLead")}</p>
      <input type="hidden" name="intent" value="attend" />
      <input type="hidden" name="fingerprint" value={fingerprint} />
      <label htmlFor="checkin-code" className="visually-hidden">
        {t("attendance.codeField")}
      </label>
      <input
        ref={input}
        id="checkin-code"
        name="code"
        className="checkin-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9 ]*"
        maxLength={7}
        dir="ltr"
        placeholder="000 000"
        value={code}
        onChange={(e) => {
          setCode(toLatinDigits(e.target.value).replace(/[^\d ]/g, ""));
          setShort(false);
        }}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? "checkin-error" : undefined}
        required
      />
      {error ? (
        <RefusalText id="checkin-error" className="field-error" attempt={result}>
          {error}
        </RefusalText>
      ) : null}
      <button type="submit" className="btn btn-primary btn-block" disabled={fetcher.state !== "idle"}>
        {fetcher.state !== "idle" ? t("attendance.checkingIn") : t("attendance.checkIn")}
      </button>
    </fetcher.Form>
  );
}

function localizedError(t: (key: MessageKey) => string, failure: FailureLike): string {
  if (failure.code === "attendance_closed") return t("attendance.error.closed");
  if (failure.code === "marked_absent") return t("attendance.error.markedAbsent");
  if (failure.code === "rate_limited") return t("attendance.error.tooMany");
  if (failure.code === "invalid_code") return failure.message.includes("expired") ? t("attendance.error.expired") : t("attendance.error.wrong");
  if (failure.code === "validation_failed") return t("attendance.error.format");
  // Anything else (removed from the group meanwhile, the lecture gone) in the reader's words, never English in Arabic.
  return failureText(t, failure);
}
