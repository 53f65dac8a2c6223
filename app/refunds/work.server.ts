import type { PrismaClient } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { readRefunds, type ReadbackBody } from "../shopify/admin/refund-readback.server";
import type { ShopWork } from "../work/runner.server";
import { abandonUnsentRecords, recoverUnansweredCalls, unsentWhere, unansweredCallsWhere } from "./recover.server";
import { syncRecordStatus } from "./sync.server";
import { heldWhere, closeRequests } from "./approval.server";

/** Refunds issued in the app whose transactions are still pending at their gateway are read again this often. */
const FOLLOW_PENDING_MS = 60_000;

export interface IssuedRefundsOptions {
  contract: LoadedContract;
  gateway: ShopifyGateway;
}

const pendingTransactionsWhere = (now: Date, shop?: string) => ({
  status: "created",
  refundRef: { not: null },
  updatedAt: { lt: new Date(now.getTime() - FOLLOW_PENDING_MS) },
  ...(shop ? { shop } : {}),
});

/**
 * Refunds issued in the app, as work for the runner, shop by shop: requests for approval past
 * their day expire (and held records whose request was decided are closed), records minted and never sent
 * are abandoned, open attempts (calls Shopify never answered) are recovered, and transactions still
 * pending after the verdict are followed (every minute). It claims nothing: every write to a record checks its
 * revision (decision 006), and a call sent again carries the record's idempotency key (decision 008).
 */
export function issuedRefundsWork(options: IssuedRefundsOptions): ShopWork {
  let lastFollowedAt = -Infinity;
  let following = false;
  return {
    name: "issued refunds",
    async shops({ db, now }) {
      const at = now();
      following = at.getTime() - lastFollowedAt >= FOLLOW_PENDING_MS;
      if (following) lastFollowedAt = at.getTime();
      const where = [unsentWhere(at), unansweredCallsWhere(at), heldWhere(at), ...(following ? [pendingTransactionsWhere(at)] : [])];
      const [rows, expiring] = await Promise.all([
        db.refundRecord.findMany({ where: { OR: where }, select: { shop: true }, distinct: ["shop"], take: 100 }),
        db.refundApproval.findMany({ where: { state: "waiting", expiresAt: { lte: at } }, select: { shop: true }, distinct: ["shop"], take: 100 }),
      ]);
      return [...new Set([...rows, ...expiring].map((row) => row.shop))];
    },
    async handle(shop, { db, now }) {
      const at = now();
      const { expired, closed } = await closeRequests(db, shop, at);
      const abandoned = await abandonUnsentRecords(db, at, shop);
      const recovered = await recoverUnansweredCalls({ db, contract: options.contract, gateway: options.gateway, now: at }, shop);
      const followed = following ? await followPendingTransactions(db, options.gateway, shop, at) : 0;
      return abandoned || recovered || followed || expired || closed ? { abandoned, recovered, followed, expired, closed } : undefined;
    },
  };
}

/** The shop's records whose transactions are still pending: read again, their status follows Shopify's. */
async function followPendingTransactions(db: PrismaClient, gateway: ShopifyGateway, shop: string, at: Date): Promise<number> {
  const records = await db.refundRecord.findMany({ where: pendingTransactionsWhere(at, shop), take: 200 });
  if (!records.length) return 0;
  const outcomes = await readRefunds(
    gateway,
    shop,
    records.map((r) => r.refundRef!),
  );
  let followed = 0;
  for (const record of records) {
    const outcome = outcomes.get(record.refundRef!);
    if (!outcome?.ok) continue;
    await syncRecordStatus(db, { shop, refundGid: record.refundRef!, body: outcome.body, record }, at);
    followed++;
  }
  return followed;
}

/** After a read-back of a refund issued in the app: its record's status follows what Shopify reports of the transaction. */
export function followReadback(db: PrismaClient) {
  return (op: { origin: string; shop: string; refundGid: string }, body: ReadbackBody, now: Date) =>
    op.origin === "app" ? syncRecordStatus(db, { shop: op.shop, refundGid: op.refundGid, body }, now).then(() => undefined) : Promise.resolve();
}
