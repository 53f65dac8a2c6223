import { createHmac, randomUUID } from "node:crypto";

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

export interface SessionTokenClaims {
  iss: string;
  dest: string;
  aud: string;
  sub: string;
  exp: number;
  nbf: number;
  iat: number;
  jti: string;
  sid: string;
}

/** An App Bridge session token: an HS256 JWT signed with the app's secret, as Shopify admin mints it. */
export function mintSessionToken(options: {
  shop: string;
  apiKey: string;
  secret: string;
  userId?: string;
  nowSeconds?: number;
  overrides?: Partial<SessionTokenClaims>;
}): string {
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const claims: SessionTokenClaims = {
    iss: `https://${options.shop}/admin`,
    dest: `https://${options.shop}`,
    aud: options.apiKey,
    sub: options.userId ?? "42",
    exp: now + 60,
    nbf: now - 5,
    iat: now,
    jti: randomUUID(),
    sid: randomUUID(),
    ...options.overrides,
  };
  const unsigned = `${base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${base64url(JSON.stringify(claims))}`;
  return `${unsigned}.${createHmac("sha256", options.secret).update(unsigned).digest("base64url")}`;
}

/** Verifies a session token's signature and times; returns its claims or undefined. */
export function verifySessionToken(token: string, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): SessionTokenClaims | undefined {
  const [header, payload, signature] = token.split(".");
  if (!header || !payload || !signature) return undefined;
  const expected = createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url");
  if (expected !== signature) return undefined;
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as SessionTokenClaims;
  return claims.exp > nowSeconds && claims.nbf <= nowSeconds + 5 ? claims : undefined;
}
