import type { FetcherWithComponents } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { AccountResult } from "./types";

/** Calls `onResult` once per answer of an account form's fetcher, after it has settled. */
export function useAccountResult(fetcher: FetcherWithComponents<AccountResult>, onResult: (result: AccountResult) => void) {
  const handled = useRef<unknown>(null);
  const callback = useRef(onResult);
  callback.current = onResult;
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    callback.current(fetcher.data);
  }, [fetcher.state, fetcher.data]);
}
