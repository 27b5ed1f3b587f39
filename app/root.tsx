import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useNavigation,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import type { ReactNode } from "react";
import interLatinUrl from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
import kufiArabicUrl from "@fontsource-variable/noto-kufi-arabic/files/noto-kufi-arabic-arabic-wght-normal.woff2?url";
import { GeneralErrorBoundary, useClearReloadMarker } from "./components/error-boundary";
import { detectLang, dirOf, type Lang } from "./i18n/config";
import { dictionaryUrl } from "./i18n/index.server";
import { loadMessages } from "./i18n/store";
import { useSessionSync } from "./hooks/use-session-sync";
import { useScriptless } from "./hooks/use-scriptless";
import { useViewer } from "./hooks/use-viewer";
import { useT } from "./lib/i18n";
import { useNonce } from "./lib/nonce";
import { SAID_AGAIN_ID } from "./lib/focus";
import { sheets } from "./styles/sheets";
import { getHeaderFigures, getViewer } from "../worker/auth/viewer";
import { useScrollStops } from "~/hooks/use-scroll-stops";
import { useFocusAfterNavigation } from "~/hooks/use-focus-after-navigation";
import { SubmissionWait } from "./components/submission-wait";

export const links: LinksFunction = () => [
  // The Latin face is needed on every page (English text, numbers, code), so it is fetched early.
  { rel: "preload", href: interLatinUrl, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  ...sheets("base"),
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/**
 * Language, site settings and the signed-in viewer (from the refresh cookie; null for visitors).
 * `hasCourses` decides the header's "My Courses" link (platform-spec §2); `unreadNotifications` is the bell's
 * count when the page was rendered (the bell then follows the viewer's live hub).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const lang = detectLang(request);
  const s = context.svc.settings;
  const found = await getViewer(context.svc, request);
  const viewer = found ? { userId: found.userId, role: found.role, name: found.name, email: found.email } : null;
  const { hasCourses, unreadNotifications } = await getHeaderFigures(context.svc, request);
  return {
    lang,
    /** The static file with this language's messages (app/i18n/store.ts). */
    i18n: dictionaryUrl(lang),
    viewer,
    hasCourses,
    unreadNotifications,
    site: {
      contactEmail: s.contactEmail,
      contactPhone: s.contactPhone,
      whatsappNumber: s.whatsappNumber,
      socialLinks: s.socialLinks,
      isDev: s.environment === "development",
    },
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

/**
 * In the browser, the root's data arrives with its language's messages already loaded (entry.client.tsx loads them
 * before hydrating; a language switch loads the other file here before the page renders in it).
 */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const data = await serverLoader<typeof loader>();
  await loadMessages(data.lang, data.i18n);
  return data;
}

/** Which part of the site a path belongs to; moving between parts is when who-is-signed-in matters. */
function areaOf(pathname: string): string {
  if (pathname === "/dashboard" || pathname.startsWith("/dashboard/")) return "admin";
  if (pathname === "/instructor" || pathname.startsWith("/instructor/")) return "instructor";
  if (pathname.startsWith("/auth/")) return "auth";
  if (pathname === "/profile" || pathname === "/my-courses" || pathname.startsWith("/course/")) return "user";
  return "public";
}

/**
 * The dictionary changes only with the language and the viewer only through actions and membership decisions (log in, log out, set
 * language, delete account), so the root reloads after actions. It also reloads when a navigation crosses
 * into another area (a guard's redirect to /auth/login, the Google sign-in's move to the dashboard, a session
 * ended on another device), so the header never shows a stale viewer for long, while navigation inside an
 * area does not re-send the dictionary. The bell's unread count needs nothing more: between reloads it follows
 * the live `notification` / `notification.read` frames, re-reads the count whenever its socket (re)opens, and
 * adopts this loader's number whenever the root does reload (after every action, e.g. marking things read).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) => {
  if (formMethod) return defaultShouldRevalidate;
  // An explicit revalidation of this page (a live frame said the viewer's membership changed) reloads the root too.
  if (currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  return areaOf(currentUrl.pathname) !== areaOf(nextUrl.pathname);
};

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  const lang: Lang = data?.lang ?? "en";
  const nonce = useNonce();
  // A refused submission's screen (worker/pages.ts) is served at the address that was posted to, with the refusal
  // page's data: hydrated there, the address and the data disagree (React's hydration error, then Remix's
  // "Application Error"). It is a static screen whose links need no script, so it is sent without the scripts.
  const refused = useScriptless();
  const { t } = useT();
  return (
    <html lang={lang} dir={dirOf(lang)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f766e" />
        <Meta />
        {/* The language's messages (a static file, store.ts): fetched while the scripts load, not after. */}
        {data ? <link rel="preload" href={data.i18n} as="fetch" type="application/json" crossOrigin="anonymous" data-i18n="" /> : null}
        {/* An Arabic page's text is Arabic: its face is fetched with the Latin one, not once the CSS asks for it (the
            text was drawn in a fallback face for over a second on a slow phone, then reflowed). */}
        {lang === "ar" ? <link rel="preload" href={kufiArabicUrl} as="font" type="font/woff2" crossOrigin="anonymous" /> : null}
        <Links />
      </head>
      <body>
        {children}
        {refused ? null : (
          <>
            {/* Shown by entry.client.tsx when the page cannot hydrate (its dictionary did not load, even after one
                reload): the server's words, since the browser has none of its own. */}
            {/* A refused field's error said again when the field already had the focus (focusRefused, lib/focus.ts). */}
            <div id={SAID_AGAIN_ID} className="visually-hidden" aria-live="assertive" aria-atomic="true" />
            <div id="boot-failed" className="boot-failed" role="alert" hidden>
              <p>{t("app.bootFailed")}</p>
              <button type="button" className="btn btn-primary btn-sm">
                {t("app.reload")}
              </button>
            </div>
            <ScrollRestoration nonce={nonce || undefined} />
            <Scripts nonce={nonce || undefined} />
          </>
        )}
      </body>
    </html>
  );
}

/** A thin bar at the top while the next screen (and its code) loads. */
function NavigationProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return <div className="nav-progress" data-active={busy} role="progressbar" aria-hidden={!busy} aria-busy={busy} />;
}

export default function App() {
  useClearReloadMarker();
  useSessionSync(useViewer().viewer);
  useScrollStops();
  useFocusAfterNavigation();
  return (
    <>
      <NavigationProgress />
      <Outlet />
      <SubmissionWait />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary reloadOnce />;
}
