/** The admin people list's role filters (client-safe; the query is parsed in admin-people.server.ts). */
export const PEOPLE_FILTERS = ["user", "instructor", "admin", "all"] as const;
export type PeopleFilter = (typeof PEOPLE_FILTERS)[number];
