import { jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import type { Settings } from "../env";
import { TICKET_TTL_SECONDS } from "../../app/lib/realtime-limits";
import type { Party } from "../../app/lib/realtime-protocol";
import { hasAlgorithm } from "../auth/tokens";
import { newId } from "../services/ids";

/**
 * A realtime ticket: a 60-second, single-use JWT that admits one person to one room.
 * It is minted by an authenticated API call and checked before the Durable Object accepts the socket,
 * so a room never has to look up sessions itself.
 */
export { TICKET_TTL_SECONDS };
const ISSUER = "cohort";
const AUDIENCE = "cohort-realtime";

const ticketClaims = z.object({
  sub: z.string().min(1),
  /** The session the ticket was minted under: its sockets close when that session is revoked. */
  sid: z.string().min(1),
  role: z.enum(["admin", "instructor", "user"]),
  party: z.string(),
  room: z.string(),
  jti: z.string().min(1),
  exp: z.number(),
});
export type TicketClaims = z.infer<typeof ticketClaims>;

function key(settings: Settings) {
  return new TextEncoder().encode(`realtime:${settings.authSecret}`);
}

export async function mintTicket(
  settings: Settings,
  who: { userId: string; sessionId: string; role: TicketClaims["role"] },
  party: Party,
  room: string,
): Promise<string> {
  return new SignJWT({ role: who.role, sid: who.sessionId, party, room })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(who.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setJti(newId())
    .setIssuedAt()
    .setExpirationTime(`${TICKET_TTL_SECONDS}s`)
    .sign(key(settings));
}

/** Verifies signature, issuer, audience, expiry and that the ticket names this room. Null when it does not. */
export async function verifyTicket(settings: Settings, token: string, party: string, room: string): Promise<TicketClaims | null> {
  if (!hasAlgorithm(token, "HS256")) return null;
  try {
    const { payload } = await jwtVerify(token, key(settings), { issuer: ISSUER, audience: AUDIENCE, algorithms: ["HS256"] });
    const claims = ticketClaims.safeParse(payload);
    if (!claims.success || claims.data.party !== party || claims.data.room !== room) return null;
    return claims.data;
  } catch {
    return null;
  }
}
