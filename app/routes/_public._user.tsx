/**
 * The signed-in user area (/profile, /my-courses, /course/*), inside the public layout (same header and
 * footer). Files: `_public._user.profile.tsx`, `_public._user.my-courses.tsx`, `_public._user.course.$slug.tsx`...
 *
 * GUARD IN EVERY ROUTE: Remix runs child loaders and actions in parallel with this one and does not stop them
 * when this loader throws, so this loader protects nothing below it. Every loader and every action of every
 * page in this area must call `requireViewer(context.svc, request)` (worker/auth/viewer.ts) itself; a visitor
 * is sent to /auth/login?redirectTo=<the page> and comes back after signing in.
 */
import type { LoaderFunctionArgs, LinksFunction } from "@remix-run/cloudflare";
import { Outlet } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireViewer } from "../../worker/auth/viewer";
import { sheets } from "~/styles/sheets";

export const links: LinksFunction = () => sheets("groups");

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireViewer(context.svc, request);
  return null;
}

export default function UserArea() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
