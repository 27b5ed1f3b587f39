import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { isLang } from "./i18n/config";
import { loadMessages } from "./i18n/store";
import { keepFocusThroughDisabling } from "./lib/keep-focus";
import { localizeNativeValidation } from "./lib/native-validation";

/**
 * The page's language's messages first (a static file the page's head already asked for, app/i18n/store.ts), then
 * hydration, so the first render in the browser reads exactly what the server wrote. Without them (offline at this
 * instant) the server's page stays as it is rather than showing message keys.
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
  (err: unknown) => console.warn("The page's messages could not be loaded; it stays as the server wrote it.", err),
);
