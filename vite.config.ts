import { cloudflareDevProxyVitePlugin, vitePlugin as remix } from "@remix-run/dev";
import { createHash } from "node:crypto";
import { defineConfig, type Plugin } from "vite";
import { ar } from "./app/i18n/ar";
import { en } from "./app/i18n/en";
import { devLoadContext } from "./worker/dev-load-context";
// @ts-ignore -- plain Node script: makes the code runner's metered engine when it is missing or stale
import { ensureMeteredWasm } from "./scripts/meter-wasm.mjs";

await ensureMeteredWasm();

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * The dictionaries as static files named by their content's hash (app/i18n/store.ts): written into the client build
 * (`build/client/i18n/`, served with the assets, cached for a year by public/_headers) and served the same way by
 * `vite dev`. Pages name the file through `__I18N_VERSION__`.
 */
const DICTIONARIES = { en: JSON.stringify(en), ar: JSON.stringify(ar) };
const I18N_VERSION = createHash("sha256").update(DICTIONARIES.en).update("\0").update(DICTIONARIES.ar).digest("hex").slice(0, 12);

function dictionaryFiles(): Plugin {
  return {
    name: "cohort-dictionaries",
    generateBundle() {
      for (const [lang, source] of Object.entries(DICTIONARIES)) this.emitFile({ type: "asset", fileName: `i18n/${lang}.${I18N_VERSION}.json`, source });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const m = /^\/i18n\/(en|ar)\.[0-9a-f]+\.json$/.exec(req.url ?? "");
        if (!m) return next();
        res.setHeader("Content-Type", "application/json; charset=utf-8");
        res.end(DICTIONARIES[m[1] as "en" | "ar"]);
      });
    },
  };
}

export default defineConfig(({ command, isSsrBuild }) => ({
  define: { __I18N_VERSION__: JSON.stringify(I18N_VERSION) },
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
  build: { target: "es2022" },
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
}));
