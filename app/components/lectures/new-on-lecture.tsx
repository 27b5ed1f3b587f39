import { useNavigate } from "@remix-run/react";
import { useState } from "react";
import { PlusIcon } from "~/components/icons";

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
