import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { isLang } from "./i18n/config";
import { loadMessages } from "./i18n/store";
import { keepFocusThroughDisabling } from "./lib/keep-focus";
import { localizeNativeValidation } from "./lib/native-validation";
import { reloadOnce } from "./lib/reload-once";

/**
 * The page's language's messages first (a static file the page's head already asked for, app/i18n/store.ts), then
 * hydration, so the first render in the browser reads exactly what the server wrote. Without them (a page from before
 * a new version, or offline at this instant) the page reloads once, then stays as the server wrote it, saying so,
 * rather than showing message keys.
 */
keepFocusThroughDisabling(document);
localizeNativeValidation(document);

const lang = document.documentElement.lang;
const file = document.querySelector<HTMLLinkElement>("link[data-i18n]")?.href ?? "";
loadMessages(isLang(lang) ? lang : "en", file).then(
  () =>
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <RemixBrowser />
        </StrictMode>,
      );
    }),
  (err: unknown) => {
    // A page written before a new version of the site names a dictionary that is gone: a fresh copy names the current
    // one. Offline, or already reloaded once, the page says that it could not finish loading, in its own words.
    if (navigator.onLine && reloadOnce()) return;
    console.warn("The page's messages could not be loaded; it stays as the server wrote it.", err);
    const notice = document.getElementById("boot-failed");
    if (!notice) return;
    notice.querySelector("button")?.addEventListener("click", () => window.location.reload());
    notice.hidden = false;
  },
);
