/**
 * The libraries patched for speed (patches/, applied by patch-package on `npm install`; ADR 0027, ADR 0033) answer
 * exactly as before:
 * - React Router's route matching: every request used to flatten and rank all page routes and compile each pattern it
 *   tried into a RegExp, three times per page; the patch keeps both per route array and per pattern. Both of its
 *   builds are patched: the server runtime loads the CommonJS one, the pages the ES module one.
 * - Drizzle's `is()`: whether a value is of an entity kind, asked for every chunk of every query it builds, walked the
 *   value's class ancestry each time; the patch keeps the answer per class and kind.
 * - Drizzle's limits: a whole-number limit was bound as a parameter, which has SQLite compile the statement again at
 *   every run; the patch writes it into the statement (` limit 1`), and binds anything else as before.
 * - Drizzle's row mapping: how each column is decoded was worked out again for every row; the patch works it out once
 *   per query's column list (tested on workerd's D1, with joins that may be missing and decoded columns).
 * - Remix's server runtime: every loader and action was handed a copy of the request with Remix's own search
 *   parameters (`index`, `_routes`, `_data`) dropped; the patch hands over a request that cannot hold them as it is.
 * - React's streaming renderer (the production build the Worker bundles): it encoded every tag, attribute and text to
 *   UTF-8 on its own; the patch gathers one flush's markup as a string and encodes it once.
 * - React Router's `useResolvedPath` (every link, form and nav link asks it up to three times): it turned the route's
 *   matches into JSON and back for every path; the patch resolves an absolute path ("/x?y#z"), which depends on
 *   neither, once per string. All three builds: the Worker bundles the minified one, the browser the ES module one.
 */
