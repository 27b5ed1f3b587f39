import { Link } from "@remix-run/react";
import { CalendarIcon } from "~/components/icons";
import type { MessageKey } from "~/i18n/en";
import { useT } from "~/lib/i18n";
import { When } from "./when";

export interface CourseLecture {
  _id: string;
  slug: string;
  title: string;
  startsAt: string | null;
  myAttendance: string | null;
  /** Held while the viewer was a member, and no record of theirs: Progress counts it as not attended. */
  missed: boolean;
}

const ATTENDANCE_KEYS: Record<string, MessageKey> = {
  present: "attendance.status.present",
  late: "attendance.status.late",
  excused: "attendance.status.excused",
  absent: "attendance.status.absent",
};

/** The group's lectures on its home page, each with the viewer's attendance and a link to its page. */
export function CourseLectures({ groupSlug, lectures, showAttendance }: { groupSlug: string; lectures: CourseLecture[]; showAttendance: boolean }) {
  const { t } = useT();
  return (
    <section className="course-home-lectures" aria-labelledby="home-lectures-title">
      <div className="section-head">
        <h2 id="home-lectures-title" className="block-title">
          {t("lectures.title")}
        </h2>
        {lectures.length > 0 ? (
          <a href={`/course/${groupSlug}/calendar.ics`} className="btn btn-ghost btn-sm" download>
            <CalendarIcon />
            {t("lectures.calendar")}
          </a>
        ) : null}
      </div>
      {lectures.length === 0 ? (
        <p className="empty-inline">{t("lectures.none")}</p>
      ) : (
        <ol className="course-lecture-list" role="list">
          {lectures.map((l) => (
            <li key={l._id}>
              <Link to={`/course/${groupSlug}/lecture/${l.slug}`} className="course-lecture row-arrow" prefetch="intent">
                <span className="course-lecture-text">
                  <span className="course-lecture-title user-text">
                    {l.title}
                  </span>
                  <span className="course-lecture-when">
                    <When iso={l.startsAt} />
                  </span>
                </span>
                {showAttendance && l.myAttendance ? (
                  <span className="badge attendance-badge" data-status={l.myAttendance}>
                    {t(ATTENDANCE_KEYS[l.myAttendance] ?? "attendance.status.absent")}
                  </span>
                ) : showAttendance && l.missed ? (
                  <span className="badge attendance-badge" data-status="absent">
                    {t("attendance.noCheckIn")}
                  </span>
                ) : null}
              </Link>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
