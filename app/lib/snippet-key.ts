/**
 * The comment bank's keystroke (issue 21): Alt plus a digit key inserts snippet 1 to 9. Matched by the physical key
 * (`KeyboardEvent.code`), so it works on an Arabic layout too. Answers the snippet's number, or null.
 */
export function snippetKey(e: Pick<KeyboardEvent, "altKey" | "ctrlKey" | "metaKey" | "code">): number | null {
  if (!e.altKey || e.ctrlKey || e.metaKey) return null;
  const m = /^(?:Digit|Numpad)([1-9])$/.exec(e.code);
  return m ? Number(m[1]) : null;
}