import * as esmRouter from "@remix-run/router";
import type { AgnosticRouteObject } from "@remix-run/router";
// @ts-expect-error: the CommonJS build has no typings of its own; it is the copy the server runtime loads.
import * as cjsRouter from "@remix-run/router/dist/router.cjs.js";
import { env } from "cloudflare:test";
// The CommonJS build: the copy the Worker's server runtime loads.
import * as cjsData from "@remix-run/server-runtime/dist/data.js";
// @ts-expect-error: the ES module build (patched alike) has no typings of its own.
import * as esmData from "../../node_modules/@remix-run/server-runtime/dist/esm/data.js";
import { Column, entityKind, eq, is, SQL, sql, Table } from "drizzle-orm";
import { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { createElement as h, Suspense, type ReactNode } from "react";
// @ts-expect-error: the production build has no typings of its own; it is the copy the Worker bundles and the patch changes.
import * as fizz from "../../node_modules/react-dom/cjs/react-dom-server.browser.production.min.js";
// The reference: upstream's own string renderer, untouched by the patch.
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
// React Router's three builds, each patched alike (ADR 0037).
import * as routerEsm from "../../node_modules/react-router/dist/index.js";
// @ts-expect-error: the UMD builds have no typings of their own; the minified one is the copy the Worker bundles.
import * as routerMin from "../../node_modules/react-router/dist/umd/react-router.production.min.js";
// @ts-expect-error: as above (the development build).
import * as routerDev from "../../node_modules/react-router/dist/umd/react-router.development.js";
import { createDb } from "../../db/client";
import { groups, memberships, users } from "../../db/schema";
import { addMember, createGroup, createUser } from "./factories";

const routes = (): AgnosticRouteObject[] => [
  {
    id: "root",
    path: "/",
    children: [
      { id: "home", index: true },
      { id: "course", path: "course/:slug" },
      { id: "lecture", path: "course/:slug/lecture/:lecture" },
      { id: "static", path: "course/new" },
      { id: "optional", path: "docs/:page?" },
      { id: "splat", path: "files/*" },
    ],
  },
];

const copies = [
  ["ES module", esmRouter],
  ["CommonJS", cjsRouter as typeof esmRouter],
] as const;

describe.each(copies)("route matching (%s build)", (_name, { matchPath, matchRoutes }) => {
  const ids = (r: AgnosticRouteObject[], path: string) => matchRoutes(r, path)?.map((m) => [m.route.id, m.params]).at(-1) ?? null;

  it("picks the most specific route, with its parameters, every time it is asked", () => {
    const r = routes();
    for (let round = 0; round < 3; round++) {
      expect(ids(r, "/")).toEqual(["home", {}]);
      expect(ids(r, "/course/new")).toEqual(["static", {}]);
      expect(ids(r, "/course/web-101")).toEqual(["course", { slug: "web-101" }]);
      expect(ids(r, "/Course/Web-101/")).toEqual(["course", { slug: "Web-101" }]);
      expect(ids(r, "/course/%D9%88%D9%8A%D8%A8/lecture/intro")).toEqual(["lecture", { slug: "ويب", lecture: "intro" }]);
      expect(ids(r, "/docs")).toEqual(["optional", { page: undefined }]);
      expect(ids(r, "/docs/setup")).toEqual(["optional", { page: "setup" }]);
      expect(ids(r, "/files/a/b.txt")).toEqual(["splat", { "*": "a/b.txt" }]);
      expect(ids(r, "/nowhere")).toBeNull();
    }
  });

  it("compiles a pattern once and answers case sensitivity and prefixes as asked", () => {
    for (let round = 0; round < 2; round++) {
      expect(matchPath({ path: "/a/:id", caseSensitive: true }, "/A/1")).toBeNull();
      expect(matchPath({ path: "/a/:id", caseSensitive: false }, "/A/1")?.params).toEqual({ id: "1" });
      expect(matchPath({ path: "/a", end: false }, "/a/b")?.pathnameBase).toBe("/a");
      expect(matchPath({ path: "/a", end: true }, "/a/b")).toBeNull();
    }
  });

  it("answers a path asked again with copies: a caller that changes its answer changes nobody else's", () => {
    const r = routes();
    const first = matchRoutes(r, "/course/web-101")!;
    (first.at(-1)!.params as Record<string, string>).slug = "changed";
    first.pop();
    const again = matchRoutes(r, "/course/web-101")!;
    expect(again.map((m) => [m.route.id, m.params])).toEqual([
      ["root", { slug: "web-101" }],
      ["course", { slug: "web-101" }],
    ]);
    (again.at(-1)!.params as Record<string, string>).slug = "changed too";
    expect(matchRoutes(r, "/course/web-101")!.at(-1)!.params).toEqual({ slug: "web-101" });
    expect(matchRoutes(r, "/nowhere")).toBeNull();
    expect(matchRoutes(r, "/nowhere")).toBeNull();
  });

  it("ranks a server's route array once: its routes are fixed when the build is made", () => {
    const r = routes();
    expect(ids(r, "/late")).toBeNull();
    r[0]!.children!.push({ id: "late", path: "late" });
    // The ranking kept from the first match is used (a browser, whose routes grow, ranks afresh).
    expect(ids(r, "/late")).toBeNull();
    expect(ids(routes().concat([]), "/course/x")).toEqual(["course", { slug: "x" }]);
  });
});

describe("drizzle is()", () => {
  it("answers by class and entity kind, the same every time it is asked", () => {
    const query = sql`select 1`;
    for (let round = 0; round < 3; round++) {
      expect(is(users, Table)).toBe(true);
      expect(is(users, SQLiteTable)).toBe(true);
      expect(is(users.id, Column)).toBe(true);
      expect(is(users.id, SQLiteColumn)).toBe(true);
      expect(is(users.id, Table)).toBe(false);
      expect(is(groups, Column)).toBe(false);
      expect(is(query, SQL)).toBe(true);
      expect(is(query, Table)).toBe(false);
      expect(is({}, SQL)).toBe(false);
      expect(is(null, SQL)).toBe(false);
      expect(is("select", SQL)).toBe(false);
    }
  });

  it("still knows an entity of another copy of Drizzle by its kind, not its class", () => {
    // A class that is not Drizzle's SQL but says it is of SQL's kind (what a second copy of the library looks like).
    class ForeignSQL {
      static readonly [entityKind] = (SQL as unknown as Record<symbol, string>)[entityKind];
    }
    class Stranger {
      static readonly [entityKind] = "Stranger";
    }
    for (let round = 0; round < 2; round++) {
      expect(is(new ForeignSQL(), SQL)).toBe(true);
      expect(is(new Stranger(), SQL)).toBe(false);
    }
  });
});

describe("React's streaming render (production build)", () => {
  const renderToReadableStream = (fizz as { renderToReadableStream: (node: ReactNode) => Promise<ReadableStream<Uint8Array> & { allReady: Promise<void> }> })
    .renderToReadableStream;

  /** Every chunk the stream gives, as the bytes it gave them, and the whole page decoded. */
  async function chunksOf(node: ReactNode) {
    const stream = await renderToReadableStream(node);
    const chunks: Uint8Array[] = [];
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    const all = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.byteLength;
    }
    return { chunks, html: new TextDecoder("utf-8", { fatal: true }).decode(all) };
  }

  // Arabic, an emoji (four bytes in UTF-8) and text that must be escaped, in attributes and in text, well past the
  // 512-byte views upstream cut its output into (a character split across two of them would not decode).
  const page = () =>
    h(
      "main",
      { lang: "ar", dir: "rtl", className: "course" },
      h("h1", { title: "مرحبا 👋 \"quoted\" & <tagged>" }, "دورة الويب 👩‍💻 & <script>"),
      h(
        "ul",
        null,
        Array.from({ length: 120 }, (_, i) => h("li", { key: i, "data-n": i, "aria-label": `محاضرة ${i} ✓` }, `المحاضرة رقم ${i} — ${"ث".repeat(i % 7)}`)),
      ),
      h("input", { type: "checkbox", defaultChecked: true, disabled: true, "aria-hidden": true }),
    );

  it("writes exactly the markup the string renderer writes, every byte of it UTF-8", async () => {
    const { html } = await chunksOf(page());
    expect(html).toBe(renderToString(page()));
    expect(html).toContain('title="مرحبا 👋 &quot;quoted&quot; &amp; &lt;tagged&gt;"');
    expect(html).toContain("دورة الويب 👩‍💻 &amp; &lt;script&gt;");
    expect(html).toContain('<li data-n="119" aria-label="محاضرة 119 ✓">');
    expect(html.length).toBeGreaterThan(8_000);
  });

  it("still streams: the shell is sent before a suspended part is ready, and the part follows in a later chunk", async () => {
    let resolve!: () => void;
    const ready = new Promise<void>((r) => (resolve = r));
    let done = false;
    function Slow(): ReactNode {
      if (!done) throw ready.then(() => void (done = true));
      return h("p", null, "وصل الجزء البطيء ✓");
    }
    const stream = await renderToReadableStream(h("div", null, h("h1", null, "الصفحة"), h(Suspense, { fallback: h("p", null, "…") }, h(Slow))));
    const reader = stream.getReader();
    const first = await reader.read();
    const shell = new TextDecoder().decode(first.value);
    expect(shell).toContain("<h1>الصفحة</h1>");
    expect(shell).toContain("…");
    expect(shell).not.toContain("وصل الجزء البطيء");
    resolve();
    let rest = "";
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest += new TextDecoder().decode(next.value);
    expect(rest).toContain("وصل الجزء البطيء ✓");
  });
});

