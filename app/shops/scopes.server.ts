import type { PrismaClient } from "@prisma/client";

/**
 * The scopes Shopify says the shop granted (currentAppInstallation.accessScopes, read with the
 * shop's own token), kept on its offline session as the Shopify library keeps them. Only an answer
 * of Shopify's is recorded here, never a webhook's body.
 */
export async function recordGrantedScopes(db: PrismaClient, shop: string, scopes: string[]): Promise<void> {
  await db.session.updateMany({ where: { shop, isOnline: false }, data: { scope: scopes.join(",") } });
}
