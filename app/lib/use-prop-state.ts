import { useState, type Dispatch, type SetStateAction } from "react";

/**
 * Local state that starts from `source` and starts over whenever `source` changes (new loader data after a
 * revalidation). The reset happens during render, not in an effect, so no frame ever shows the new fetcher state
 * beside the old list (an effect would commit one such frame first: a toggled row would flicker back).
 */
export function usePropState<T>(source: T): [T, Dispatch<SetStateAction<T>>] {
  const [state, setState] = useState(source);
  const [seen, setSeen] = useState(source);
  if (seen !== source) {
    setSeen(source);
    setState(source);
  }
  return [state, setState];
}
