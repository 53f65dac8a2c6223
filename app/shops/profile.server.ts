import type { PrismaClient } from "@prisma/client";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { loadShopProfile } from "../shopify/admin/shop.server";

/** How long a shop whose time zone Shopify did not give stays in UTC before Shopify is asked again. */
const ASK_AGAIN_AFTER_MS = 600_000;
const unreadableAt = new Map<string, number>();

/**
 * The shop's IANA time zone, the one answer for every screen, message and digest: the zone stored
 * once read from Shopify. With none stored, Shopify is asked when `ask` names a gateway (the screens,
 * the digest) and its answer stored with the shop's currency; the instant alerts and the alerts page
 * only read what is stored. UTC otherwise, never an error (the evidence page says its times are in
 * UTC): Shopify not answering leaves the shop in UTC and is not asked again for 10 minutes, as the
 * worker looks at every digest shop on every pass.
 */
export async function shopTimeZone(db: PrismaClient, shop: string, ask?: { gateway: ShopifyGateway; now: Date }): Promise<string> {
  return (await shopProfile(db, shop, "ianaTimezone", ask)) ?? "UTC";
}

/** The shop's currency, the same way: what is stored, else Shopify's answer when `ask` names a gateway; null when unknown. */
export async function shopCurrency(db: PrismaClient, shop: string, ask?: { gateway: ShopifyGateway; now: Date }): Promise<string | null> {
  return shopProfile(db, shop, "shopCurrency", ask);
}

async function shopProfile(db: PrismaClient, shop: string, field: "ianaTimezone" | "shopCurrency", ask?: { gateway: ShopifyGateway; now: Date }) {
  const state = await db.shopState.findUnique({ where: { shop }, select: { ianaTimezone: true, shopCurrency: true } });
  if (state?.[field]) return state[field];
  if (!ask || (unreadableAt.get(shop) ?? -Infinity) > ask.now.getTime() - ASK_AGAIN_AFTER_MS) return null;
  const answer = await loadShopProfile(ask.gateway, shop).catch(() => null);
  if (!answer?.ok) {
    unreadableAt.set(shop, ask.now.getTime());
    return null;
  }
  unreadableAt.delete(shop);
  const profile = { ianaTimezone: answer.data.ianaTimezone, shopCurrency: answer.data.currencyCode };
  await db.shopState.upsert({ where: { shop }, create: { shop, ...profile }, update: profile });
  return profile[field];
}
