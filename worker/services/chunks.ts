/** D1 binds at most 100 values per statement: a read of many ids goes in slices of 90, all at once. */
export async function chunked<T>(ids: string[], read: (ids: string[]) => Promise<T[]>): Promise<T[]> {
  if (ids.length === 0) return [];
  const parts: Promise<T[]>[] = [];
  for (let i = 0; i < ids.length; i += 90) parts.push(read(ids.slice(i, i + 90)));
  return (await Promise.all(parts)).flat();
}
