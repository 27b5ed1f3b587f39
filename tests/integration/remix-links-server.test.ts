/**
 * Remix's `<Links>` and `<Scripts>` on the server (patches/@remix-run+react+*.patch, ADR 0069). The patch keeps a
 * page's link list per chain of matched routes instead of asking every route's `links()` again for every request,
 * and writes the inline manifest without indentation. Each page must still get its own routes' links, exactly as the
 * browser's first render would list them, and the manifest must still be the manifest.
 */
import { Links, UNSAFE_RemixContext as RemixContext } from "@remix-run/react";
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { call } from "./factories";

const calls = { root: 0, a: 0, b: 0 };
const routeModules = {
  root: { default: () => null, links: () => (calls.root++, [{ rel: "stylesheet", href: "/root.css" }]) },
  "routes/a": { default: () => null, links: () => (calls.a++, [{ rel: "stylesheet", href: "/a.css" }, { rel: "preload", href: "/a.woff2", as: "font" }]) },
  "routes/b": { default: () => null, links: () => (calls.b++, [{ rel: "stylesheet", href: "/b.css" }]) },
};
const route = (id: string, parentId: string | undefined, path: string) => ({
  id, parentId, path, hasAction: false, hasLoader: false, hasClientAction: false, hasClientLoader: false, hasErrorBoundary: false,
  module: `/assets/${id.replace("/", "-")}.js`, imports: [`/assets/shared-${path || "root"}.js`], css: [],
});
const manifest = {
  version: "test", url: "/assets/manifest.js",
  entry: { module: "/assets/entry.client.js", imports: ["/assets/shell.js"] },
  routes: { root: route("root", undefined, ""), "routes/a": route("routes/a", "root", "a"), "routes/b": route("routes/b", "root", "b") },
};
const remix = { manifest, routeModules, criticalCss: undefined, future: {}, isSpaMode: false };

/** The head's links of the page at `path`, rendered as the server renders them (or as a browser, with a document). */
async function linksOf(path: string, asBrowser = false): Promise<string> {
  // The root route renders `<Links>` alone: inside the router, where Remix's component reads the page's matches.
  const routes = [{ id: "root", path: "/", Component: () => h(Links), children: [{ id: "routes/a", path: "a" }, { id: "routes/b", path: "b" }] }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`https://cohort.test${path}`));
  if (context instanceof Response) throw new Error(`the route answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const global = globalThis as { document?: unknown };
  if (asBrowser) global.document = {};
  try {
    return renderToString(h(RemixContext.Provider, { value: remix as never }, h(StaticRouterProvider, { router, context, hydrate: false })));
  } finally {
    if (asBrowser) delete global.document;
  }
}

describe("Remix's Links on the server", () => {
  it("gives each page its own routes' links, as the browser lists them, asking each route once per chain", async () => {
    const a = await linksOf("/a");
    expect(a).toContain('href="/root.css"');
    expect(a).toContain('href="/a.css"');
    expect(a).toContain('href="/a.woff2"');
    expect(a).not.toContain("/b.css");

    const b = await linksOf("/b");
    expect(b).toContain('href="/b.css"');
    expect(b).not.toContain("/a.css");

    // A page asked again is listed as it was, without asking its routes again.
    const before = { ...calls };
    expect(await linksOf("/a")).toBe(a);
    expect(await linksOf("/b")).toBe(b);
    expect(calls).toEqual(before);

    // What the browser's first render of the same page lists (upstream's path, every time).
    expect(await linksOf("/a", true)).toBe(a);
    expect(await linksOf("/b", true)).toBe(b);
    expect(calls.a).toBe(before.a + 1);
  });
});

describe("Remix's Scripts on the server", () => {
  it("writes the page's manifest without indentation, and it is still the manifest", async () => {
    const res = await call("/courses");
    expect(res.status).toBe(200);
    const html = await res.text();
    const m = html.match(/window\.__remixManifest = (.*?);\nwindow\.__remixRouteModules/s);
    expect(m, "the page carries its manifest").not.toBeNull();
    expect(m![1]).not.toContain("\n");
    const parsed = JSON.parse(m![1]) as { entry: { module: string }; routes: Record<string, { module: string }> };
    expect(parsed.entry.module).toMatch(/^\/assets\/entry\.client-.+\.js$/);
    expect(Object.keys(parsed.routes)).toEqual(expect.arrayContaining(["root", "routes/_public", "routes/_public.courses"]));
    // Each module the page imports is the one its manifest names.
    for (const id of ["root", "routes/_public.courses"]) expect(html).toContain(`from ${JSON.stringify(parsed.routes[id]!.module)}`);
  });
});
