import { routePartykitRequest } from "partyserver";
import { PARTIES } from "../../app/lib/realtime-protocol";
import { getSettings, type Bindings } from "../env";
import { createDb } from "../../db/client";
import { SESSION_ENDED } from "../http/errors";
import { isOwnOrigin } from "../http/origin";
import type { RealtimeTicketInput } from "../../app/lib/schemas";
import { mayJoin } from "../services/realtime-tickets";
import { liveSessionRole } from "../services/sessions";
import { ADMIT_HEADERS } from "./room";
import { verifyTicket } from "./tickets";

function plain(status: number, message: string) {
  return Response.json({ message, code: status === 401 ? "unauthorized" : status === 403 ? "forbidden" : "not_found" }, { status });
}

/**
 * Routes `/parties/{party}/{room}` websocket upgrades to their Durable Object, admitting only
 * requests from an allowed Origin that carry a valid ticket for exactly that room.
 * Plain HTTP requests to rooms are not part of the product and get 404.
 */
export async function routeRealtime(request: Request, env: Bindings): Promise<Response> {
  // partyserver answers an unknown party with a plain 400 and a console.error that logs the whole URL,
  // ticket included; an unknown party is simply a path that does not exist.
  const party = new URL(request.url).pathname.split("/")[2] ?? "";
  if (!(PARTIES as readonly string[]).includes(party)) return plain(404, "Not found");

  const settings = getSettings(env);

  const res = await routePartykitRequest(request, env as unknown as Cloudflare.Env, {
    onBeforeRequest: () => plain(404, "Not found"),
    // The party comes from the path checked above: partyserver's `lobby.party` is deprecated (it warns on
    // every connection and will become the class name in its next major version).
    onBeforeConnect: async (req, { name }) => {
      if (!isOwnOrigin(req, settings)) return plain(403, "This origin may not open realtime connections.");
      const ticket = new URL(req.url).searchParams.get("ticket");
      const claims = ticket ? await verifyTicket(settings, ticket, party, name) : null;
      if (!claims) return plain(401, "A valid realtime ticket for this room is required.");
      // A ticket outlives nothing: minted under a session that has since ended, it opens no socket.
      const db = createDb(env.DB);
      const role = await liveSessionRole(db, claims.sid, claims.sub);
      if (!role) return plain(401, SESSION_ENDED);
      // Nor one whose right to the room ended after it was minted (tickets live 60 s): the room is asked with the
      // role the person has now, and the socket carries that role (a demoted admin's ticket opens no staff inbox).
      const stillAllowed = await mayJoin({ db }, { userId: claims.sub, role }, { party, room: name } as RealtimeTicketInput).catch(() => false);
      if (!stillAllowed) return plain(403, "You may not join this room any more.");
      const headers = new Headers(req.headers);
      headers.set(ADMIT_HEADERS.user, claims.sub);
      headers.set(ADMIT_HEADERS.role, role);
      headers.set(ADMIT_HEADERS.session, claims.sid);
      headers.set(ADMIT_HEADERS.jti, claims.jti);
      // The connection's id is the server's, never the browser's: partyserver takes it from `_pk` and makes it a
      // tag, and tags address frames (`role:admin`, `user:<id>`); an id the client chose would be an audience it
      // chose (and another member's id, their rights). partysocket's own `_pk` is replaced with a fresh one, and
      // the room refuses a socket whose id is not the one named here (room.ts onConnect).
      const url = new URL(req.url);
      const id = crypto.randomUUID();
      url.searchParams.set("_pk", id);
      headers.set(ADMIT_HEADERS.connection, id);
      return new Request(url, new Request(req, { headers }));
    },
  });
  return res ?? plain(404, "Not found");
}
