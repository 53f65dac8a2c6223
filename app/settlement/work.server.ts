import { noteTotal, runRowWork, runShopWork, type Helpers, type ShopWork } from "../work/runner.server";
import { paymentsAccess, shopsToAsk } from "../shops/payments.server";
import { openSettlements } from "./open.server";
import { settlementWork, type SettleOptions } from "./settle.server";

/**
 * Installed shops (an uninstall deletes the offline session) that hold the payments scopes or sent
 * app/scopes_update: Shopify is asked what they grant at most once a day, and at once after the
 * webhook; a shop with the scopes and a Shopify Payments account gives its newly VERIFIED refunds
 * a Settlement, by its cursor. It claims nothing: a settlement is created once (unique refund).
 */
function openingWork(options: SettleOptions): ShopWork {
  return {
    name: "settlement opening",
    shops: ({ db }) => shopsToAsk(db),
    async handle(shop, { db, now }) {
      if ((await paymentsAccess(db, options.gateway, shop, now())) !== "active") return;
      const opened = await openSettlements(db, options.contract, shop, now());
      return opened ? { opened } : undefined;
    },
  };
}

/** The worker's settlement pass (contract shopify.refund.settled): settlements are opened, then every one due is read, a shop at a time. */
export function settlementPass(options: SettleOptions): (helpers: Helpers) => Promise<{ opened: number; read: number; decided: number }> {
  const [opening, settling] = [openingWork(options), settlementWork(options)];
  return async (helpers) => {
    const { notes } = await runShopWork(opening, helpers);
    const pass = await runRowWork(settling, helpers);
    return { opened: noteTotal(notes, "opened"), read: pass.claimed, decided: pass.notes.length };
  };
}
