import { useRouteLoaderData } from "@remix-run/react";
import type { RootData } from "~/root";

/** Site settings from the root loader: contact details, chat number, social links. */
export function useSite(): RootData["site"] {
  const data = useRouteLoaderData<RootData>("root");
  return data?.site ?? { contactEmail: "", contactPhone: "", whatsappNumber: "", socialLinks: {}, isDev: false };
}
