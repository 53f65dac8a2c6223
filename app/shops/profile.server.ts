import type { PrismaClient } from "@prisma/client";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { loadShopProfile } from "../shopify/admin/shop.server";

export interface ShopSettings {
  /** IANA time zone every date on the screens is shown in; UTC until Shopify has told us. */
  timeZone: string;
  shopCurrency: string | null;
  /** false when Shopify could not be asked and the time zone is UTC by default. */
  known: boolean;
}

/**
 * The shop's time zone and currency: stored once read from Shopify, read again when missing. A
 * Shopify that does not answer leaves the screens in UTC (said so next to the dates), never broken.
 */
export async function shopSettings(db: PrismaClient, gateway: ShopifyGateway, shop: string): Promise<ShopSettings> {
  const state = await db.shopState.findUnique({ where: { shop }, select: { ianaTimezone: true, shopCurrency: true } });
  if (state?.ianaTimezone) return { timeZone: state.ianaTimezone, shopCurrency: state.shopCurrency, known: true };
  const answer = await loadShopProfile(gateway, shop);
  if (!answer.ok) return { timeZone: "UTC", shopCurrency: state?.shopCurrency ?? null, known: false };
  const profile = { ianaTimezone: answer.data.ianaTimezone, shopCurrency: answer.data.currencyCode };
  await db.shopState.upsert({ where: { shop }, create: { shop, ...profile }, update: profile });
  return { timeZone: profile.ianaTimezone, shopCurrency: profile.shopCurrency, known: true };
}
