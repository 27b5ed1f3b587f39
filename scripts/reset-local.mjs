// `npm run db:reset`: throw away the local D1 (and Durable Object storage), re-apply migrations.
// The next `npm start` seeds the demo data again.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { migrate, root } from "./lib.mjs";

rmSync(join(root, ".wrangler", "state"), { recursive: true, force: true });
migrate();
console.log("Local database reset. Run `npm start` to seed the demo data and serve the app.");
