import type { LoadedContract } from "../contracts/load";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import type { ShopWork } from "../work/runner.server";
import { shopsDueForSweep, sweepShop } from "./reconcile.server";
import { config } from "../lib/config/env.server";

export interface SweepOptions {
  contract: LoadedContract;
  gateway: ShopifyGateway;
  sweepIntervalMs?: number;
}

/**
 * Reconciliation, as work for the runner: every shop due for a sweep reads its recently updated
 * orders for refunds whose webhook was lost. It claims nothing: the sweep's cursor is stored after
 * each page, and an operation is opened once whoever opens it (the unique refund), so two workers
 * sweeping one shop at once read a page twice and open nothing twice.
 */
export function sweepWork(options: SweepOptions): ShopWork {
  const intervalMs = options.sweepIntervalMs ?? config().VERIFIER_SWEEP_INTERVAL_MS;
  const firstLookBackMs = config().VERIFIER_FIRST_SWEEP_LOOKBACK_MS;
  return {
    name: "sweep",
    shops: ({ db, now }) => shopsDueForSweep(db, now(), intervalMs),
    async handle(shop, { db, now, logger }) {
      const sweep = await sweepShop({ db, gateway: options.gateway, contract: options.contract, shop, now: now() }, firstLookBackMs);
      if (!sweep.completed) logger.warn({ error: sweep.error }, "sweep paused; it resumes from its cursor");
      return sweep.opened ? { opened: sweep.opened } : undefined;
    },
  };
}
