import type { PrismaClient } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { readRefunds, type ReadbackBody } from "../shopify/admin/refund-readback.server";
import { abandonUnsentRecords, recoverUnsettledRecords } from "./recover.server";
import { syncRecordStatus } from "./sync.server";

/** Refunds issued in the app whose transactions still settle are read again this often. */
const SETTLE_INTERVAL_MS = 60_000;

export interface IssuedRefundsDeps {
  db: PrismaClient;
  contract: LoadedContract;
  gateway: ShopifyGateway;
  now: () => Date;
}

/**
 * The worker's pass for refunds issued in the app: settle calls Shopify never answered, and follow
 * transactions still settling after the verdict (every minute).
 */
export function issuedRefundsPass(deps: IssuedRefundsDeps): () => Promise<void> {
  let lastSettleAt = -Infinity;
  return async () => {
    const at = deps.now();
    await abandonUnsentRecords(deps.db, at);
    await recoverUnsettledRecords(deps.db, deps.contract, deps.gateway, at);
    if (at.getTime() - lastSettleAt < SETTLE_INTERVAL_MS) return;
    lastSettleAt = at.getTime();
    const settling = await deps.db.refundRecord.findMany({
      where: { status: "created", refundRef: { not: null }, updatedAt: { lt: new Date(at.getTime() - SETTLE_INTERVAL_MS) } },
      take: 200,
    });
    for (const [shop, records] of Map.groupBy(settling, (record) => record.shop)) {
      const outcomes = await readRefunds(
        deps.gateway,
        shop,
        records.map((r) => r.refundRef!),
      );
      for (const record of records) {
        const outcome = outcomes.get(record.refundRef!);
        if (outcome?.ok) await syncRecordStatus(deps.db, shop, record.refundRef!, outcome.body, at, record);
      }
    }
  };
}

/** After a read-back of a refund issued in the app: its record's status follows what Shopify reports of the transaction. */
export function followReadback(db: PrismaClient) {
  return (op: { origin: string; shop: string; refundGid: string }, body: ReadbackBody, now: Date) =>
    op.origin === "app" ? syncRecordStatus(db, op.shop, op.refundGid, body, now).then(() => undefined) : Promise.resolve();
}
