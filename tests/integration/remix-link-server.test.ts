/**
 * Remix's `<Link>` on the server (patches/@remix-run+react+*.patch, ADR 0068). The patch renders a link's anchor
 * without the hooks that only matter in a browser (click handling, prefetching, the ref); what a page's links render
 * on the server must stay exactly what the browser's first render of the same links produces, or every page would
 * fail to hydrate. Each case is rendered twice in the same router: as the server renders it (no `document`), and as
 * the browser does (the hooks' path, which the patch does not change), and the two must agree, markup and ids alike.
 */
import { Link } from "@remix-run/react";
import { createElement as h, Fragment, useId, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";

/** `element` rendered at `url` in a router whose page route is `course/:slug/*`, as the server renders it. */
async function render(url: string, element: () => ReactNode, basename?: string): Promise<string> {
  const routes = [{ id: "root", path: "/", children: [{ id: "page", path: "course/:slug/*", Component: () => h(Fragment, null, element()) }] }];
  const handler = createStaticHandler(routes, { basename });
  const context = await handler.query(new Request(`https://cohort.test${url}`));
  if (context instanceof Response) throw new Error(`the route answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(h(StaticRouterProvider, { router, context, hydrate: false }));
}

/** The same, as a browser renders it: with a `document`, the patch's server path is not taken. */
async function renderAsBrowser(url: string, element: () => ReactNode, basename?: string): Promise<string> {
  const global = globalThis as { document?: unknown };
  global.document = {};
  try {
    return await render(url, element, basename);
  } finally {
    delete global.document;
  }
}

/** A component that shows the id React gives it: the tree around it must be the same in both renders. */
function Id() {
  return h("span", { "data-id": useId() });
}

const links = () =>
  h(
    "nav",
    null,
    h(Link, { to: "/course/web/lecture/intro", className: "row-arrow", prefetch: "intent" }, "Intro", h(Id)),
    h(Link, { to: "/course/%D9%88%D9%8A%D8%A8?tab=2#top", "aria-current": "page" }, "Arabic slug"),
    h(Link, { to: "/a/../b", prefetch: "render" }, "dot segments"),
    h(Link, { to: "/docs/" }, "trailing slash"),
    h(Link, { to: "..", relative: "path" }, "up the path"),
    h(Link, { to: "lecture/l1" }, "relative to the route"),
    h(Link, { to: "?draw=2", preventScrollReset: true }, "a search alone"),
    h(Link, { to: "..", replace: true, state: { from: "x" } }, "up"),
    h(Link, { to: { pathname: "/course/web", search: "?x=1" } }, "an object"),
    h(Link, { to: "https://example.com/x", target: "_blank", rel: "noopener noreferrer" }, "another site"),
    h(Link, { to: "/auth/logout", reloadDocument: true }, "a full load"),
    h(Link, { to: "/quiet", discover: "none" }, "not discovered"),
    h(Link, { to: "/x", onClick: () => {} }, "with a handler"),
    h(Id),
  );

describe("Remix's Link on the server", () => {
  it("renders exactly what the browser's first render of the same links renders", async () => {
    const server = await render("/course/web/extra", links);
    expect(server).toBe(await renderAsBrowser("/course/web/extra", links));
    // What the markup says: hrefs resolved as the router resolves them, the lazy route discovery's mark where it applies.
    expect(server).toContain('href="/course/web/lecture/intro"');
    expect(server).toContain('href="/b"');
    expect(server).toContain('<a data-discover="true" href="/course">up the path</a>');
    expect(server).toContain('<a data-discover="true" href="/">up</a>');
    expect(server).toContain('href="/course/web/lecture/l1"');
    expect(server).toContain('href="/course/web/extra?draw=2"');
    expect(server).toContain('<a rel="noopener noreferrer" href="https://example.com/x" target="_blank">another site</a>');
    expect(server).toContain('<a href="/auth/logout">a full load</a>');
    expect(server).toContain('<a href="/quiet">not discovered</a>');
    expect(server).not.toMatch(/replace=|state=|preventScrollReset|relative=|prefetch=/i);
  });

  it("adds a basename as the router does", async () => {
    const under = () => h(Link, { to: "/course/web" }, "home");
    const server = await render("/app/course/web", under, "/app");
    expect(server).toBe(await renderAsBrowser("/app/course/web", under, "/app"));
    expect(server).toContain('href="/app/course/web"');
  });
});
