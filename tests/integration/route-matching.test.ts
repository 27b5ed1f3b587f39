/**
 * Route matching on the server (patches/@remix-run+router+1.23.3.patch, ADR 0027): every request used to flatten and
 * rank all page routes and compile each pattern it tried into a RegExp, three times per page. The patch keeps both
 * per route array and per pattern. Matching must answer exactly as before.
 */
import { matchPath, matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";

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

const ids = (r: AgnosticRouteObject[], path: string) => matchRoutes(r, path)?.map((m) => [m.route.id, m.params]).at(-1) ?? null;

describe("route matching", () => {
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

  it("ranks a server's route array once: its routes are fixed when the build is made", () => {
    const r = routes();
    expect(ids(r, "/late")).toBeNull();
    r[0]!.children!.push({ id: "late", path: "late" });
    // The ranking kept from the first match is used (a browser, whose routes grow, ranks afresh).
    expect(ids(r, "/late")).toBeNull();
    expect(ids(routes().concat([]), "/course/x")).toEqual(["course", { slug: "x" }]);
  });
});
