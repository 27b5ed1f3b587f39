/**
 * Public pages from the edge cache (issue 23, ADR 0024).
 *
 * The landing page, the catalogue, a course's details and each part of its outline, and the public feedback list are
 * the same for every visitor who is not signed in and reads one language. Those answers are kept in Cloudflare's
 * cache (the Cache API: the data centre nearest the visitor) under a key made of the build (the deployed version of the
 * Worker: a deploy never answers with what another version rendered), the content version, the language and the path.
 * The content version is one row that SQLite triggers move on every change to what these pages show (groups, their
 * outlines, instructors' names, feedback: migrations/0020, 0032), so a change shows at once everywhere: the next
 * request reads the new version and looks under a key nobody has filled yet. Old entries are never read again and
 * expire by themselves. An isolate trusts the version it read for a second (`VERSION_TRUSTED_MS`), and forgets it
 * when a request it served may have changed it; a page rendered on a miss is stored under the version its own reads
 * saw.
 *
 * Never cached: anything but GET, any request with a query string, a session cookie or an Authorization header, any
 * answer but a 200 or one that sets a cookie. A cached page cannot carry a per-request CSP nonce: it is rendered with
 * a throwaway one, which marks the scripts the renderer wrote; the nonce is taken out and the policy lists the SHA-256
 * of each script it marked instead (contentSecurityPolicy). Exactly those scripts run, as with a nonce: a script that
 * got into the page any other way carries no mark and matches no hash.
 */
import { detectLang, type Lang } from "../../app/i18n/config";
import { hasSessionCookie } from "../auth/cookies";
import { contentSecurityPolicy, pageNonce } from "./security-headers";

/** Paths whose answer is the same for every visitor of one language. */
const PUBLIC_PAGES = [/^\/$/, /^\/courses$/, /^\/content\/[^/]+$/, /^\/content\/[^/]+\/course\/[^/]+$/];
/** Public API answers that do not depend on the language either. */
const PUBLIC_API = [/^\/api\/feedback$/];

/** How long the edge keeps an entry it is not asked for again (a new version makes a new key before that). */
const EDGE_TTL_SECONDS = 24 * 60 * 60;
/** What the browser is told: keep it, but ask every time (a 304 when the version has not moved). */
const BROWSER_CACHE_CONTROL = "public, max-age=0, must-revalidate";

export type CacheablePage = { kind: "page" | "api"; lang: Lang | null };

/**
 * The answers this isolate served last, in front of the Cache API: an isolate serves many visitors in a row, and
 * a hit here costs no call to the cache at all. Same keys (so the same freshness), bounded in entries and bytes,
 * least recently used out first.
 */
interface Kept {
  /** The body as bytes (encoded once, not at every answer). */
  body: Uint8Array<ArrayBuffer>;
  /** The stored answer's headers with the browser's caching rule: what a hit sends, as is. */
  headers: [string, string][];
}
const kept = new Map<string, Kept>();
const KEPT_MAX_ENTRIES = 64;
const KEPT_MAX_BYTES = 4_000_000;
let keptBytes = 0;

function keep(key: string, body: string, stored: Headers) {
  const headers = new Headers(stored);
  headers.set("Cache-Control", BROWSER_CACHE_CONTROL);
  const value: Kept = { body: new TextEncoder().encode(body), headers: [...headers] };
  const old = kept.get(key);
  if (old) keptBytes -= old.body.byteLength;
  kept.delete(key);
  kept.set(key, value);
  keptBytes += value.body.byteLength;
  for (const [k, v] of kept) {
    if (kept.size <= KEPT_MAX_ENTRIES && keptBytes <= KEPT_MAX_BYTES) break;
    kept.delete(k);
    keptBytes -= v.body.byteLength;
  }
}

/** A hit in this isolate, answered in one go (a 304 when the browser has it). */
function recall(key: string, etag: string, request: Request): Response | null {
  const found = kept.get(key);
  if (!found) return null;
  // Most recently used last.
  kept.delete(key);
  kept.set(key, found);
  if (request.headers.get("if-none-match") === etag) return notModified(etag, "hit");
  return new Response(found.body, { status: 200, headers: [...found.headers, ["X-Cohort-Cache", "hit"]] });
}

/**
 * Whether this request may be answered from (and fill) the cache; null when it must be rendered for its sender. A
 * session cookie is looked for as the session reads it (`hasSessionCookie`): a name spelled with spaces around it
 * is still a session, and must not be rendered into everybody's copy.
 */
export function cacheable(request: Request, url: URL): CacheablePage | null {
  if (request.method !== "GET" || url.search !== "" || !canonicalPath(url.pathname)) return null;
  if (request.headers.has("authorization") || hasSessionCookie(request)) return null;
  if (PUBLIC_PAGES.some((p) => p.test(url.pathname))) return { kind: "page", lang: detectLang(request) };
  if (PUBLIC_API.some((p) => p.test(url.pathname))) return { kind: "api", lang: null };
  return null;
}

