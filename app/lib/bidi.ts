/**
 * Wraps text in Unicode first-strong isolates (FSI … PDI), the plain-text twin of <bdi>: an e-mail address
 * or "+20" placed in an Arabic sentence keeps its own order and does not drag the punctuation around it.
 * For places where an element cannot go (translated sentences with parameters, <option> labels).
 */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}
