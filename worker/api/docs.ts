import { escapeHtml } from "../services/mail";

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  description?: string;
  $ref?: string;
  minLength?: number;
  maxLength?: number;
  format?: string;
};
interface Operation {
  summary?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string }>;
}
interface Doc {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

function typeOf(s: Schema | undefined, doc: Doc): string {
  if (!s) return "";
  if (s.$ref) return s.$ref.split("/").pop() ?? "";
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (s.type === "array") return `${typeOf(s.items, doc)}[]`;
  const t = Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "object");
  return s.format ? `${t} (${s.format})` : t;
}

function fieldsTable(schema: Schema | undefined, doc: Doc): string {
  const resolved = schema?.$ref ? doc.components?.schemas?.[schema.$ref.split("/").pop() ?? ""] : schema;
  if (!resolved?.properties) return "";
  const rows = Object.entries(resolved.properties)
    .map(([name, p]) => {
      const bounds = [p.minLength !== undefined ? `min ${p.minLength}` : "", p.maxLength !== undefined ? `max ${p.maxLength}` : ""].filter(Boolean).join(", ");
      return `<tr><td><code>${escapeHtml(name)}</code>${resolved.required?.includes(name) ? " <b>required</b>" : ""}</td><td>${escapeHtml(typeOf(p, doc))}</td><td>${escapeHtml(bounds)}</td></tr>`;
    })
    .join("");
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Bounds</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** A readable, dependency-free reference page rendered from the OpenAPI document. */
export function renderApiReference(doc: Doc): string {
  const sections = Object.entries(doc.paths ?? {})
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => {
        const params = (op.parameters ?? [])
          .map((p) => `<li><code>${escapeHtml(p.name)}</code> in ${escapeHtml(p.in)}${p.required ? " (required)" : ""}: ${escapeHtml(typeOf(p.schema, doc))}</li>`)
          .join("");
        const body = op.requestBody?.content?.["application/json"]?.schema;
        const responses = Object.entries(op.responses ?? {})
          .map(([code, r]) => `<li><code>${escapeHtml(code)}</code> ${escapeHtml(r.description ?? "")}</li>`)
          .join("");
        return `<section><h2><span class="m m-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h2>
<p>${escapeHtml(op.summary ?? "")}</p>
${params ? `<h3>Parameters</h3><ul>${params}</ul>` : ""}
${body ? `<h3>Body (JSON)</h3>${fieldsTable(body, doc)}` : ""}
<h3>Responses</h3><ul>${responses}</ul></section>`;
      }),
    )
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Cohort API reference</title><style>
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1.5rem;color:#1c1917}
h1{margin-bottom:.25rem}section{border:1px solid #e7e5e4;border-radius:.75rem;padding:1rem 1.25rem;margin:1rem 0}
h2{font-size:1.1rem;margin:0}h3{font-size:.95rem;margin:.75rem 0 .25rem}code{font-family:ui-monospace,monospace}
.m{display:inline-block;min-width:4.5rem;text-align:center;border-radius:.4rem;padding:.1rem .4rem;color:#fff;font-size:.85rem}
.m-get{background:#0369a1}.m-post{background:#15803d}.m-put{background:#a16207}.m-delete{background:#b91c1c}
table{border-collapse:collapse}td,th{border-bottom:1px solid #e7e5e4;padding:.25rem .75rem;text-align:start}
</style></head><body><h1>Cohort API reference</h1>
<p>JSON in, JSON out. Errors are <code>{ "message", "code", "fields"? }</code> with 400, 401, 403, 404, 409, 413 or 429.
Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>.</p>
${sections}</body></html>`;
}
