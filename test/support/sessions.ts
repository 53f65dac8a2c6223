import { createCipheriv, randomBytes } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import type { FakeShopify } from "../../fake-shopify/server";
import { openSecret } from "../../app/lib/crypto/secret-box.server";
import { TEST_APP } from "./credentials";

/** An installed shop: an offline session in the app's database whose token the fake shop accepts. */
export async function installShop(db: PrismaClient, shopify: FakeShopify, domain: string): Promise<string> {
  if (!shopify.shops.has(domain)) shopify.addShop(domain);
  const accessToken = `shpat_test_${domain.split(".")[0]}`;
  shopify.grantAccessToken(domain, accessToken);
  await db.session.upsert({
    where: { id: `offline_${domain}` },
    update: { accessToken },
    create: {
      id: `offline_${domain}`,
      shop: domain,
      state: "",
      isOnline: false,
      scope: "read_orders,write_orders",
      accessToken,
      expires: new Date(Date.now() + 24 * 3600_000),
      refreshToken: `shprt_test_${domain.split(".")[0]}`,
      refreshTokenExpires: new Date(Date.now() + 90 * 24 * 3600_000),
    },
  });
  return accessToken;
}

/**
 * A staff member (user 42 unless named) who opened the app in the shop earlier today: their online
 * session as Shopify's library stores it after the fake's token exchange (who they are, from the fake
 * shop's staff; a token the fake accepts; Shopify's day to live). Their requests exchange nothing until
 * it expires: the shop's offline session stays as the test wrote it, and no hook runs as on an install.
 */
export async function staffSignedIn(db: PrismaClient, shopify: FakeShopify, domain: string, userId = "42"): Promise<void> {
  const member = shopify.shop(domain).staff.memberSigningIn(userId);
  const accessToken = `shpua_test_${domain.split(".")[0]}_${userId}`;
  shopify.grantAccessToken(domain, accessToken);
  const row = {
    shop: domain,
    state: "",
    isOnline: true,
    scope: TEST_APP.scopes,
    accessToken,
    expires: new Date(Date.now() + 86399_000),
    userId: BigInt(member.id),
    firstName: member.firstName,
    lastName: member.lastName,
    email: member.email,
    accountOwner: member.accountOwner,
    locale: member.locale,
    collaborator: member.collaborator,
    emailVerified: true,
  };
  await db.session.upsert({ where: { id: `${domain}_${userId}` }, update: row, create: { id: `${domain}_${userId}`, ...row } });
}

/** The shop's offline tokens as the database holds them, and opened with the test app's session key (null: not sealed with it). */
export function storedTokens(db: PrismaClient, domain: string, key = TEST_APP.sessionSecretKey) {
  return storedSessionTokens(db, `offline_${domain}`, key);
}

/** One session's tokens (an online session's id is `${shop}_${userId}`) as the database holds them, and opened as storedTokens opens them. */
export async function storedSessionTokens(db: PrismaClient, sessionId: string, key = TEST_APP.sessionSecretKey) {
  const row = await db.session.findUniqueOrThrow({ where: { id: sessionId } });
  const open = (value: string | null, field: string) => {
    if (!value) return null;
    try {
      return openSecret(value, Buffer.from(key, "hex"), `Session.${field}:${row.id}`);
    } catch {
      return null;
    }
  };
  return {
    stored: { accessToken: row.accessToken, refreshToken: row.refreshToken },
    accessToken: open(row.accessToken, "accessToken"),
    refreshToken: open(row.refreshToken, "refreshToken"),
  };
}

/** A secret sealed as the app sealed it before secrets were bound to their row (`v1`: AES-256-GCM, no associated data). */
export function sealedAsV1(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
}
