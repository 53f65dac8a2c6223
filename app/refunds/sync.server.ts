import type { PrismaClient, RefundRecord } from "@prisma/client";
import { toMinorUnits } from "../lib/money/currency";
import type { ReadbackBody } from "../shopify/admin/refund-readback.server";
import { RevisionConflict, updateRecord } from "./records.server";

const FAILED = new Set(["FAILURE", "ERROR"]);

/**
 * A record's status from every transaction Shopify shows for its refund: failed as soon as one
 * failed at its gateway (a split refund's second gateway included), succeeded only when all
 * succeeded, created while any is still pending.
 */
export function statusFromTransactions(
  transactions: { status: string; gateway?: string | null; errorCode?: string | null }[],
): { status: "succeeded" | "failed"; failureReason: string | null } | null {
  const failed = transactions.filter((t) => FAILED.has(t.status));
  if (failed.length) {
    return {
      status: "failed",
      failureReason: failed.map((t) => `The ${t.gateway ?? "payment"} gateway reported ${t.status}${t.errorCode ? ` (${t.errorCode})` : ""}.`).join(" "),
    };
  }
  if (transactions.length && transactions.every((t) => t.status === "SUCCESS")) return { status: "succeeded", failureReason: null };
  return null;
}

/** A refund issued in the app as Shopify answered a read of it, and its record when the reader has it. */
export interface ReadRefund {
  shop: string;
  refundGid: string;
  body: ReadbackBody;
  record?: RefundRecord;
}

/**
 * What the verification path read of the refund moves its record: the status from its
 * transactions, and the shop-money amount once Shopify reports it. Writes only what changed (so
 * the revision rotates only on a change); says whether it wrote.
 */
export async function syncRecordStatus(db: PrismaClient, read: ReadRefund, now: Date): Promise<boolean> {
  const refund = read.body.data.refund;
  if (!refund) return false;
  const record = read.record ?? (await db.refundRecord.findFirst({ where: { shop: read.shop, refundRef: read.refundGid } }));
  if (!record) return false;
  const data: Parameters<typeof updateRecord>[2] = {};
  const next = record.status === "created" ? statusFromTransactions(refund.transactions.nodes) : null;
  if (next) Object.assign(data, next);
  const shopMoney = refund.totalRefundedSet.shopMoney;
  const shopAmountMinor = toMinorUnits(shopMoney.amount, shopMoney.currencyCode);
  if (shopAmountMinor !== undefined && (record.shopAmountMinor !== shopAmountMinor || record.shopCurrency !== shopMoney.currencyCode)) {
    Object.assign(data, { shopAmountMinor, shopCurrency: shopMoney.currencyCode });
  }
  if (!Object.keys(data).length) return false;
  try {
    await updateRecord(db, record, data, now);
    return true;
  } catch (error) {
    if (!(error instanceof RevisionConflict)) throw error;
    return false;
  }
}
