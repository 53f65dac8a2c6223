import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { REFUND_SETTLED } from "../contracts/registry.server";
import type { FollowUp, OpenedRow, VerifiedRefund } from "../follow-ups/follow-up";
import { paymentsAccess, shopsToAsk } from "../shops/payments.server";
import { isShopifyPaymentsRefund } from "./ledger";
import { judgeSettlements } from "./settle.server";

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
function transactionsOf(data: string | null) {
  const parsed = recordedTransactions.safeParse(data ? JSON.parse(data) : null);
  return parsed.success && parsed.data.data.refund ? parsed.data.data.refund.transactions.nodes : null;
}

/** What the opener reads of a verified refund: its latest record of the refund's transactions. */
const latestRecord = z.object({ observations: z.array(z.object({ data: z.string().nullable() })) });

/**
 * A refund with a Shopify Payments refund transaction is PENDING under contract
 * shopify.refund.settled, first read after the contract's initial delay; any other is GATEWAY_ONLY,
 * never judged (Shopify shows nothing of that gateway's money after its SUCCESS). No readable
 * record of its transactions, or a refund that moved no money: nothing to follow, and never "at
 * the gateway only" for a refund whose gateway is not known.
 */
function openSettlement(db: PrismaClient, row: OpenedRow, refund: VerifiedRefund, now: Date) {
  const read = latestRecord.safeParse(refund);
  const recorded = transactionsOf(read.success ? (read.data.observations[0]?.data ?? null) : null);
  const transactions = (recorded ?? []).filter((t) => t.kind === "REFUND");
  const judged = transactions.some(isShopifyPaymentsRefund);
  const unfollowed = recorded === null ? "record_unreadable" : transactions.length === 0 ? "no_refund_transactions" : null;
  const processedAt = transactions.map((t) => t.processedAt).find(Boolean);
  const { initial_delay_ms } = SETTLEMENT.contract.contract.timing;
  return db.settlement.create({
    data: {
      ...row,
      status: judged ? "PENDING" : unfollowed ? "NOT_FOLLOWED" : "GATEWAY_ONLY",
      reason: judged ? null : unfollowed,
      money: judged ? "awaiting_ledger" : unfollowed ? "not_followed" : "at_gateway",
      transactionGids: transactions.map((t) => t.id).join(","),
      processedAt: processedAt ? new Date(processedAt) : null,
      nextDueAt: judged ? new Date(Math.max(row.startedAt.getTime() + initial_delay_ms, now.getTime())) : null,
      decidedAt: judged ? null : now,
    },
  });
}

/**
 * Where a verified refund's money went (contract shopify.refund.settled, decision 025): a Shopify
 * Payments refund followed through the ledger to its payout and its card network reference. Opened
 * for installed shops (an uninstall deletes the offline session) that hold the payments scopes or
 * sent app/scopes_update, once Shopify says they have an account the app may read (asked at most
 * once a day, and at once after the webhook); a shop at a time, money moving in hours.
 */
export const SETTLEMENT: FollowUp<"settlements"> = {
  name: "settlement",
  queue: "settlements",
  contract: REFUND_SETTLED,
  cursor: "settlementsOpenedUntil",
  relation: "settlement",
  shops: (db) => shopsToAsk(db),
  opensFor: async (shop, { db, now }, { gateway }) => (await paymentsAccess(db, gateway, shop, now())) === "active",
  reads: {
    observations: { where: { channel: { in: RECORD_CHANNELS }, ok: true }, orderBy: { observedAt: "desc" }, take: 1, select: { data: true } },
  },
  open: openSettlement,
  // One ledger read serves a shop's rows: 200 at once, a shop at a time.
  judging: { batch: 200, maxShops: 50, concurrency: 1, judge: (rows, helpers, options) => judgeSettlements(SETTLEMENT, rows, helpers, options) },
};
