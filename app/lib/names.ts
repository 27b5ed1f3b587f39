/**
 * The one order of people's names on every staff list (the roster, the grader, Progress, quiz results, extensions, the
 * instructors to assign): the root collation, so "Soak 2" comes before "Soak 10", Émile beside Emile rather than after
 * Zara, and case does not split a list. The same order in both languages, so a student is in the same place on every
 * tab; ties keep the order they came in (Array sort is stable; the queries order by id after the name).
 */
let collator: Intl.Collator | null = null;

export function compareNames(a: string, b: string): number {
  collator ??= new Intl.Collator("und", { numeric: true, sensitivity: "base" });
  return collator.compare(a, b);
}

/** `rows` sorted in place by the name `nameOf` reads, and returned. */
export function byName<T>(rows: T[], nameOf: (row: T) => string): T[] {
  return rows.sort((x, y) => compareNames(nameOf(x), nameOf(y)));
}
