/**
 * GET /media/<key>: files from the IMAGES bucket (uploaded course images). Keys are random and never reused,
 * so a response may be cached forever (`immutable`). Only keys of the shape uploads create are looked up.
 */
import type { Bindings } from "../env";

const KEY = /^courses\/[A-Za-z0-9_-]{16,64}\.(png|jpg|webp)$/;

/** Images only: nothing in a media response may run or be framed, even if a browser sniffed it as a page. */
const MEDIA_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";

function json(status: number, message: string, code: string, headers: Record<string, string> = {}) {
  return Response.json({ message, code }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

const hasBody = (o: R2Object | R2ObjectBody): o is R2ObjectBody => "body" in o;

export async function serveMedia(request: Request, env: Bindings): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return json(405, "Media files can only be read.", "method_not_allowed", { Allow: "GET, HEAD" });
  }
  const key = new URL(request.url).pathname.slice("/media/".length);
  if (!KEY.test(key)) return json(404, "No such file.", "not_found");

  // HEAD reads only the metadata, so no body stream is opened and left unread.
  const object = request.method === "HEAD" ? await env.IMAGES.head(key) : await env.IMAGES.get(key, { onlyIf: request.headers });
  if (!object) return json(404, "No such file.", "not_found");

  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("ETag", object.httpEtag);
  headers.set("Cache-Control", "public, max-age=31536000, immutable");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Content-Security-Policy", MEDIA_CSP);
  if (request.method === "HEAD") {
    headers.set("Content-Length", String(object.size));
    return new Response(null, { status: 200, headers });
  }
  // `onlyIf` with a matching If-None-Match gives back the object without a body: the client's copy is current.
  if (!hasBody(object)) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(object.size));
  return new Response(object.body, { status: 200, headers });
}
