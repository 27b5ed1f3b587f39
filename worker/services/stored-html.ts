/**
 * Markdown rendered once, not at every read (issue 23).
 *
 * Lecture and task bodies, quiz descriptions, graders' feedback and the course outline's parts keep their rendered,
 * sanitised HTML beside the Markdown (`*_html` columns, migrations/0021 and 0031). The services that save them store both (`withHtml`). A
 * change made by any other path (a course copy, a direct UPDATE, an older row) leaves the HTML empty: a trigger clears
 * it whenever the Markdown changes without it. A read then renders once and files the HTML for the next reader
 * (`htmlOf`), on the condition that the Markdown is still the one it rendered, so a concurrent edit always wins.
 */
import { renderMarkdown } from "../../app/lib/markdown.server";
import type { ServiceContext } from "../context";

const COLUMNS = {
  lectures: { source: "body", html: "body_html" },
  tasks: { source: "body", html: "body_html" },
  quizzes: { source: "description", html: "description_html" },
  submissions: { source: "feedback", html: "feedback_html" },
  course_contents: { source: "body", html: "body_html" },
} as const;

export type HtmlTable = keyof typeof COLUMNS;

interface Pending {
  id: string;
  source: string;
  html: string;
}

/** HTML rendered during one request, waiting to be stored: one UPDATE per table, however many rows (D1: 100 values). */
const pending = new WeakMap<ServiceContext, Map<HtmlTable, Pending[]>>();
/** Each row binds four values (its id and HTML in the CASE, its id and Markdown in the condition): 25 rows make 100. */
const ROWS_PER_UPDATE = 25;

function store(ctx: ServiceContext, table: HtmlTable, rows: Pending[]): Promise<unknown> {
  const { source, html } = COLUMNS[table];
  const statements = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_UPDATE) {
    const part = rows.slice(i, i + ROWS_PER_UPDATE);
    const cases = part.map(() => `when ? then ?`).join(" ");
    const keys = part.map(() => `(?, ?)`).join(", ");
    // Only where the Markdown is still the one rendered and nothing was stored meanwhile: a concurrent edit wins.
    statements.push(
      ctx.env.DB.prepare(`update "${table}" set "${html}" = case "id" ${cases} end where ("id", "${source}") in (values ${keys}) and "${html}" is null`).bind(
        ...part.flatMap((r) => [r.id, r.html]),
        ...part.flatMap((r) => [r.id, r.source]),
      ),
    );
  }
  return ctx.env.DB.batch(statements);
}

/** The HTML of a row's Markdown: the stored one, or rendered now and stored (after the answer) for the next read. */
export function htmlOf(ctx: ServiceContext, table: HtmlTable, row: { id: string; source: string; html: string | null }): string {
  if (row.html !== null) return row.html;
  const html = renderMarkdown(row.source);
  let tables = pending.get(ctx);
  if (!tables) {
    pending.set(ctx, (tables = new Map()));
    // Everything rendered by this request's current step (a list's rows) is stored together.
    ctx.waitUntil(
      Promise.resolve().then(() => {
        pending.delete(ctx);
        return Promise.all([...tables!].map(([t, rows]) => store(ctx, t, rows)));
      }),
    );
  }
  const rows = tables.get(table) ?? [];
  rows.push({ id: row.id, source: row.source, html });
  tables.set(table, rows);
  return html;
}

/** The HTML to store beside Markdown that is being saved (null for no Markdown). */
export function withHtml(markdown: string | null | undefined): string | null {
  return markdown === null || markdown === undefined ? null : renderMarkdown(markdown);
}
