/**
 * Work the browser keeps in its own storage until the server has it (quiz answers, exercise drafts), so a reload or
 * a crash while offline loses nothing. Private mode or a full storage only loses this copy: the server keeps
 * everything it acknowledged.
 */
export function readKept<T>(key: string): T | null {
  try {
    const raw = window.localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export function keep(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // See above: the server copy still holds every saved value.
  }
}

export function forget(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing was kept.
  }
}
