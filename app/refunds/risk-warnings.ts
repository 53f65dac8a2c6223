import { toMinorUnits } from "../lib/money/currency";
import { disputeKind, moneyWithCurrency, pastPaymentMinor, statusClause, type RiskCode, type RiskFacts } from "./risk";

/**
 * The refund form's warnings about money at risk twice, in merchant words (issue 43). Pure: the
 * server words what it read of the order; the page words the amount being typed.
 */

export interface RiskWarning {
  code: RiskCode;
  title: string;
  lines: string[];
}

/**
 * What the app could read of one open dispute's details (ShopifyPaymentsDispute): its amount and
 * due date, or why not. Not granted and not read are said as such, never as "no amount".
 */
export type DisputeDetailsRead =
  { kind: "read"; amount: { amount: string; currencyCode: string }; dueBy: string | null } | { kind: "not_granted" | "failed" | "missing" };

const CONFIRM = "Refunding needs your explicit confirmation.";

function disputeLine(dispute: RiskFacts["openDisputes"][number], read: DisputeDetailsRead): string {
  const kind = disputeKind(dispute.initiatedAs);
  const clause = statusClause(dispute.status);
  switch (read.kind) {
    case "read": {
      const minor = toMinorUnits(read.amount.amount, read.amount.currencyCode);
      const money = minor === undefined ? `${read.amount.amount} ${read.amount.currencyCode}` : moneyWithCurrency(minor, read.amount.currencyCode);
      const due = read.dueBy && dispute.status === "NEEDS_RESPONSE" ? ` by ${read.dueBy}` : "";
      return `A ${kind} of ${money} that ${clause}${due}.`;
    }
    case "not_granted":
      return `A ${kind} that ${clause}. Its amount and due date need the permission to read Shopify Payments disputes (read_shopify_payments_disputes), which this shop has not granted the app: see them in Shopify admin.`;
    case "failed":
      return `A ${kind} that ${clause}. Shopify did not answer when the app asked for its amount and due date: see them in Shopify admin.`;
    case "missing":
      return `A ${kind} that ${clause}. Shopify did not give the app its amount and due date: see them in Shopify admin.`;
  }
}

/** The open chargebacks (or inquiries) of the order, one line each, with what the app could read of them. */
export function chargebackWarning(facts: RiskFacts, reads: DisputeDetailsRead[]): RiskWarning {
  const kinds = new Set(facts.openDisputes.map((d) => disputeKind(d.initiatedAs)));
  const kind = kinds.size === 1 ? [...kinds][0] : "chargeback";
  const title = facts.openDisputes.length === 1 ? `This order has an open ${kind}` : `This order has ${facts.openDisputes.length} open ${kind}s`;
  return {
    code: "OPEN_CHARGEBACK",
    title,
    lines: [
      ...facts.openDisputes.map((dispute, i) => disputeLine(dispute, reads[i] ?? { kind: "missing" })),
      `If the customer wins it, the money is taken back from the shop, so a refund now pays them twice. ${CONFIRM}`,
    ],
  };
}

export function storeCreditWarning(facts: RiskFacts): RiskWarning {
  return {
    code: "STORE_CREDIT_REFUNDED",
    title: "This order was refunded to store credit",
    lines: [
      `${moneyWithCurrency(facts.storeCredit.minor, facts.currency)} of this order already went back to the customer as store credit. A refund to their payment as well may pay them twice for the same items. ${CONFIRM}`,
    ],
  };
}

/** The amount being typed would take the order's refunds past what the customer paid; null when it would not. */
export function pastPaymentWarning(order: { paid: string | null; refunded: string; currency: string }, amountMinor: bigint): RiskWarning | null {
  const paidMinor = order.paid === null ? null : (toMinorUnits(order.paid, order.currency) ?? null);
  const refundedMinor = toMinorUnits(order.refunded, order.currency) ?? null;
  const past = pastPaymentMinor({ paidMinor, refundedMinor }, amountMinor);
  if (past === 0n) return null;
  const money = (minor: bigint) => moneyWithCurrency(minor, order.currency);
  return {
    code: "REFUNDED_PAST_PAYMENT",
    title: "This refund goes past what the customer paid",
    lines: [
      `The customer paid ${money(paidMinor!)} and has been refunded ${money(refundedMinor!)} so far, store credit included. Refunding ${money(amountMinor)} more gives back ${money(past)} more than they paid. ${CONFIRM}`,
    ],
  };
}

const RISK_PHRASES: Record<RiskCode, string> = {
  OPEN_CHARGEBACK: "the order has an open chargeback",
  REFUNDED_PAST_PAYMENT: "it gives back more than the customer paid",
  STORE_CREDIT_REFUNDED: "the order was already refunded to store credit",
};

/** The confirmation's one line on the risks a refund runs: "This refund may pay the customer twice: …". */
export function riskSummary(codes: RiskCode[]): string {
  const phrases = codes.map((code) => RISK_PHRASES[code]);
  const listed = phrases.length > 1 ? `${phrases.slice(0, -1).join(", ")} and ${phrases[phrases.length - 1]}` : phrases[0];
  return `This refund may pay the customer twice: ${listed}.`;
}
