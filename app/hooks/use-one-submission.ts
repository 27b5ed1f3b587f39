import { useCallback, useEffect, useRef, type FormEvent } from "react";

/**
 * A form that must not be sent twice (it creates something): the returned `onSubmit` lets the first submission
 * through and drops any other until the fetcher or navigation is idle again. A double click, or Enter pressed twice,
 * sends two submit events before React has re-rendered the button as disabled; without this both reach the server.
 */
export function useOneSubmission(state: "idle" | "submitting" | "loading"): (event: FormEvent<HTMLFormElement>) => void {
  const sent = useRef(false);
  useEffect(() => {
    if (state === "idle") sent.current = false;
  }, [state]);
  return useCallback((event: FormEvent<HTMLFormElement>) => {
    if (sent.current) {
      event.preventDefault();
      return;
    }
    sent.current = true;
  }, []);
}
