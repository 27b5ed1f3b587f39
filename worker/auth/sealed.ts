/**
 * Short secrets sealed for storage (AES-256-GCM under a key derived from AUTH_SECRET, a fresh 96-bit nonce each),
 * for the one place a stored secret must be read back: the development outbox shows the code a mail carried
 * (services/mail.ts). A sealed value names no key; one sealed under another AUTH_SECRET, or altered, opens to null.
 */
import type { Settings } from "../env";
import { base64url, fromBase64url } from "../services/ids";
import { derivedKey } from "./tokens";

const NONCE_BYTES = 12;
const keys = new Map<string, Promise<CryptoKey>>();

function aesKey(settings: Settings): Promise<CryptoKey> {
  let key = keys.get(settings.authSecret);
  if (!key) {
    key = crypto.subtle
      .digest("SHA-256", derivedKey(settings, "sealed-secret"))
      .then((raw) => crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]));
    keys.set(settings.authSecret, key);
  }
  return key;
}

export async function seal(settings: Settings, secret: string): Promise<string> {
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce }, await aesKey(settings), new TextEncoder().encode(secret)));
  return `${base64url(nonce)}.${base64url(sealed)}`;
}

export async function unseal(settings: Settings, value: string): Promise<string | null> {
  const [nonce, sealed] = value.split(".");
  if (!nonce || !sealed) return null;
  try {
    const opened = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64url(nonce) }, await aesKey(settings), fromBase64url(sealed));
    return new TextDecoder().decode(opened);
  } catch {
    return null;
  }
}
