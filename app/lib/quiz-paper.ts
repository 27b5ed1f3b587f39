/**
 * A quiz's paper (issue 21): what one attempt is given when its quiz draws from the group's question bank or shuffles.
 * Made once, when the attempt opens, from a seed of the quiz, the student and the attempt's number, so the same
 * student sees the same questions in the same order on every reload, and another student most likely sees others.
 * The paper keeps a copy of each drawn question, so a later edit of the bank never changes an attempt already given.
 * Pure and client-safe; the server decides and stores papers (worker/services/quizzes.ts).
 */

/** Draw `count` questions tagged `tag` from the group's bank; each is worth `points` in this quiz. */
export interface QuizDraw {
  tag: string;
  count: number;
  points: number;
}

/** A question as a paper carries it (the shape of a quiz's question, without its quiz). */
export interface PaperQuestion {
  id: string;
  text: string;
  type: "single" | "multiple" | "true-false" | "short-text" | "code";
  options: string[];
  correct: (number | string)[];
  points: number;
}

export interface Paper {
  /** Question ids in the order the student sees them (the quiz's own and the drawn ones). */
  order: string[];
  /** Per shuffled choice question: the original option index shown at each position. */
  options: Record<string, number[]>;
  /** Copies of the bank questions drawn, with the points the draw gives them. */
  drawn: PaperQuestion[];
}

/** A seeded generator (FNV-1a of the seed, then mulberry32): the same seed gives the same numbers everywhere. */
export function seeded(seed: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(list: T[], random: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const SHUFFLED_TYPES = new Set(["single", "multiple"]);

/**
 * The paper of one attempt: `draws` take their questions from `bank` (each question at most once, those of a tag in
 * a seeded random order), then the whole list and each choice question's options are shuffled when asked.
 * True/false keeps True first; short text and code have no options to shuffle.
 */
export function makePaper(
  seed: string,
  own: Pick<PaperQuestion, "id" | "type" | "options">[],
  bank: (PaperQuestion & { tags: string[] })[],
  rules: { draws: QuizDraw[]; shuffleQuestions: boolean; shuffleOptions: boolean },
): Paper {
  const random = seeded(seed);
  const taken = new Set<string>();
  const drawn: PaperQuestion[] = [];
  for (const draw of rules.draws) {
    const candidates = bank.filter((q) => q.tags.includes(draw.tag) && !taken.has(q.id)).sort((a, b) => (a.id < b.id ? -1 : 1));
    for (const q of shuffle(candidates, random).slice(0, draw.count)) {
      taken.add(q.id);
      drawn.push({ id: q.id, text: q.text, type: q.type, options: q.options, correct: q.correct, points: draw.points });
    }
  }
  const all = [...own, ...drawn];
  const order = rules.shuffleQuestions ? shuffle(all.map((q) => q.id), random) : all.map((q) => q.id);
  const options: Record<string, number[]> = {};
  if (rules.shuffleOptions) {
    for (const q of all) if (SHUFFLED_TYPES.has(q.type) && q.options.length > 1) options[q.id] = shuffle(q.options.map((_, i) => i), random);
  }
  return { order, options, drawn };
}

/**
 * The questions of a paper as the student was given them, in their order: the quiz's own (still in `own`) and the
 * drawn copies, each shuffled question with its options reordered and its correct indexes following them. Answers
 * to a paper are kept in the order shown, so grading and the review read them against these questions.
 */
export function paperQuestions<Q extends Pick<PaperQuestion, "id" | "type" | "options" | "correct" | "points">>(own: Q[], paper: Paper, asQuestion: (drawn: PaperQuestion) => Q): Q[] {
  const byId = new Map<string, Q>(own.map((q) => [q.id, q]));
  for (const d of paper.drawn) byId.set(d.id, asQuestion(d));
  const out: Q[] = [];
  for (const id of paper.order) {
    const q = byId.get(id);
    if (!q) continue;
    const perm = paper.options[id];
    if (!perm) {
      out.push(q);
      continue;
    }
    out.push({
      ...q,
      options: perm.map((i) => q.options[i]!),
      correct: perm.flatMap((original, shown) => (q.correct.includes(original) ? [shown] : [])),
    });
  }
  return out;
}

/** The original option index of the option shown at `shown` (for statistics across papers). */
export const originalOption = (paper: Paper | null | undefined, questionId: string, shown: number): number => paper?.options[questionId]?.[shown] ?? shown;
