import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
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
import { GeneralErrorBoundary, useClearReloadMarker } from "./components/error-boundary";
import { detectLang, dirOf, type Lang } from "./i18n/config";
import { dictionary } from "./i18n/index.server";
import { useNonce } from "./lib/nonce";
import stylesUrl from "./styles/app.css?url";

export const links: LinksFunction = () => [
  // The Latin face is needed on every page (English text, numbers, code), so it is fetched early.
  { rel: "preload", href: interLatinUrl, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "stylesheet", href: stylesUrl },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const lang = detectLang(request);
  const s = context.svc.settings;
  return {
    lang,
    messages: dictionary(lang),
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

/** The dictionary only changes with the language, which changes through an action. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod ? defaultShouldRevalidate : false;

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  const lang: Lang = data?.lang ?? "en";
  const nonce = useNonce();
  return (
    <html lang={lang} dir={dirOf(lang)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f766e" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
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
  return (
    <>
      <NavigationProgress />
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary reloadOnce />;
}