describe("drizzle row mapping", () => {
  it("maps every row as its columns say, the same on every run of one query: decoded values, nested fields, missing joins", async () => {
    const member = await createUser({ name: "Mapped Member" });
    const loner = await createUser({ name: "Lone Reader" });
    const group = await createGroup({ title: "Mapping 101" });
    await addMember(member, group, "special");
    const db = createDb(env.DB);
    const query = db
      .select({
        name: users.name,
        verified: users.emailVerifiedAt,
        membership: { status: memberships.status, groupId: memberships.groupId },
        group: { title: groups.title, capacity: groups.capacity },
        shout: sql<string>`upper(${users.name})`.mapWith((v: string) => `${v}!`),
        flag: sql<number>`${users.id} = ${member.id}`.mapWith(Boolean),
      })
      .from(users)
      .leftJoin(memberships, eq(memberships.userId, users.id))
      .leftJoin(groups, eq(groups.id, memberships.groupId))
      .where(sql`${users.id} in (${member.id}, ${loner.id})`)
      .orderBy(users.name)
      .prepare();
    for (let round = 0; round < 3; round++) {
      const rows = await query.all();
      expect(rows).toEqual([
        // The reader with no membership: both joined objects are null, not objects of nulls.
        { name: "Lone Reader", verified: expect.any(Date), membership: null, group: null, shout: "LONE READER!", flag: false },
        { name: "Mapped Member", verified: expect.any(Date), membership: { status: "special", groupId: group.id }, group: { title: "Mapping 101", capacity: group.capacity }, shout: "MAPPED MEMBER!", flag: true },
      ]);
    }
  });
});

