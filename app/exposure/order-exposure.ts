import { z } from "zod";
import { fromMinorUnits, toMinorUnits } from "../lib/money/currency";

/**
 * What contract shopify.refund.exposure observes of a refund's order, from Shopify's record alone
 * (decision 028). Pure: the order read and the disputes' details come in, the two channels' outputs
 * go out; the engine judges them.
 */

const money = z.object({ amount: z.string(), currencyCode: z.string() });
const moneyBag = z.object({ presentmentMoney: money });

/** The order as ORDER_EXPOSURE_QUERY reads it: parsed at the door, never cast. */
export const exposureOrderSchema = z.object({
  id: z.string(),
  totalReceivedSet: moneyBag,
  disputes: z.array(z.object({ id: z.string(), status: z.string(), initiatedAs: z.string().nullable().optional() })),
  refunds: z.array(
    z.object({
      id: z.string(),
      createdAt: z.string(),
      totalRefundedSet: moneyBag,
      transactions: z.object({
        nodes: z.array(z.object({ kind: z.string(), status: z.string(), gateway: z.string().nullable(), amountSet: moneyBag })),
      }),
      refundLineItems: z.object({
        nodes: z.array(z.object({ quantity: z.number().int(), lineItem: z.object({ id: z.string(), quantity: z.number().int() }) })),
      }),
    }),
  ),
});
export type ExposureOrder = z.infer<typeof exposureOrderSchema>;

/** A dispute's details (ShopifyPaymentsDispute), readable with read_shopify_payments_disputes only. */
export const disputeDetailsSchema = z.object({
  id: z.string(),
  status: z.string(),
  amount: money,
  reasonDetails: z.object({ reason: z.string() }),
  initiatedAt: z.string(),
  evidenceDueBy: z.string().nullable(),
  finalizedOn: z.string().nullable(),
});
export type DisputeDetails = z.infer<typeof disputeDetailsSchema>;

/**
 * The ShopifyPaymentsDispute an Order.disputes summary is about: Shopify gives the summary its own
 * type name and the dispute's number (fake-shopify/DISPUTES-AND-STORE-CREDIT.md: inferred, as
 * Shopify's docs do not say). A summary already named as the dispute is kept as it is.
 */
export function paymentsDisputeGid(summaryId: string): string {
  return summaryId.replace(/^gid:\/\/shopify\/OrderDisputeSummary\//, "gid://shopify/ShopifyPaymentsDispute/");
}

/** A dispute the shop can still answer: its money is at risk. */
export const OPEN_DISPUTE = ["NEEDS_RESPONSE", "UNDER_REVIEW"];
/** A dispute the shop lost or gave up: the card network took the money back. */
export const LOST_DISPUTE = ["LOST", "ACCEPTED"];

/**
 * A refund to store credit as Shopify shows it on the refund: a REFUND transaction through the
 * store-credit gateway (fake-shopify/DISPUTES-AND-STORE-CREDIT.md has the sources).
 */
export const STORE_CREDIT_GATEWAY = "shopify_store_credit";

const refunded = (t: { kind: string; status: string }) => t.kind === "REFUND" && t.status === "SUCCESS";

export interface OrderMoney {
  paid: string;
  refunded: string;
  currency: string;
  over_refunded_by: string;
  to_store_credit: string;
  to_payment: string;
  store_credit_and_payment: boolean;
  lines_refunded_past_ordered: number;
}

/**
 * The order's money in its presentment currency, as it stood when `refundGid` was made: what was
 * paid, and the refunds up to and including that one (by Shopify's createdAt), store credit
 * included. A refund is over what was paid only when it took the order past it, and only by as
 * much as it added: the refunds before it were within the payment, and a later duplicate is its
 * own verdict's business, not theirs. A refund the read does not list is judged with every refund.
 */
export function orderMoney(order: ExposureOrder, refundGid?: string): OrderMoney {
  const currency = order.totalReceivedSet.presentmentMoney.currencyCode;
  const minor = (m: { amount: string; currencyCode: string }) => (m.currencyCode === currency ? (toMinorUnits(m.amount, currency) ?? 0n) : 0n);
  const paid = minor(order.totalReceivedSet.presentmentMoney);
  const upTo = refundsUpTo(order.refunds, refundGid);
  let total = 0n;
  let toStoreCredit = 0n;
  let toPayment = 0n;
  for (const refund of upTo) {
    total += minor(refund.totalRefundedSet.presentmentMoney);
    for (const t of refund.transactions.nodes.filter(refunded)) {
      if (t.gateway === STORE_CREDIT_GATEWAY) toStoreCredit += minor(t.amountSet.presentmentMoney);
      else toPayment += minor(t.amountSet.presentmentMoney);
    }
  }
  const own = refundGid ? upTo.find((r) => r.id === refundGid) : undefined;
  const past = total > paid ? total - paid : 0n;
  // No more than the refund itself added: the rest was over before it.
  const over = own ? minBig(past, minor(own.totalRefundedSet.presentmentMoney)) : past;
  const pastOrdered = linesRefundedPastOrdered(upTo, own);
  return {
    paid: fromMinorUnits(paid, currency),
    refunded: fromMinorUnits(total, currency),
    currency,
    over_refunded_by: fromMinorUnits(over, currency),
    to_store_credit: fromMinorUnits(toStoreCredit, currency),
    to_payment: fromMinorUnits(toPayment, currency),
    store_credit_and_payment: toStoreCredit > 0n && toPayment > 0n && (over > 0n || pastOrdered > 0),
    lines_refunded_past_ordered: pastOrdered,
  };
}

const minBig = (a: bigint, b: bigint) => (a < b ? a : b);

/** The order's refunds up to and including `refundGid`, in the order Shopify made them; all of them when it is not among them. */
function refundsUpTo(refunds: ExposureOrder["refunds"], refundGid: string | undefined): ExposureOrder["refunds"] {
  const made = [...refunds].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id.localeCompare(b.id, "en", { numeric: true }));
  const at = refundGid ? made.findIndex((r) => r.id === refundGid) : -1;
  return at === -1 ? made : made.slice(0, at + 1);
}

