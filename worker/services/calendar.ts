/**
 * A group's calendar as an iCalendar file (RFC 5545) for the reader's own calendar app: /course/{slug}/calendar.ics.
 * It holds the dated lectures, the tasks' due times and the quizzes' windows the reader may see (students: what is
 * published on published lectures; the group's staff: everything, drafts marked). Four statements whatever the
 * size of the group: the group with the reader's membership, then lectures, tasks and quizzes.
 */
import { and, asc, eq, isNotNull, or, sql } from "drizzle-orm";
import { extensions, groups, lectures, memberships, quizzes, tasks } from "../../db/schema";
import type { Lang } from "../../app/i18n/config";
import type { MessageKey } from "../../app/i18n/en";
import { dictionary } from "../../app/i18n/index.server";
import { format, type Params } from "../../app/i18n/translate";
import { lecturePath, quizPath, segment } from "../../app/lib/paths";
import { can, type Actor } from "../../app/lib/permissions";
import type { ServiceContext } from "../context";
import { forbidden, notFound } from "../http/errors";
import { studentSeesTask } from "./released";
import { ownTimeSql } from "./own-time";
import { extensionOf } from "./extension-join";

/** A lecture has no end time in the model; the file gives it the usual session length. */
export const LECTURE_MINUTES = 90;
/** The last instant a DATE-TIME can write (four-digit years): a lecture at the very end of 9999 ends there. */
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59);
const MAX_OCTETS = 75;
const CRLF = "\r\n";

/* ------------------------------------------------------------------------------------------------
 * Writing iCalendar text
 * ---------------------------------------------------------------------------------------------- */

/**
 * A TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma escaped, every line break as `\n`, and other
 * control characters (not allowed in TEXT) dropped.
 */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n")
    .replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, "");
}

const octetsOf = (text: string) => {
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
};

const graphemes = new Intl.Segmenter("und", { granularity: "grapheme" });

/**
 * One content line folded at 75 octets of UTF-8 (RFC 5545 §3.1): a break never falls inside a character's UTF-8
 * sequence, and each continuation starts with one space (which counts towards its 75). Breaks fall between
 * graphemes, so a letter keeps its marks (an Arabic shadda stays on its letter in a reader that does not unfold);
 * a grapheme too long for a line of its own is cut between code points. Lines end in CRLF.
 */
export function foldLine(line: string): string {
  let out = "";
  let used = 0;
  const put = (piece: string, size: number) => {
    if (used + size > MAX_OCTETS) {
      out += `${CRLF} `;
      used = 1;
    }
    out += piece;
    used += size;
  };
  for (const { segment: cluster } of graphemes.segment(line)) {
    const size = octetsOf(cluster);
    if (size <= MAX_OCTETS - 1) put(cluster, size);
    else for (const ch of cluster) put(ch, octetsOf(ch));
  }
  return out + CRLF;
}