describe("drizzle limits", () => {
  // SQLite plans a statement by its limit's value: a bound limit (`limit ?`) marks the statement stale each time it is
  // bound, so even a cached statement is compiled again at every run (seen in workerd: sqlite3Reprepare on every
  // `limit ?` statement, never on others; ADR 0050). Whole numbers are written into the statement instead.
  it("writes a whole-number limit into the statement, in selects, subqueries and set operations, and honours it", async () => {
    const group = await createGroup({ title: "Limits 101" });
    for (const name of ["Limit A", "Limit B", "Limit C"]) await addMember(await createUser({ name }), group);
    const db = createDb(env.DB);
    const members = db.select({ name: users.name }).from(users).innerJoin(memberships, eq(memberships.userId, users.id)).where(eq(memberships.groupId, group.id)).orderBy(users.name);
    const two = members.limit(2).toSQL();
    expect(two.sql).toMatch(/ limit 2$/);
    expect(two.params).toEqual([group.id]);
    expect(await members.limit(2)).toEqual([{ name: "Limit A" }, { name: "Limit B" }]);
    expect(await members.limit(0)).toEqual([]);
    const inner = db.select({ one: sql`1` }).from(memberships).where(eq(memberships.groupId, group.id)).limit(1);
    const outer = db.select({ has: sql<number>`exists ${inner}` }).from(groups).where(eq(groups.id, group.id));
    expect(outer.toSQL().sql).toContain(" limit 1)");
    expect(outer.toSQL().params).toEqual([group.id, group.id]);
    expect(await outer).toEqual([{ has: 1 }]);
    const union = db.select({ name: users.name }).from(users).where(eq(users.name, "Limit A")).union(db.select({ name: users.name }).from(users).where(eq(users.name, "Limit C"))).limit(1);
    expect(union.toSQL().sql).toMatch(/ limit 1$/);
    expect(await union).toHaveLength(1);
  });

  it("still binds any other limit: a named parameter of a prepared query, a fraction, a number past the safe integers", () => {
    const db = createDb(env.DB);
    const base = () => db.select({ id: users.id }).from(users);
    const named = base().limit(sql.placeholder("n")).toSQL();
    expect(named.sql).toMatch(/ limit \?$/);
    const fraction = base().limit(1.5).toSQL();
    expect(fraction.sql).toMatch(/ limit \?$/);
    expect(fraction.params).toEqual([1.5]);
    const huge = base().limit(2 ** 60).toSQL();
    expect(huge.sql).toMatch(/ limit \?$/);
    expect(huge.params).toEqual([2 ** 60]);
    // A negative limit is no limit, as upstream.
    expect(base().limit(-1).toSQL().sql).not.toContain("limit");
  });
});

const dataCopies = [
  ["CommonJS", cjsData],
  ["ES module", esmData],
] as const;

describe.each(dataCopies)("Remix loader requests (%s build)", (_name, data) => {
  const { callRouteLoader } = data as { callRouteLoader: (args: { loadContext: unknown; loader: (a: { request: Request }) => unknown; params: object; request: Request; routeId: string; singleFetch: boolean }) => Promise<unknown> };
  /** The request a loader is handed for one sent to `url`, with single fetch on (as the app runs Remix). */
  async function seen(url: string) {
    const request = new Request(url, { headers: { cookie: "a=b", "x-test": "kept" } });
    let received!: Request;
    await callRouteLoader({ loadContext: {}, params: {}, routeId: "r", singleFetch: true, request, loader: ({ request: r }) => ((received = r), null) });
    return { request, received };
  }

  it("hands a request whose query string cannot hold Remix's own parameters over as it is", async () => {
    for (const url of ["https://x.test/course/web", "https://x.test/course/web?tab=tasks&page=2"]) {
      const { request, received } = await seen(url);
      expect(received).toBe(request);
    }
  });

  it("still drops Remix's own parameters, spelled plainly or percent-encoded, and keeps everything else", async () => {
    const cases: [string, string][] = [
      ["https://x.test/a?index&tab=1", "https://x.test/a?tab=1"],
      ["https://x.test/a?index=keep&tab=1", "https://x.test/a?tab=1&index=keep"],
      ["https://x.test/a?_routes=root&tab=1", "https://x.test/a?tab=1"],
      ["https://x.test/a?%69ndex=&tab=1", "https://x.test/a?tab=1"],
      // `_data` is Remix's own only without single fetch: here it stays.
      ["https://x.test/a?_data=root&tab=1", "https://x.test/a?_data=root&tab=1"],
    ];
    for (const [url, expected] of cases) {
      const { request, received } = await seen(url);
      expect(received.url, url).toBe(expected);
      expect(received.headers.get("x-test")).toBe("kept");
      expect(received.signal).toBe(request.signal);
    }
  });
});

