import { Link, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { BookIcon, PlusIcon } from "~/components/icons";
import { useT } from "~/lib/i18n";
import { EmptyState } from "~/components/empty-state";

/**
 * "New task/quiz on [lecture]": a lecture picker and a button that opens `${base}/lectures/{lecture}/{page}`.
 * Renders nothing when the group has no lecture yet (the list's empty state says to add one).
 */
export function NewOnLecture({ lectures, base, page, label, pickerLabel, id }: { lectures: { slug: string; title: string }[]; base: string; page: "newTask" | "newQuiz"; label: string; pickerLabel: string; id: string }) {
  const navigate = useNavigate();
  const [lecture, setLecture] = useState(lectures[0]?.slug ?? "");
  if (lectures.length === 0) return null;
  return (
    <form
      className="section-actions"
      onSubmit={(e) => {
        e.preventDefault();
        navigate(`${base}/lectures/${lecture}/${page}`);
      }}
    >
      {/* Shown: beside a table, an unlabelled list would read as a filter of the table. */}
      <label htmlFor={id} className="section-actions-label">
        {pickerLabel}
      </label>
      <select id={id} value={lecture} onChange={(e) => setLecture(e.target.value)}>
        {lectures.map((l) => (
          <option key={l.slug} value={l.slug} dir="auto">
            {l.title}
          </option>
        ))}
      </select>
      <button type="submit" className="btn btn-primary btn-sm">
        <PlusIcon />
        {label}
      </button>
    </form>
  );
}

/**
 * The staff's empty list of tasks or quizzes: what is missing and, while the group has no lecture (a task or quiz
 * hangs on one), the way to add one.
 */
export function NothingOnLecturesYet({ title, body, noLectures, hasLectures, base }: { title: string; body: string; noLectures: string; hasLectures: boolean; base: string }) {
  const { t } = useT();
  return (
    <EmptyState icon={<BookIcon />} title={title} body={hasLectures ? body : noLectures}>
      {hasLectures ? null : (
        <Link to={`${base}/lectures`} className="btn btn-outline">
          {t("lectures.new")}
        </Link>
      )}
    </EmptyState>
  );
}
