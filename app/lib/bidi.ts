/**
 * Unicode directional isolates, the plain-text twin of <bdi>, for places where an element cannot go
 * (translated sentences with parameters, <option> labels): an e-mail address or "+20" inside an Arabic
 * sentence keeps its own order and does not drag the punctuation around it.
 */

/** First-strong isolate (FSI … PDI): the text takes the direction of its first letter (names, e-mails). */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}

/** Left-to-right isolate (LRI … PDI) for text without letters that must read left to right ("+20"). */
export function isolateLtr(text: string): string {
  // The left-to-right mark keeps "+20" in order where isolates are not honoured (Chromium's <option> text).
  return `\u2066\u200e${text}\u2069`;
}
