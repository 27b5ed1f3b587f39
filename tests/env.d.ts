import type { D1Migration } from "cloudflare:test";
import type { Bindings } from "../worker/env";

declare global {
  namespace Cloudflare {
    /** The Worker's bindings as tests see them, plus the migrations the setup applies. */
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
