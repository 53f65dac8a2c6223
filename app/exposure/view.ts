import { z } from "zod";
import { readStored, storedStrings } from "../lib/db/stored-json";
import { money, reasonSentence, type ReasonFacts } from "../verdicts/words";
import { LOST_DISPUTE, OPEN_DISPUTE } from "./order-exposure";

/** What a stored exposure's `observed` holds of its disputes, parsed at the door (a stored JSON column). */
export const storedExposure = z.object({
  order_money: z.object({ paid: z.string(), refunded: z.string(), currency: z.string(), to_store_credit: z.string(), to_payment: z.string() }),
  order_disputes: z.object({
    details: z.boolean(),
    disputes: z.array(
      z.object({
        id: z.string(),
        status: z.string(),
        initiated_as: z.string().nullable(),
        amount: z.string().optional(),
        currency: z.string().optional(),
        reason: z.string().optional(),
        initiated_at: z.string().optional(),
        evidence_due_by: z.string().nullable().optional(),
      }),
    ),
  }),
});
export type StoredExposure = z.infer<typeof storedExposure>;

/** Shopify's DisputeStatus in a merchant's words. */
const DISPUTE_STATUS: Record<string, string> = {
  NEEDS_RESPONSE: "Needs your response",
  UNDER_REVIEW: "Under review by the bank",
  CHARGE_REFUNDED: "Closed: the charge was refunded",
  ACCEPTED: "Accepted: the customer kept the money",
  LOST: "Lost: the customer kept the money",
  WON: "Won",
  PREVENTED: "Prevented",
};

/** ShopifyPaymentsDisputeReason in a merchant's words (the ones a refund bears on named; the rest as Shopify spells them, made readable). */
const DISPUTE_REASON: Record<string, string> = {
  CREDIT_NOT_PROCESSED: "The customer says the refund never came",
  DUPLICATE: "The customer says they were charged twice",
  FRAUDULENT: "The cardholder did not authorize the payment",
  PRODUCT_NOT_RECEIVED: "The customer says the order never arrived",
  PRODUCT_UNACCEPTABLE: "The customer says the items were not as described",
  SUBSCRIPTION_CANCELLED: "The customer says the subscription was cancelled",
  UNRECOGNIZED: "The customer does not recognize the payment",
};

/** Exposure's sentences need no amounts of the refund: they name the order's money themselves. */
const NO_FACTS: ReasonFacts = { requested: { amount: null, currency: null } };

const readable = (code: string) => code.charAt(0) + code.slice(1).toLowerCase().replaceAll("_", " ");

export interface ExposureView {
  state: "clear" | "at_risk" | "reading" | "unreadable";
  title: string;
  tone?: "success" | "critical" | "info";
  /** The headline reason in a merchant's words, then the others. */
  reasons: string[];
  /** The money at stake a second time ("$40.00"), when at risk. */
  atRisk: string | null;
  disputes: { id: string; status: string; open: boolean; lost: boolean; amount: string | null; reason: string | null; evidenceDueBy: string | null }[];
  /** Whether the shop let the app read the disputes' details (read_shopify_payments_disputes). */
  detailsGranted: boolean;
}

/** The evidence page's "Money at risk twice" section, from a stored exposure. */
export function exposureView(
  row: { status: string; reasons: string; atRisk: string | null; currency: string | null },
  observed: StoredExposure | null,
): ExposureView {
  const reasonIds = readStored(storedStrings, row.reasons) ?? [];
  const reasons = row.status === "CONTRADICTED" ? reasonIds.map((id) => reasonSentence(id, NO_FACTS) ?? id) : [];
  const disputes = (observed?.order_disputes.disputes ?? []).map((d) => ({
    id: d.id,
    status: DISPUTE_STATUS[d.status] ?? readable(d.status),
    open: OPEN_DISPUTE.includes(d.status),
    lost: LOST_DISPUTE.includes(d.status),
    amount: d.amount && d.currency ? money(d.amount, d.currency) : null,
    reason: d.reason ? (DISPUTE_REASON[d.reason] ?? readable(d.reason)) : null,
    evidenceDueBy: d.evidence_due_by ?? null,
  }));
  const base = { reasons, disputes, detailsGranted: observed?.order_disputes.details ?? false };
  if (row.status === "CONTRADICTED")
    return { ...base, state: "at_risk", title: "At risk twice", tone: "critical", atRisk: row.atRisk && row.currency ? money(row.atRisk, row.currency) : null };
  if (row.status === "VERIFIED")
    return {
      ...base,
      state: "clear",
      title: "Clear",
      tone: "success",
      atRisk: null,
      reasons: ["No open or lost chargeback on this order, and its refunds add up to no more than the customer paid."],
    };
  if (row.status === "UNVERIFIABLE")
    return { ...base, state: "unreadable", title: "Not known", atRisk: null, reasons: [reasonSentence("order_not_readable_in_window", NO_FACTS)!] };
  return {
    ...base,
    state: "reading",
    title: "Being checked",
    tone: "info",
    atRisk: null,
    reasons: ["The app is reading this order's chargebacks and refunds from Shopify."],
  };
}