const routerCopies = [
  ["ES module", routerEsm],
  ["minified", routerMin as typeof routerEsm],
  ["development", routerDev as typeof routerEsm],
] as const;

describe.each(routerCopies)("React Router's path resolution (%s build)", (_name, rr) => {
  const { Router, Routes, Route, createPath, useHref, useResolvedPath } = rr;
  /** A server's router (no history, no layout effects) at `location`. */
  const at = (location: string, children: ReactNode, basename?: string) =>
    h(Router, { location, basename, static: true, navigator: { createHref: (to: Parameters<typeof createPath>[0]) => (typeof to === "string" ? to : createPath(to)) } as never }, children);
  /** Every `to` as its href, rendered inside the route `course/:slug/*` at `at` (with a basename when given). */
  function hrefs(tos: string[], location: string, basename?: string): string[] {
    const seen: string[] = [];
    function Probe() {
      for (const to of tos) seen.push(useHref(to));
      return null;
    }
    renderToString(at(`${basename ?? ""}${location}`, h(Routes, null, h(Route, { path: "course/:slug/*", element: h(Probe) })), basename));
    return seen;
  }

  it("resolves absolute paths as they are written, and relative ones against the route, every time", () => {
    const tos = ["/course/b?tab=2#top", "/docs/", "/", "/a/../b", "lecture/l1", "..", "?tab=3", ".", "/course/b?tab=2#top"];
    // Dot segments are resolved; a search alone stays on the current location, not the route.
    const expected = ["/course/b?tab=2#top", "/docs/", "/", "/b", "/course/web/lecture/l1", "/", "/course/web/extra?tab=3", "/course/web", "/course/b?tab=2#top"];
    for (let round = 0; round < 3; round++) expect(hrefs(tos, "/course/web/extra")).toEqual(expected);
    // The same absolute path from another route and location: the same answer; a relative one moves with the route.
    expect(hrefs(["/course/b?tab=2#top", "lecture/l1"], "/course/other")).toEqual(["/course/b?tab=2#top", "/course/other/lecture/l1"]);
    // A basename is added to absolute paths after they are resolved, as before.
    expect(hrefs(["/course/b", "lecture/l1"], "/course/web", "/app")).toEqual(["/app/course/b", "/app/course/web/lecture/l1"]);
  });

  it("resolves an absolute path without turning the route's matches into JSON (upstream did, for every link)", () => {
    const tos = Array.from({ length: 20 }, (_, i) => `/course/web/lecture/l${i}`);
    const stringify = vi.spyOn(JSON, "stringify");
    try {
      expect(hrefs(tos, "/course/web")).toEqual(tos);
      expect(stringify).not.toHaveBeenCalled();
      // A relative path still resolves against the matches, as before.
      expect(hrefs(["lecture/l1"], "/course/web")).toEqual(["/course/web/lecture/l1"]);
      expect(stringify).toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
    }
  });

  it("gives every caller its own answer: one that changes it changes nobody else's", () => {
    const answers: { pathname: string; search: string; hash: string }[] = [];
    function Changer() {
      const path = useResolvedPath("/shared?x=1#h");
      answers.push({ ...path });
      path.pathname = "/changed";
      path.search = "";
      return null;
    }
    for (let round = 0; round < 2; round++) {
      renderToString(at("/course/web", h(Routes, null, h(Route, { path: "course/:slug", element: h("div", null, h(Changer), h(Changer)) }))));
    }
    expect(answers).toEqual(Array.from({ length: 4 }, () => ({ pathname: "/shared", search: "?x=1", hash: "#h" })));
  });
});
