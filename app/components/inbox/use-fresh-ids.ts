import { useCallback, useEffect, useRef, useState } from "react";

/** How long a row that arrived live stays highlighted. */
const FRESH_MS = 8_000;

/** Ids of rows that just arrived live, each forgotten after a few seconds (the highlight fades with it). */
export function useFreshIds() {
  const [fresh, setFresh] = useState<ReadonlySet<string>>(() => new Set());
  const timers = useRef(new Map<string, number>());

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => window.clearTimeout(timer));
  }, []);

  const markFresh = useCallback((id: string) => {
    setFresh((set) => new Set(set).add(id));
    window.clearTimeout(timers.current.get(id));
    timers.current.set(
      id,
      window.setTimeout(() => {
        timers.current.delete(id);
        setFresh((set) => {
          const next = new Set(set);
          next.delete(id);
          return next;
        });
      }, FRESH_MS),
    );
  }, []);

  return { fresh, markFresh };
}
