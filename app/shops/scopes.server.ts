import type { PrismaClient } from "@prisma/client";
import { forgetPaymentsAccess } from "../settlement/access.server";

/**
 * What app/scopes_update says the shop now grants: the offline session keeps it, and whatever
 * depends on an optional scope asks Shopify again (the settlement pass, about payouts).
 */
export async function recordGrantedScopes(db: PrismaClient, session: { id: string; shop: string }, scopes: string[]): Promise<void> {
  await db.session.update({ where: { id: session.id }, data: { scope: scopes.join(",") } });
  await forgetPaymentsAccess(db, session.shop);
}
