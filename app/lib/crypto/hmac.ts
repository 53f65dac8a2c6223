import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Whether `signature` is the HMAC-SHA256 of `message` under `secret`, written in `encoding`: the one
 * check of a signature the app makes (decision 036). Shopify signs a webhook's raw body and Flow its
 * lifecycle callback in base64; a session token's header and payload in base64url (HS256). Compared
 * in constant time, as the canonical text of the expected digest: any other spelling is refused.
 */
export function signedWith(secret: string, message: string, signature: string | null | undefined, encoding: "base64" | "base64url"): boolean {
  if (!signature || !secret) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(message, "utf8").digest(encoding));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
