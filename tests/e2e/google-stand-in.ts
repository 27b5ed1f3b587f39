/**
 * A local stand-in for Google's OAuth endpoints, so the browser tests can drive "Continue with Google" end to
 * end without the internet: /authorize (remembers the request and redirects back with a code and the state),
 * /token (checks the code, PKCE verifier, client and redirect URI, and answers an RS256 ID token carrying the
 * nonce of the authorize request, signed with a key made at startup) and /jwks (that key's public half).
 * Which Google account "signs in" next is set by the tests with POST /next-identity {sub, email, name}.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

export const STAND_IN_CLIENT_ID = "cohort-e2e.apps.googleusercontent.test";
export const STAND_IN_CLIENT_SECRET = "cohort-e2e-secret";

export interface Identity {
  sub: string;
  email: string;
  name: string;
}

interface Grant {
  identity: Identity;
  nonce: string;
  challenge: string;
  redirectUri: string;
}

export interface GoogleStandIn {
  origin: string;
  /** Worker variables pointing Google sign-in at this stand-in. */
  vars: Record<string, string>;
  close: () => Promise<void>;
}

const base64url = (buf: Buffer) => buf.toString("base64url");

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function json(res: ServerResponse, status: number, value: unknown) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(value));
}

export async function startGoogleStandIn(): Promise<GoogleStandIn> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: "e2e-1", alg: "RS256", use: "sig" }] };
  const grants = new Map<string, Grant>();
  let next: Identity | null = null;
  let origin = "";

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", origin);
      if (req.method === "GET" && url.pathname === "/jwks") return json(res, 200, jwks);

      if (req.method === "POST" && url.pathname === "/next-identity") {
        next = JSON.parse(await body(req)) as Identity;
        return json(res, 200, { ok: true });
      }

      if (req.method === "GET" && url.pathname === "/authorize") {
        const p = url.searchParams;
        const redirectUri = p.get("redirect_uri") ?? "";
        if (p.get("client_id") !== STAND_IN_CLIENT_ID || !redirectUri || p.get("code_challenge_method") !== "S256") {
          return json(res, 400, { error: "invalid_request" });
        }
        const id = base64url(randomBytes(6));
        const identity = next ?? { sub: `e2e-${id}`, email: `google-${id.toLowerCase()}@gmail.test`, name: "Google Person" };
        next = null;
        const code = base64url(randomBytes(24));
        grants.set(code, { identity, nonce: p.get("nonce") ?? "", challenge: p.get("code_challenge") ?? "", redirectUri });
        const back = new URL(redirectUri);
        back.searchParams.set("code", code);
        back.searchParams.set("state", p.get("state") ?? "");
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }

      if (req.method === "POST" && url.pathname === "/token") {
        const form = new URLSearchParams(await body(req));
        const code = form.get("code") ?? "";
        const grant = grants.get(code);
        grants.delete(code);
        const verifier = form.get("code_verifier") ?? "";
        const valid =
          grant &&
          form.get("grant_type") === "authorization_code" &&
          form.get("client_id") === STAND_IN_CLIENT_ID &&
          form.get("client_secret") === STAND_IN_CLIENT_SECRET &&
          form.get("redirect_uri") === grant.redirectUri &&
          base64url(createHash("sha256").update(verifier).digest()) === grant.challenge;
        if (!valid) return json(res, 400, { error: "invalid_grant" });
        const idToken = await new SignJWT({
          email: grant.identity.email,
          email_verified: true,
          name: grant.identity.name,
          nonce: grant.nonce,
        })
          .setProtectedHeader({ alg: "RS256", kid: "e2e-1" })
          .setIssuer(origin)
          .setAudience(STAND_IN_CLIENT_ID)
          .setSubject(grant.identity.sub)
          .setIssuedAt()
          .setExpirationTime("5m")
          .sign(privateKey);
        return json(res, 200, { id_token: idToken, access_token: "stand-in", token_type: "Bearer", expires_in: 300 });
      }
      json(res, 404, { error: "not_found" });
    } catch (err) {
      json(res, 500, { error: String(err) });
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    vars: {
      GOOGLE_CLIENT_ID: STAND_IN_CLIENT_ID,
      GOOGLE_CLIENT_SECRET: STAND_IN_CLIENT_SECRET,
      GOOGLE_AUTHORIZE_URL: `${origin}/authorize`,
      GOOGLE_TOKEN_URL: `${origin}/token`,
      GOOGLE_JWKS_URL: `${origin}/jwks`,
      GOOGLE_ISSUER: origin,
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
