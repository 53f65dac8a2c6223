import type { PrismaClient } from "@prisma/client";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { loadShopProfile } from "../shopify/admin/shop.server";

export type Installation = "installed" | "uninstalled" | "unknown";

/**
 * Whether the app is installed in the shop, by Shopify's word, not by a delivery's: an uninstall
 * revokes the shop's offline token at once, so Shopify answering with it means installed. No
 * session, or Shopify refusing the token, means not installed; Shopify not answering, unknown.
 */
export async function installationAtShopify(db: PrismaClient, gateway: ShopifyGateway, shop: string): Promise<Installation> {
  if (!(await db.session.findFirst({ where: { shop, isOnline: false }, select: { id: true } }))) return "uninstalled";
  const answer = await loadShopProfile(gateway, shop);
  if (answer.ok) return "installed";
  return answer.kind === "rejected" || answer.kind === "session" ? "uninstalled" : "unknown";
}
