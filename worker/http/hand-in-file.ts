/**
 * The response that carries a hand-in's file (issue 21), for the API and the pages alike. A file is never served as
 * HTML from the site's origin: its type is what its bytes were judged to be when it was handed in (PDF, PNG/JPEG/WebP,
 * ZIP or text/plain), `nosniff` keeps the browser to it, a sandbox policy stops anything in it from running, and it
 * is an attachment unless an inline preview of an image, PDF or text is asked for. Only the site's own pages may frame
 * it (the grader's PDF preview).
 */
import { previewable } from "../../app/lib/hand-in-files";

export function fileResponse(file: { body: ReadableStream; size: number; name: string; type: string }, wantInline: boolean): Response {
  const inline = wantInline && previewable(file.type);
  // A PDF shown inline goes without the sandbox, which would also stop the browser's PDF viewer; it is never HTML.
  const sandbox = inline && file.type === "application/pdf" ? "" : "sandbox; ";
  return new Response(file.body, {
    headers: {
      "Content-Type": file.type,
      "Content-Length": String(file.size),
      "Content-Disposition": `${inline ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": `${sandbox}default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'`,
      "X-Frame-Options": "SAMEORIGIN",
      "Cache-Control": "private, no-store",
      "Cross-Origin-Resource-Policy": "same-origin",
    },
  });
}
