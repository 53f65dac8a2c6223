import { createCipheriv, randomBytes } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import type { FakeShopify } from "../../fake-shopify/server";
import { openSecret } from "../../app/crypto/secret-box.server";
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

/** The shop's offline tokens as the database holds them, and opened with the test app's session key (null: not sealed with it). */
export async function storedTokens(db: PrismaClient, domain: string, key = TEST_APP.sessionSecretKey) {
  const row = await db.session.findUniqueOrThrow({ where: { id: `offline_${domain}` } });
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
