import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { LoadedContract } from "../contracts/load";
import { createOnce } from "../lib/db/create-once";
import { isShopifyPaymentsRefund } from "./ledger";
import { leaseMs } from "../work/claims.server";

/** Verified refunds given their Settlement a shop and pass: the rest wait for the next pass. */
export const OPEN_BATCH = 200;

/** The read-back channels whose stored data holds the refund's transactions as Shopify gave them. */
const RECORD_CHANNELS = ["refund_readback", "refund_bulk_read"];

const recordedTransactions = z.object({
  data: z.object({
    refund: z
      .object({
        transactions: z.object({
          nodes: z.array(
            z.object({ id: z.string(), kind: z.string(), gateway: z.string().nullable(), status: z.string(), processedAt: z.string().nullable().optional() }),
          ),
        }),
      })
      .nullable(),
  }),
});

/** The transactions the created verdict rested on (a stored JSON column, parsed at the door); null when there is no readable record of them. */
export function transactionsOf(data: string | null) {
  const parsed = recordedTransactions.safeParse(data ? JSON.parse(data) : null);
  return parsed.success && parsed.data.data.refund ? parsed.data.data.refund.transactions.nodes : null;
}

/**
 * Gives every refund VERIFIED since the shop's cursor (and within the contract's timeout) its Settlement, once: a refund with a
 * Shopify Payments refund transaction is PENDING under contract shopify.refund.settled, first read
 * after the contract's initial delay; any other is GATEWAY_ONLY, never judged (Shopify shows
 * nothing of that gateway's money after its SUCCESS). Returns how many it opened.
 */
export async function openSettlements(db: PrismaClient, loaded: LoadedContract, shop: string, now: Date): Promise<number> {
  const state = await db.shopState.findUnique({ where: { shop }, select: { settlementsOpenedUntil: true } });
  // A refund verified longer ago than the contract's timeout is not opened: it would be
  // UNVERIFIABLE at its first read (a shop granting the scopes today, or again after months).
  const oldest = now.getTime() - loaded.contract.timing.timeout_ms;
  // From a lease before the cursor: a worker whose batch of verdicts was stamped earlier may commit
  // it after another's later one moved the cursor (the Settlement filter skips what was opened).
  const since = new Date(Math.max((state?.settlementsOpenedUntil?.getTime() ?? 0) - leaseMs(), oldest));
  const verified = await db.operation.findMany({
    // `gte` and no Settlement yet: a pass decides hundreds of refunds at one instant, so a batch
    // may end inside it, and the next starts there again without what this one opened.
    where: { shop, status: "VERIFIED", decidedAt: { gte: since }, settlement: { is: null } },
    orderBy: [{ decidedAt: "asc" }, { id: "asc" }],
    take: OPEN_BATCH,
    select: {
      id: true,
      refundGid: true,
      decidedAt: true,
      observations: { where: { channel: { in: RECORD_CHANNELS }, ok: true }, orderBy: { observedAt: "desc" }, take: 1, select: { data: true } },
    },
  });
  const { contract } = loaded;
  let opened = 0;
  for (const op of verified) {
    const recorded = transactionsOf(op.observations[0]?.data ?? null);
    const transactions = (recorded ?? []).filter((t) => t.kind === "REFUND");
    const judged = transactions.some(isShopifyPaymentsRefund);
    // No readable record of its transactions, or a refund that moved no money: nothing to follow,
    // and never "at the gateway only" for a refund whose gateway is not known.
    const unfollowed = recorded === null ? "record_unreadable" : transactions.length === 0 ? "no_refund_transactions" : null;
    const startedAt = op.decidedAt ?? now;
    const processedAt = transactions.map((t) => t.processedAt).find(Boolean);
    const created = await createOnce(() =>
      db.settlement.create({
        data: {
          shop,
          operationId: op.id,
          refundGid: op.refundGid,
          contractId: contract.id,
          contractVersion: contract.version,
          contractHash: loaded.computedHash,
          contractDeclaredHash: loaded.declaredHash,
          startedAt,
          status: judged ? "PENDING" : unfollowed ? "NOT_FOLLOWED" : "GATEWAY_ONLY",
          reason: judged ? null : unfollowed,
          money: judged ? "awaiting_ledger" : unfollowed ? "not_followed" : "at_gateway",
          transactionGids: transactions.map((t) => t.id).join(","),
          processedAt: processedAt ? new Date(processedAt) : null,
          nextDueAt: judged ? new Date(Math.max(startedAt.getTime() + contract.timing.initial_delay_ms, now.getTime())) : null,
          decidedAt: judged ? null : now,
        },
      }),
    );
    if (created) opened++;
  }
  const last = verified.at(-1)?.decidedAt;
  if (last && last.getTime() !== since.getTime())
    await db.shopState.upsert({ where: { shop }, create: { shop, settlementsOpenedUntil: last }, update: { settlementsOpenedUntil: last } });
  return opened;
}
