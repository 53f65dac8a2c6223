import { paymentsAccess } from "./access.server";
import { openSettlements } from "./open.server";
import { settleDue, type SettleDeps } from "./settle.server";

/**
 * The worker's settlement pass: shops that granted the payments scopes (PAYMENTS_SCOPES) and have a
 * Shopify Payments account give their newly VERIFIED refunds a Settlement, then every settlement
 * due is read, a shop at a time (contract shopify.refund.settled).
 */
export function settlementPass(deps: SettleDeps): () => Promise<{ opened: number; read: number; decided: number }> {
  return async () => {
    let opened = 0;
    // Every installed shop (an uninstall deletes its offline session), every pass: Shopify is asked
    // what it grants at most once a day (and after app/scopes_update), so a grant is seen even when
    // its webhook is lost; a shop with the scopes and an account opens its newly verified refunds by its cursor.
    const sessions = await deps.db.session.findMany({ where: { isOnline: false }, select: { shop: true }, distinct: ["shop"] });
    for (const { shop } of sessions) {
      if ((await paymentsAccess(deps.db, deps.gateway, shop, deps.now())) !== "active") continue;
      opened += await openSettlements(deps.db, deps.contract, shop, deps.now());
    }
    return { opened, ...(await settleDue(deps)) };
  };
}
