import { cloudflareDevProxyVitePlugin, vitePlugin as remix } from "@remix-run/dev";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin, type UserConfig } from "vite";
import { ar } from "./app/i18n/ar";
import { en } from "./app/i18n/en";
import { dictionariesVersion } from "./app/i18n/version";
import { devLoadContext } from "./worker/dev-load-context";
// @ts-ignore -- plain Node script: makes the code runner's metered engine when it is missing or stale
import { ensureMeteredWasm } from "./scripts/meter-wasm.mjs";

await ensureMeteredWasm();

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * The project's own modules that wrangler bundles from the Worker's entry (worker/, db/ and the app/lib and app/i18n
 * modules they import), as absolute paths, found with the same bundler wrangler uses (esbuild, wrangler's own
 * dependency). The SSR build leaves its imports of these as relative imports (`../../worker/services/...`), so the
 * Worker holds one copy of each, shared by pages and the API: one module state, one construction of their schemas
 * and tables, instead of a second copy inside build/server/index.js (docs/decisions/0025-lean-cold-start.md).
 */
async function workerModules(): Promise<Set<string>> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: ["worker/index.ts"],
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    logLevel: "silent",
    packages: "external",
    external: ["cloudflare:*", "node:*", "*.wasm"],
    // The Remix build itself, which worker/pages.ts imports: what is being built here.
    plugins: [{ name: "remix-build", setup: (b) => b.onResolve({ filter: /\/build\/server$/ }, ({ path }) => ({ path, external: true })) }],
  });
  return new Set(Object.keys(result.metafile.inputs).map((file) => resolve(root, file)));
}

/**
 * The dictionaries as static files named by their version (app/i18n/store.ts, version.ts): written into the client
 * build (`build/client/i18n/`, served with the assets, cached for a year by public/_headers) and served the same way
 * by `vite dev`. The server names the same files from the dictionaries it holds.
 */
function dictionaryFiles(): Plugin {
  const files = { en: JSON.stringify(en), ar: JSON.stringify(ar) };
  const version = dictionariesVersion(en, ar);
  return {
    name: "cohort-dictionaries",
    generateBundle() {
      for (const [lang, source] of Object.entries(files)) this.emitFile({ type: "asset", fileName: `i18n/${lang}.${version}.json`, source });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const m = /^\/i18n\/(en|ar)\.[0-9a-f]+\.json$/.exec(req.url ?? "");
        if (!m) return next();
        res.setHeader("Content-Type", "application/json; charset=utf-8");
        res.end(files[m[1] as "en" | "ar"]);
      });
    },
  };
}

/**
 * The browser's shell in a few chunks instead of dozens. Our modules that the root route imports, directly or not, are
 * loaded by every page: one chunk, `shell`. The others that a page layout imports (the public site's, the admin
 * dashboard's, the instructor area's) go to one chunk per set of layouts that need them (`shell-public`,
 * `shell-dashboard-instructor`...): every page sits in one layout and loads all of that layout's modules anyway, so it
 * loads no module it did not load before, in a handful of files rather than twenty-odd (each a `modulepreload` link
 * the server writes into every page and a request the browser makes). A module needs every layout that its importers
 * need, so these chunks import each other one way only. Route modules, styles and libraries keep their own chunks
 * (ADR 49). A few small pieces that pages of every area use (`SHARED_UI`) go to `shell` too: on their own they would
 * be one more tiny file for every page that shows them.
 */
const SHARED_UI = ["components/empty-state.tsx"];

function shellChunks() {
  const app = resolve(root, "app") + "/";
  const rootRoute = resolve(app, "root.tsx");
  const layouts = { public: "routes/_public.tsx", dashboard: "routes/dashboard.tsx", instructor: "routes/instructor.tsx" };
  type Info = { importedIds: readonly string[] } | null;
  let chunkOf: Map<string, string> | null = null;
  /** Our modules that `from` imports, directly or not (route modules excepted). */
  const reachable = (from: string, getModuleInfo: (id: string) => Info) => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length) {
      for (const next of getModuleInfo(stack.pop()!)?.importedIds ?? []) {
        const path = next.split("?")[0]!;
        if (!path.startsWith(app) || path.startsWith(`${app}routes/`) || path === rootRoute || path.endsWith(".css") || seen.has(next)) continue;
        seen.add(next);
        stack.push(next);
      }
    }
    return seen;
  };
  return (id: string, { getModuleInfo }: { getModuleInfo: (id: string) => Info }) => {
    if (!chunkOf) {
      chunkOf = new Map();
      const shell = reachable(rootRoute, getModuleInfo);
      const needs = new Map<string, string[]>();
      for (const [name, file] of Object.entries(layouts)) {
        for (const module of reachable(resolve(app, file), getModuleInfo)) {
          if (!shell.has(module)) needs.set(module, [...(needs.get(module) ?? []), name]);
        }
      }
      for (const module of shell) chunkOf.set(module, "shell");
      for (const file of SHARED_UI) chunkOf.set(resolve(app, file), "shell");
      for (const [module, names] of needs) chunkOf.set(module, `shell-${names.sort().join("-")}`);
    }
    return chunkOf.get(id);
  };
}

export default defineConfig(async ({ command, isSsrBuild }): Promise<UserConfig> => {
  const shared = isSsrBuild ? await workerModules() : null;
  return {
    plugins: [
      isSsrBuild ? null : dictionaryFiles(),
      // Loaders get D1 and the settings from wrangler in `vite dev`; the build needs no platform.
      command === "serve" ? cloudflareDevProxyVitePlugin({ getLoadContext: devLoadContext }) : null,
      remix({
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
        },
      }),
    ],
    resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
    build: {
      target: "es2022",
      // Modules the Worker bundles anyway stay imports of the Worker's copy (workerModules above), written relative to
      // build/server/index.js, where wrangler (and the tests' Vite) resolve them.
      rollupOptions: shared
        ? {
            external: (id: string) => shared.has(id),
            makeAbsoluteExternalsRelative: false,
            output: { paths: (id: string) => (shared.has(id) ? relative(resolve(root, "build/server"), id) : id) },
          }
        : { output: { manualChunks: shellChunks() } },
    },
    // The code exercise's test runner (a Web Worker with QuickJS in WebAssembly) goes to its own folder, which
    // public/_headers serves with a policy that allows compiling WebAssembly there and nowhere else.
    worker: {
      format: "es",
      rollupOptions: { output: { entryFileNames: "assets/sandbox/[name]-[hash].js", chunkFileNames: "assets/sandbox/[name]-[hash].js", assetFileNames: "assets/sandbox/[name]-[hash][extname]" } },
    },
    // `npm run dev`: /api and /parties are served by the running Worker (Durable Objects live there).
    server: process.env.COHORT_WORKER_ORIGIN
      ? {
          proxy: {
            "/api": { target: process.env.COHORT_WORKER_ORIGIN },
            "/parties": { target: process.env.COHORT_WORKER_ORIGIN, ws: true },
          },
        }
      : undefined,
    ssr: { target: "webworker", resolve: { conditions: ["workerd", "worker", "browser"] } },
  };
});