/**
 * Whether a path is written the one way a browser writes it: each segment percent-encoded exactly as
 * `encodeURIComponent` encodes its decoded text (an Arabic slug's UTF-8 in upper-case hex, nothing else encoded). The
 * same page asked as `/content/%66rontend-react` or `/content/frontend%2dreact` is rendered for its sender like a
 * query string is, not stored as one more copy per spelling (a stranger could fill the isolate's 64 entries and the
 * data centre's cache with variants of one page).
 */
function canonicalPath(pathname: string): boolean {
  return pathname.split("/").every((segment) => {
    try {
      return encodeURIComponent(decodeURIComponent(segment)) === segment;
    } catch {
      return false;
    }
  });
}

/**
 * The request a shared answer is rendered from: none of its sender's cookies or credentials, only the language it is
 * keyed by (as a cookie, which `detectLang` reads first). Whatever slipped past `cacheable` (a credential in a form
 * nobody thought of), a render for the cache cannot see who asked.
 */
export function anonymousRequest(request: Request, page: CacheablePage): Request {
  const headers = new Headers(request.headers);
  headers.delete("cookie");
  headers.delete("authorization");
  if (page.lang) headers.set("cookie", `lang=${page.lang}`);
  return new Request(request.url, { method: "GET", headers });
}

/**
 * The version every cached answer depends on, moved by triggers on every change to public content: `key` as the
 * cache's keys write it; `epoch` and `n` to tell which of two readings of one database is the newer.
 */
interface Version {
  key: string;
  epoch: string;
  n: number;
}

async function contentVersion(db: D1Database): Promise<Version> {
  const row = await db.prepare("select version, epoch from content_version where id = 1").first<{ version: number; epoch: string }>();
  return row ? { key: `${row.epoch}.${row.version}`, epoch: row.epoch, n: row.version } : { key: "none", epoch: "", n: 0 };
}

/**
 * How long this isolate answers from the version it read last (ADR 0029). An isolate serves many visitors at once;
 * without this every hit waited on a D1 round trip (at the edge, to the nearest replica) for a row that changes a
 * few times a day. A change made through this isolate shows at once (`forgetContentVersion`); one made elsewhere
 * (another isolate, a cron, a Durable Object) within this bound, on top of the replica's own lag.
 */
export const VERSION_TRUSTED_MS = 1000;

/**
 * The last version read and when its read began. A plain value, never a promise: isolates are shared by concurrent
 * requests, and a request that awaited a read another request started would be cancelled with it (workerd cancels
 * the continuations of a request that ended). Each request that finds it too old reads for itself.
 */
let known: { version: Version; readAt: number } | null = null;
/** Moves at every change this isolate made: a read begun before it cannot be kept after it. */
let generation = 0;

/** A request that may have changed public content has finished: the next hit reads the version afresh. */
export function forgetContentVersion() {
  generation += 1;
  known = null;
}

/**
 * Reads the content version through `db` and remembers it for this isolate if nothing changed here while it was
 * read and `replaces` says it should take the place of the one remembered.
 */
async function readVersion(db: D1Database, replaces: (kept: { version: Version; readAt: number }, read: Version, startedAt: number) => boolean): Promise<Version> {
  // The request's clock (Workers move it at I/O, not during synchronous code): when this request arrived at the latest.
  const startedAt = Date.now();
  const before = generation;
  const version = await contentVersion(db);
  if (before === generation && (!known || replaces(known, version, startedAt))) known = { version, readAt: startedAt };
  return version;
}

/**
 * The content version, read at most once per `VERSION_TRUSTED_MS` in this isolate. `readHere`: read through this
 * request's own D1 session (not remembered from another request's).
 */
async function currentVersion(db: D1Database): Promise<{ version: Version; readHere: boolean }> {
  if (known && Date.now() - known.readAt < VERSION_TRUSTED_MS) return { version: known.version, readHere: false };
  // Nothing read later is replaced.
  return { version: await readVersion(db, (kept, _read, startedAt) => kept.readAt <= startedAt), readHere: true };
}

/**
 * The version a miss reads again in its own session (`servePublic`): it replaces the isolate's if it is newer (the
 * next hits look where this page is stored), never if it is older (a replica behind the one the isolate's came from:
 * the page is stored under it, but the isolate keeps looking under the newer version).
 */
function versionAgain(db: D1Database): Promise<Version> {
  return readVersion(db, (kept, read) => kept.version.epoch !== read.epoch || kept.version.n < read.n);
}

/** The cache key's URL (the isolate's map and the Cache API share it); `url.pathname` is already normalised. */
function cacheKey(url: URL, page: CacheablePage, build: string, version: string): string {
  return `${url.origin}/__cache/${encodeURIComponent(build)}/${version}/${page.lang ?? "-"}${url.pathname}`;
}

function etagOf(build: string, version: string, page: CacheablePage): string {
  return `"${build}-${version}-${page.lang ?? "-"}"`;
}

/**
 * The build that answers: the deployed version of the Worker (the `version_metadata` binding, a new id at every
 * deploy, secrets included) and the part that renders (`part`: the pages' asset version, or "api"). Without the
 * binding (a test's Worker) the part alone.
 */
