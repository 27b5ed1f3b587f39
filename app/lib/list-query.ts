/**
 * What a list page reads from its address (the admin's people and groups, a group's students). An address edited
 * by hand, or a link that outlived its list, still shows the list: a search longer than the box takes is searched by
 * its first 100 characters (what the box itself keeps), a page that is not a whole number from 1 is the first, and a
 * page past the end is the last (`lastPageAddress`, where the loader redirects). Client-safe, no zod.
 */

/** The longest search the lists' boxes take (their `maxLength`) and the API's `search` allows. */
export const SEARCH_MAX = 100;
const PAGE_MAX = 10_000;

/** The address's `search`, trimmed and kept to SEARCH_MAX characters (never half of a surrogate pair); undefined if empty. */
export function listSearch(params: URLSearchParams): string | undefined {
  let search = (params.get("search") ?? "").trim().slice(0, SEARCH_MAX);
  if (/[\uD800-\uDBFF]$/.test(search)) search = search.slice(0, -1);
  return search.trim() || undefined;
}

/** The address's `page` if it is a whole number from 1 (to 10,000), else 1. */
export function listPage(params: URLSearchParams): number {
  const raw = params.get("page");
  const page = raw && /^\d{1,5}$/.test(raw) ? Number(raw) : 1;
  return page >= 1 && page <= PAGE_MAX ? page : 1;
}

/** The same address on the last page when `page` is past it (the list shrank, or the address was edited), else null. */
export function lastPageAddress(url: URL, page: number, total: number, pageSize: number): string | null {
  const last = Math.max(1, Math.ceil(total / pageSize));
  if (page <= last) return null;
  const params = new URLSearchParams(url.searchParams);
  if (last === 1) params.delete("page");
  else params.set("page", String(last));
  const query = params.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}
