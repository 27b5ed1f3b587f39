import type { ServiceContext } from "../worker/context";
import type { Bindings } from "../worker/env";
import type { Refusal } from "../worker/http/page-submissions";

/** What every Remix loader and action receives: the same services the API uses. */
declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    env: Bindings;
    svc: ServiceContext;
    /** Per-request CSP nonce for Remix's inline scripts. */
    nonce: string;
    /** Set only when the Worker refused a page submission (worker/http/page-submissions.ts). */
    refusal?: Refusal;
    /**
     * Whether Remix's client asked (`.data`): a fetcher's or a navigation's request, answered in Remix's own encoding.
     * A resource route answers anyone else with plain JSON and the status it meant (group-actions.server.ts).
     */
    dataRequest: boolean;
    /** A public page rendered for the edge cache (worker/pages.ts `renderShared`): rendered whole before it is sent. */
    shared?: boolean;
  }
}
export {};
