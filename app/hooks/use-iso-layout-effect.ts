import { useEffect, useLayoutEffect } from "react";

/**
 * `useLayoutEffect` in the browser (runs before the browser paints, and its cleanup before React removes the
 * element), `useEffect` on the server, where neither runs and React would warn about the layout one.
 */
export const useIsoLayoutEffect = typeof window === "undefined" ? useEffect : useLayoutEffect;
