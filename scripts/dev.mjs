// `npm run dev`: hot-reload development. Vite serves the pages (loaders run through wrangler's platform
// proxy on the same local D1), and proxies /api and /parties (websockets included) to a `wrangler dev`
// Worker on a free port, since Durable Objects only run inside the Worker.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { bin, build, env, freePort, migrate, root, seed, startWorker } from "./lib.mjs";

const port = Number(process.env.PORT ?? 5173);
// The Worker imports the Remix server build; it needs one to exist, not to be current.
if (!existsSync(join(root, "build", "server", "index.js"))) build();
migrate();
const worker = await startWorker({ port: await freePort() });
await seed(worker.origin);
const vite = spawn(bin("remix"), ["vite:dev", "--port", String(port), "--strictPort"], {
  cwd: root,
  env: { ...env, COHORT_WORKER_ORIGIN: worker.origin },
  stdio: "inherit",
});
console.log(`API and realtime: ${worker.origin} (proxied by Vite)`);
const stop = () => {
  vite.kill("SIGTERM");
  worker.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
vite.on("exit", stop);
