import { useRouteLoaderData } from "@remix-run/react";
import type { RootData } from "~/root";

export type ClientViewer = NonNullable<RootData["viewer"]>;

/** The signed-in person from the root loader (null for visitors), and whether they have a group to open. */
export function useViewer(): { viewer: ClientViewer | null; hasCourses: boolean } {
  const data = useRouteLoaderData<RootData>("root");
  return { viewer: data?.viewer ?? null, hasCourses: data?.hasCourses ?? false };
}
