/** D1 binds at most 100 values per statement (https://developers.cloudflare.com/d1/platform/limits/). */
export const D1_MAX_PARAMS = 100;

/** `items` in consecutive slices of at most `size`. */
export function slices<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A read of many ids goes in slices of 90 (room for a few other values in the statement), all at once. */
export async function chunked<T>(ids: string[], read: (ids: string[]) => Promise<T[]>): Promise<T[]> {
  if (ids.length === 0) return [];
  return (await Promise.all(slices(ids, 90).map(read))).flat();
}
