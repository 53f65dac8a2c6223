import { signedWith } from "../lib/crypto/hmac";
import { z } from "zod";

/** What this app reads of a session token Shopify admin signed for it (HS256 with the app's secret). */
const CLAIMS = z.object({
  aud: z.string(),
  dest: z.string().url(),
  exp: z.number(),
  nbf: z.number(),
});
const HEADER = z.object({ alg: z.literal("HS256") });

/** Clocks differ a little between Shopify and this server, as Shopify's own libraries allow. */
const LEEWAY_SECONDS = 5;

const json = (part: string): unknown => {
  try {
    return JSON.parse(Buffer.from(part, "base64url").toString());
  } catch {
    return undefined;
  }
};

/**
 * The shop a session token speaks for (its `dest` host), when the token is signed with this app's
 * secret, addressed to this app and within its times; null otherwise. For a request the library
 * does not authenticate itself (/auth/exit-iframe).
 */
export function shopOfSessionToken(token: string, app: { apiKey: string; secret: string }, nowSeconds = Math.floor(Date.now() / 1000)): string | null {
  const [header, payload, signature] = token.split(".");
  if (!header || !payload || !signature || !HEADER.safeParse(json(header)).success) return null;
  if (!signedWith(app.secret, `${header}.${payload}`, signature, "base64url")) return null;
  const claims = CLAIMS.safeParse(json(payload));
  if (!claims.success || claims.data.aud !== app.apiKey) return null;
  if (claims.data.exp + LEEWAY_SECONDS <= nowSeconds || claims.data.nbf - LEEWAY_SECONDS > nowSeconds) return null;
  return new URL(claims.data.dest).hostname;
}
