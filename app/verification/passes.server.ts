import type { PrismaClient } from "@prisma/client";
import type { Logger } from "pino";
import type { LoadedContract } from "../contracts/load";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { shopsDueForSweep, sweepShop } from "./reconcile.server";
import { config } from "../config/env.server";

export interface SweepDeps {
  db: PrismaClient;
  contract: LoadedContract;
  gateway: ShopifyGateway;
  now: () => Date;
  logger: Logger;
  sweepIntervalMs?: number;
}

/** The worker's reconciliation pass: every shop due for a sweep reads its recently updated orders for refunds whose webhook was lost. */
export function sweepPass(deps: SweepDeps): () => Promise<number> {
  const intervalMs = deps.sweepIntervalMs ?? config().VERIFIER_SWEEP_INTERVAL_MS;
  const firstLookBackMs = config().VERIFIER_FIRST_SWEEP_LOOKBACK_MS;
  return async () => {
    let opened = 0;
    for (const shop of await shopsDueForSweep(deps.db, deps.now(), intervalMs)) {
      const sweep = await sweepShop(deps.db, deps.gateway, deps.contract, shop, deps.now(), firstLookBackMs);
      opened += sweep.opened;
      if (!sweep.completed) deps.logger.child({ shop }).warn({ error: sweep.error }, "sweep paused; it resumes from its cursor");
    }
    return opened;
  };
}
