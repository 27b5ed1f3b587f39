/**
 * What a student should do next in a group, from the lists the course home already loads (no query of its own):
 * the next lecture, the quizzes open now that they can still take, and their tasks due within a week (or overdue
 * and not handed in, while late work is accepted), including those the instructor asked to hand in again.
 * Computed on the server, where "now" is one clock.
 */
export const TASK_SOON_MS = 7 * 86_400_000;
/** At most this many items: the course home lists everything else below. */
export const UP_NEXT_LIMIT = 6;

export type UpNextItem =
  | { kind: "lecture"; href: string; title: string; at: string }
  | { kind: "quiz"; href: string; title: string; at: string | null; attemptsLeft: number; inProgress: boolean }
  | { kind: "task"; href: string; title: string; at: string; overdue: boolean };

interface Lists {
  groupSlug: string;
  lectures: { slug: string; title: string; startsAt: string | null }[];
  tasks: { slug: string; title: string; lectureSlug: string; dueAt: string | null; allowLate?: boolean; submission: { state: string } | null }[];
  quizzes: { slug: string; title: string; lectureSlug: string; closesAt: string | null; maxAttempts: number; window: string; mine: { attempts: number; inProgress: boolean } | null }[];
}

export function upNext({ groupSlug, lectures, tasks, quizzes }: Lists, now: number): UpNextItem[] {
  const base = `/course/${groupSlug}/lecture`;
  const items: UpNextItem[] = [];
  const next = lectures
    .filter((l) => l.startsAt && Date.parse(l.startsAt) > now)
    .sort((a, b) => Date.parse(a.startsAt!) - Date.parse(b.startsAt!))[0];
  if (next) items.push({ kind: "lecture", href: `${base}/${next.slug}`, title: next.title, at: next.startsAt! });
  for (const q of quizzes) {
    if (q.window !== "open" || !q.mine) continue;
    const left = Math.max(0, q.maxAttempts - q.mine.attempts);
    if (left === 0 && !q.mine.inProgress) continue;
    items.push({ kind: "quiz", href: `${base}/${q.lectureSlug}/quiz/${q.slug}`, title: q.title, at: q.closesAt, attemptsLeft: left, inProgress: q.mine.inProgress });
  }
  const tasksDue = tasks
    .filter((t) => t.dueAt && (!t.submission || t.submission.state === "not-submitted" || t.submission.state === "resubmission-requested"))
    .map((t) => ({ t, due: Date.parse(t.dueAt!) }))
    .filter(({ t, due }) => (due > now ? due - now <= TASK_SOON_MS : t.allowLate !== false))
    .sort((a, b) => a.due - b.due);
  for (const { t, due } of tasksDue) items.push({ kind: "task", href: `${base}/${t.lectureSlug}/Add-Task/${t.slug}`, title: t.title, at: t.dueAt!, overdue: due <= now });
  return items.slice(0, UP_NEXT_LIMIT);
}
