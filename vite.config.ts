import { cloudflareDevProxyVitePlugin, vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { devLoadContext } from "./worker/dev-load-context";
// @ts-ignore -- plain Node script: makes the code runner's metered engine when it is missing or stale
import { ensureMeteredWasm } from "./scripts/meter-wasm.mjs";

await ensureMeteredWasm();

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ command }) => ({
  plugins: [
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