/**
 * Line items refunded more times than they were ordered, over these refunds; with `own`, only the
 * lines this refund itself took past their quantity.
 */
function linesRefundedPastOrdered(refunds: ExposureOrder["refunds"], own: ExposureOrder["refunds"][number] | undefined): number {
  const byLine = new Map<string, { ordered: number; refunded: number }>();
  for (const refund of refunds)
    for (const { quantity, lineItem } of refund.refundLineItems.nodes) {
      const line = byLine.get(lineItem.id) ?? { ordered: lineItem.quantity, refunded: 0 };
      line.refunded += quantity;
      byLine.set(lineItem.id, line);
    }
  const ownLines = own ? new Set(own.refundLineItems.nodes.map((n) => n.lineItem.id)) : null;
  return [...byLine].filter(([id, line]) => line.refunded > line.ordered && (!ownLines || ownLines.has(id))).length;
}

export interface OrderDisputes {
  open: number;
  lost: number;
  lost_amount: string | null;
  open_after_refund?: number;
  open_credit_not_processed?: number;
  /** Whether the disputes' details were read (the shop granted read_shopify_payments_disputes). */
  details: boolean;
  disputes: {
    id: string;
    status: string;
    initiated_as: string | null;
    amount?: string;
    currency?: string;
    reason?: string;
    initiated_at?: string;
    evidence_due_by?: string | null;
  }[];
}

/**
 * The order's disputes as they bear on this refund: how many are open, how many were lost and for
 * how much, and, with the details, how many opened after the refund or say it never came.
 * `details` null: not granted, so what only the details tell stays unknown (absent, never 0).
 */
export function orderDisputes(order: ExposureOrder, refundCreatedAt: Date, details: Map<string, DisputeDetails> | null): OrderDisputes {
  const disputes = order.disputes.map((d) => ({ summary: d, detail: details?.get(paymentsDisputeGid(d.id)) }));
  const open = disputes.filter((d) => OPEN_DISPUTE.includes(d.summary.status));
  const lost = disputes.filter((d) => LOST_DISPUTE.includes(d.summary.status));
  const lostAmounts = lost.map((d) => d.detail?.amount);
  const currency = lostAmounts[0]?.currencyCode;
  const knownLost = lostAmounts.length > 0 && currency !== undefined && lostAmounts.every((m) => m?.currencyCode === currency);
  const result: OrderDisputes = {
    open: open.length,
    lost: lost.length,
    lost_amount: knownLost
      ? fromMinorUnits(
          lostAmounts.reduce((sum, m) => sum + (toMinorUnits(m!.amount, currency) ?? 0n), 0n),
          currency,
        )
      : null,
    details: details !== null,
    disputes: disputes.map(({ summary, detail }) => ({
      id: summary.id,
      status: summary.status,
      initiated_as: summary.initiatedAs ?? null,
      ...(detail
        ? {
            amount: detail.amount.amount,
            currency: detail.amount.currencyCode,
            reason: detail.reasonDetails.reason,
            initiated_at: detail.initiatedAt,
            evidence_due_by: detail.evidenceDueBy,
          }
        : {}),
    })),
  };
  if (details !== null && open.every((d) => d.detail)) {
    result.open_after_refund = open.filter((d) => Date.parse(d.detail!.initiatedAt) >= refundCreatedAt.getTime()).length;
    result.open_credit_not_processed = open.filter((d) => d.detail!.reasonDetails.reason === "CREDIT_NOT_PROCESSED").length;
  }
  return result;
}

/**
 * The money at risk twice: a lost dispute's amount, else the open disputes' (with their details),
 * else what was refunded past the payment, else, for a dispute whose amount the app may not read,
 * the refund's own amount (what the shop pays twice if it is lost).
 */
export function moneyAtRisk(
  money: OrderMoney,
  disputes: OrderDisputes,
  refund: { amount: string; currency: string } | null,
): { amount: string; currency: string } | null {
  if (disputes.lost_amount !== null) return { amount: disputes.lost_amount, currency: disputes.disputes.find((d) => d.currency)?.currency ?? money.currency };
  const open = disputes.disputes.filter((d) => OPEN_DISPUTE.includes(d.status) && d.amount && d.currency);
  if (open.length && open.every((d) => d.currency === open[0].currency))
    return {
      amount: fromMinorUnits(
        open.reduce((sum, d) => sum + (toMinorUnits(d.amount!, d.currency!) ?? 0n), 0n),
        open[0].currency!,
      ),
      currency: open[0].currency!,
    };
  if (toMinorUnits(money.over_refunded_by, money.currency)! > 0n) return { amount: money.over_refunded_by, currency: money.currency };
  if (disputes.open > 0 || disputes.lost > 0) return refund;
  return null;
}
