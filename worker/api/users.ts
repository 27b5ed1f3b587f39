/**
 * Everything under /api/users that belongs to accounts and sessions, in one sub-app so the shared rules
 * (no caching of personal answers) apply once. The parts live in users-auth.ts (sign up and in),
 * users-google.ts, users-account.ts (one's own account), users-groups.ts (joining and leaving groups) and
 * users-admin.ts.
 */
import { noStore } from "../auth/middleware";
import { createApi } from "./app";
import { usersAccountApi } from "./users-account";
import { usersAdminApi } from "./users-admin";
import { usersAuthApi } from "./users-auth";
import { usersGoogleApi } from "./users-google";
import { usersGroupsApi } from "./users-groups";

export const usersApi = createApi();
usersApi.use(noStore);
usersApi.route("/", usersAuthApi);
usersApi.route("/", usersGoogleApi);
usersApi.route("/", usersAccountApi);
usersApi.route("/", usersGroupsApi);
usersApi.route("/", usersAdminApi);
