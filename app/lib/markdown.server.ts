import { micromark } from "micromark";

/**
 * Course Markdown to HTML, on the server. micromark follows CommonMark and escapes raw HTML by default
 * (no `allowDangerousHtml`), so author text can never inject markup or scripts into the page.
 */
export function renderMarkdown(source: string): string {
  return micromark(source);
}