/** A DATE-TIME in UTC (form #2, `20270101T090000Z`). */
export function utcStamp(at: Date | number): string {
  return new Date(at).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

interface CalendarEvent {
  uid: string;
  start: Date;
  /** Null for a moment (a due time): the event then ends when it starts (RFC 5545 §3.6.1). */
  end: Date | null;
  summary: string;
  description: string;
  url: string;
}

function eventLines(e: CalendarEvent, stamp: string): string[] {
  return [
    "BEGIN:VEVENT",
    `UID:${e.uid}`,
    `DTSTAMP:${stamp}`,
    `DTSTART:${utcStamp(e.start)}`,
    ...(e.end ? [`DTEND:${utcStamp(e.end)}`] : ["TRANSP:TRANSPARENT"]),
    `SUMMARY:${escapeText(e.summary)}`,
    `DESCRIPTION:${escapeText(e.description)}`,
    `URL:${e.url}`,
    "END:VEVENT",
  ];
}

/* ------------------------------------------------------------------------------------------------
 * The group's calendar
 * ---------------------------------------------------------------------------------------------- */

export interface CalendarFile {
  /** The file's name for Content-Disposition (the group's slug, which may be Arabic). */
  filename: string;
  body: string;
}

export interface CalendarOptions {
  lang: Lang;
  /** DTSTAMP of every event: when the file was made. */
  now?: number;
}

/**
 * The calendar of a group (by id or slug) for `viewer`: 404 for an unknown group (or a draft one, to anyone but its
 * staff), 403 for a reader who is neither a member nor staff.
 */
export async function groupCalendar(ctx: ServiceContext, viewer: Actor, groupKey: string, opts: CalendarOptions): Promise<CalendarFile> {
  const [group] = await ctx.db
    .select({ id: groups.id, slug: groups.slug, title: groups.title, status: groups.status, instructorId: groups.instructorId, membershipStatus: memberships.status })
    .from(groups)
    .leftJoin(memberships, and(eq(memberships.groupId, groups.id), eq(memberships.userId, viewer.userId)))
    .where(or(eq(groups.id, groupKey), eq(groups.slug, groupKey)))
    .limit(1);
  if (!group) throw notFound("No such group.");
  const facts = { instructorId: group.instructorId, membershipStatus: group.membershipStatus };
  const staff = can(viewer, "group.manage", { group: facts });
  if (group.status === "draft" && !staff) throw notFound("No such group.");
  if (!can(viewer, "group.viewInside", { group: facts })) throw forbidden("Only the group's members and staff can see its calendar.");

  // Separate statements, not one D1 batch: a batch keys rows by column name (docs/decisions/0013), and the task and
  // quiz rows carry their lecture's slug beside their own. Three statements whatever the number of rows.
  const [lectureRows, taskRows, quizRows] = await Promise.all([
    ctx.db
      .select({ id: lectures.id, slug: lectures.slug, title: lectures.title, startsAt: lectures.startsAt, published: lectures.published })
      .from(lectures)
      .where(and(eq(lectures.groupId, group.id), isNotNull(lectures.startsAt), staff ? undefined : eq(lectures.published, true)))
      .orderBy(asc(lectures.startsAt), asc(lectures.id)),
    ctx.db
      // The reader's own due time and close (an extension's, issue 21).
      .select({ id: tasks.id, slug: tasks.slug, title: tasks.title, dueAt: ownTimeSql(tasks.dueAt, extensions.dueAt).mapWith(tasks.dueAt), lectureSlug: lectures.slug, lecturePublished: lectures.published, publishAt: tasks.publishAt })
      .from(tasks)
      .innerJoin(lectures, eq(lectures.id, tasks.lectureId))
      .leftJoin(extensions, extensionOf("task", tasks.id, viewer.userId))
      .where(and(eq(lectures.groupId, group.id), isNotNull(tasks.dueAt), staff ? undefined : studentSeesTask))
      .orderBy(asc(tasks.dueAt), asc(tasks.id)),
    ctx.db
      .select({
        id: quizzes.id,
        slug: quizzes.slug,
        title: quizzes.title,
        opensAt: quizzes.opensAt,
        closesAt: ownTimeSql(quizzes.closesAt, extensions.closesAt).mapWith(quizzes.closesAt),
        published: quizzes.published,
        lectureSlug: lectures.slug,
        lecturePublished: lectures.published,
      })
      .from(quizzes)
      .innerJoin(lectures, eq(lectures.id, quizzes.lectureId))
      .leftJoin(extensions, extensionOf("quiz", quizzes.id, viewer.userId))
      .where(
        and(
          eq(quizzes.groupId, group.id),
          or(isNotNull(quizzes.opensAt), isNotNull(quizzes.closesAt)),
          staff ? undefined : and(eq(quizzes.published, true), eq(lectures.published, true)),
        ),
      )
      .orderBy(asc(quizzes.opensAt), asc(quizzes.id)),
  ]);

  const messages = dictionary(opts.lang);
  const t = (key: MessageKey, params?: Params) => format(messages, key, params);
  // Staff also see what students do not: such entries are marked, and lose the mark (same UID) once published.
  const titled = (title: string, visible: boolean) => (visible ? title : t("calendar.draft", { title }));
  const origin = ctx.settings.publicOrigin;
  const about = (path: string) => `${group.title}\n${origin}${path}`;

  const events: CalendarEvent[] = [];
  for (const l of lectureRows) {
    const path = lecturePath(group.slug, l.slug);
    // `{id}@cohort` is the UID the first version of this file gave lectures: kept, so re-importing updates them.
    events.push({ uid: `${l.id}@cohort`, start: l.startsAt!, end: new Date(Math.min(l.startsAt!.getTime() + LECTURE_MINUTES * 60_000, LAST_INSTANT)), summary: titled(l.title, l.published), description: about(path), url: `${origin}${path}` });
  }
  for (const k of taskRows) {
    const path = `${lecturePath(group.slug, k.lectureSlug)}/Add-Task/${segment(k.slug)}`;
    // A due time is a moment, shown as a VEVENT without an end (RFC 5545 §3.6.1: it ends when it starts), not a
    // VTODO with DUE: Google Calendar and Outlook ignore a VTODO in an imported file and Apple files it away in
    // Reminders, while every calendar app shows the event on the day, at the time the work is due. It is
    // transparent, so it does not mark the reader busy.
    events.push({ uid: `task-${k.id}@cohort`, start: k.dueAt!, end: null, summary: titled(t("calendar.due", { task: k.title }), k.lecturePublished && k.publishAt === null), description: about(path), url: `${origin}${path}` });
  }
  for (const q of quizRows) {
    const path = quizPath(group.slug, q.lectureSlug, q.slug);
    const visible = q.published && q.lecturePublished;
    const window =
      q.opensAt && q.closesAt && q.closesAt > q.opensAt
        ? { start: q.opensAt, end: q.closesAt, key: "calendar.quiz" as const }
        : q.opensAt
          ? { start: q.opensAt, end: null, key: "calendar.quizOpens" as const }
          : { start: q.closesAt!, end: null, key: "calendar.quizCloses" as const };
    events.push({ uid: `quiz-${q.id}@cohort`, start: window.start, end: window.end, summary: titled(t(window.key, { quiz: q.title }), visible), description: about(path), url: `${origin}${path}` });
  }
  events.sort((a, b) => a.start.getTime() - b.start.getTime() || a.uid.localeCompare(b.uid));

  const stamp = utcStamp(opts.now ?? Date.now());
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Cohort//Course calendar//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(group.title)}`,
    ...events.flatMap((e) => eventLines(e, stamp)),
    "END:VCALENDAR",
  ];
  return { filename: `${group.slug}.ics`, body: lines.map(foldLine).join("") };
}