export function buildOf(metadata: { id?: unknown } | undefined, part: string): string {
  const id = typeof metadata?.id === "string" && metadata.id !== "" ? metadata.id : null;
  return id ? `${id}.${part}` : part;
}

/**
 * The document without its throwaway nonce, and the inline scripts (not those with a `src`) that carried it, exactly
 * as the browser hashes them. A script in the page without the mark (one that got in through content) is not
 * among them, so the policy made from them does not trust it.
 */
export function trustedScripts(html: string, nonce: string): { html: string; scripts: string[] } {
  const mark = ` nonce="${nonce}"`;
  const scripts: string[] = [];
  const re = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (!m[1]!.includes(mark) || /\bsrc\s*=/i.test(m[1]!)) continue;
    scripts.push(m[2]!);
  }
  return { html: html.split(mark).join(""), scripts };
}

async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** `'sha256-...'` sources for every distinct script. */
export async function scriptHashes(scripts: string[]): Promise<string[]> {
  const unique = [...new Set(scripts)];
  return Promise.all(unique.map(async (s) => `'sha256-${await sha256Base64(s)}'`));
}

function notModified(etag: string, state: "hit" | "miss"): Response {
  return new Response(null, { status: 304, headers: { ETag: etag, "Cache-Control": BROWSER_CACHE_CONTROL, "X-Cohort-Cache": state } });
}

function answer(stored: Response, etag: string, request: Request, state: "hit" | "miss"): Response {
  if (request.headers.get("if-none-match") === etag) return notModified(etag, state);
  const res = new Response(stored.body, stored);
  res.headers.set("Cache-Control", BROWSER_CACHE_CONTROL);
  res.headers.set("X-Cohort-Cache", state);
  return res;
}

/**
 * Set by a shared render that shows less than it should: a read failed on its way (its section shows the empty
 * state) or the render ran out of time. It is answered as rendered and never stored. Removed before sending.
 */
export const NOT_FOR_SHARING = "X-Cohort-Not-For-Sharing";

/**
 * Serves `request` from the cache, or renders it with `render` (given a throwaway nonce), stores a shareable copy and
 * serves it. `db` must be the D1 session the render reads through (its reads then see at least the version read
 * through it). `secure` adds the security headers to what is stored (a page's policy is built here, with its script
 * hashes).
 */
export async function servePublic(
  request: Request,
  url: URL,
  page: CacheablePage,
  options: {
    db: D1Database;
    build: string;
    waitUntil: (p: Promise<unknown>) => void;
    render: (nonce: string) => Promise<Response>;
    secure: (res: Response, policy?: string) => Response;
  },
): Promise<Response> {
  const current = await currentVersion(options.db);
  let key = cacheKey(url, page, options.build, current.version.key);
  let etag = etagOf(options.build, current.version.key, page);
  // The data centre's cache (Workers' `caches.default`; the DOM typings in scope do not know it).
  const cache = (caches as unknown as { default: Cache }).default;
  const near = recall(key, etag, request);
  if (near) return near;
  const hit = await cache.match(key);
  if (hit) {
    const body = await hit.text();
    keep(key, body, hit.headers);
    return answer(new Response(body, hit), etag, request, "hit");
  }

  if (!current.readHere) {
    // The version was another request's, maybe read from a replica ahead of the one this request's session reads
    // from: read it again in this session, so the page goes under the version of the data it shows (at least as new).
    const version = (await versionAgain(options.db)).key;
    key = cacheKey(url, page, options.build, version);
    etag = etagOf(options.build, version, page);
  }
  // A nonce as a page's (pageNonce): it marks the scripts the renderer wrote (`trustedScripts`).
  const nonce = pageNonce();
  const rendered = await options.render(nonce);
  const headers = new Headers(rendered.headers);
  headers.delete("Content-Length");
  // The throwaway nonce is taken out: the scripts it marked are trusted by their hashes, whether or not it is stored.
  let body = await rendered.text();
  let policy: string | undefined;
  if (page.kind === "page") {
    const trusted = trustedScripts(body, nonce);
    body = trusted.html;
    policy = contentSecurityPolicy({ hashes: await scriptHashes(trusted.scripts), origin: url.origin });
  }
  const partial = rendered.headers.has(NOT_FOR_SHARING);
  headers.delete(NOT_FOR_SHARING);
  if (rendered.status !== 200 || rendered.headers.has("set-cookie") || partial) {
    const res = options.secure(new Response(body, { status: rendered.status, statusText: rendered.statusText, headers }), policy);
    res.headers.set("X-Cohort-Cache", "bypass");
    return res;
  }
  headers.set("Cache-Control", `public, max-age=${EDGE_TTL_SECONDS}`);
  headers.set("ETag", etag);
  const stored = options.secure(new Response(body, { status: 200, headers }), policy);
  keep(key, body, stored.headers);
  options.waitUntil(cache.put(key, stored.clone()));
  return answer(stored, etag, request, "miss");
}
