import { paymentsAccess, shopsToAsk } from "./access.server";
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
    // Installed shops (an uninstall deletes the offline session) that hold the payments scopes or
    // sent app/scopes_update: Shopify is asked what they grant at most once a day, and at once after
    // the webhook; a shop with the scopes and an account opens its newly verified refunds by its cursor.
    for (const shop of await shopsToAsk(deps.db)) {
      if ((await paymentsAccess(deps.db, deps.gateway, shop, deps.now())) !== "active") continue;
      opened += await openSettlements(deps.db, deps.contract, shop, deps.now());
    }
    return { opened, ...(await settleDue(deps)) };
  };
}
