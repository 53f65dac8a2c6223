import { OPEN_DISPUTE, STORE_CREDIT_GATEWAY } from "../exposure/order-exposure";
import { formatMoney, toMinorUnits } from "../lib/money/currency";

/**
 * A refund that could pay the customer twice (issue 43, decision 028), judged before the app asks
 * Shopify for it: an open chargeback on the order, an earlier refund to store credit, or refunds
 * that would add up to more than the customer paid. Each needs "Yes, refund anyway", naming it.
 * Pure: the refund form's page uses it as the server does.
 */

/** In the order the refusal names them: the money the shop may lose first. */
export const RISK_CODES = ["OPEN_CHARGEBACK", "REFUNDED_PAST_PAYMENT", "STORE_CREDIT_REFUNDED"] as const;
export type RiskCode = (typeof RISK_CODES)[number];
export const isRiskCode = (code: string): code is RiskCode => (RISK_CODES as readonly string[]).includes(code);

/** The order as ORDER_FOR_REFUND_QUERY reads it, as far as the risks need it. */
export interface RiskOrder {
  id: string;
  name: string;
  presentmentCurrencyCode: string;
  totalRefundedSet: { presentmentMoney: { amount: string; currencyCode: string } };
  totalReceivedSet: { presentmentMoney: { amount: string; currencyCode: string } };
  disputes: { id: string; status: string; initiatedAs?: string | null }[];
  transactions: {
    id: string;
    kind: string;
    status: string;
    gateway?: string | null;
    amountSet: { presentmentMoney: { amount: string; currencyCode: string } };
  }[];
}

export interface RiskFacts {
  orderId: string;
  orderName: string;
  currency: string;
  /** What the customer paid and what went back (store credit included), in the order's presentment currency; null when Shopify's figure is in another. */
  paidMinor: bigint | null;
  refundedMinor: bigint | null;
  openDisputes: { id: string; status: string; initiatedAs: string | null }[];
  storeCredit: { ids: string[]; minor: bigint };
}

export function riskFacts(order: RiskOrder): RiskFacts {
  const currency = order.presentmentCurrencyCode;
  const minor = (money: { amount: string; currencyCode: string }) => (money.currencyCode === currency ? (toMinorUnits(money.amount, currency) ?? null) : null);
  const toStoreCredit = order.transactions.filter((t) => t.kind === "REFUND" && t.status === "SUCCESS" && t.gateway === STORE_CREDIT_GATEWAY);
  return {
    orderId: order.id,
    orderName: order.name,
    currency,
    paidMinor: minor(order.totalReceivedSet.presentmentMoney),
    refundedMinor: minor(order.totalRefundedSet.presentmentMoney),
    openDisputes: order.disputes
      .filter((d) => OPEN_DISPUTE.includes(d.status))
      .map((d) => ({ id: d.id, status: d.status, initiatedAs: d.initiatedAs ?? null })),
    storeCredit: { ids: toStoreCredit.map((t) => t.id), minor: toStoreCredit.reduce((sum, t) => sum + (minor(t.amountSet.presentmentMoney) ?? 0n), 0n) },
  };
}

/**
 * How far a refund of `amountMinor` takes the order's refunds past what the customer paid (0n when
 * not past it). Unlike the over-refund check (Shopify's suggested maximum, what Shopify lets the app
 * refund), this adds up Shopify's record of the refunds, store credit included, against the payment.
 */
export function pastPaymentMinor(facts: Pick<RiskFacts, "paidMinor" | "refundedMinor">, amountMinor: bigint): bigint {
  if (facts.paidMinor === null || facts.refundedMinor === null) return 0n;
  const past = facts.refundedMinor + amountMinor - facts.paidMinor;
  return past > 0n ? past : 0n;
}

/** The risks a refund of `amountMinor` on this order runs, in RISK_CODES' order. */
export function refundRisks(facts: RiskFacts, amountMinor: bigint): RiskCode[] {
  const risks: RiskCode[] = [];
  if (facts.openDisputes.length) risks.push("OPEN_CHARGEBACK");
  if (pastPaymentMinor(facts, amountMinor) > 0n) risks.push("REFUNDED_PAST_PAYMENT");
  if (facts.storeCredit.minor > 0n) risks.push("STORE_CREDIT_REFUNDED");
  return risks;
}

/** "$20.00 USD": every amount a risk names carries its currency. */
export const moneyWithCurrency = (minor: bigint, currency: string) => `${formatMoney(minor, currency)} ${currency}`;

const STATUS_CLAUSE: Record<string, string> = { NEEDS_RESPONSE: "needs your response", UNDER_REVIEW: "is under review by the bank" };
export const statusClause = (status: string) => STATUS_CLAUSE[status] ?? `is ${status.toLowerCase().replaceAll("_", " ")}`;
/** An inquiry is a dispute that may still become a chargeback: it is named as what it is. */
export const disputeKind = (initiatedAs: string | null) => (initiatedAs === "INQUIRY" ? "inquiry" : "chargeback");

/** One sentence per risk, for the refusal: what is at stake, in merchant words. */
function riskSentence(facts: RiskFacts, amountMinor: bigint, code: RiskCode): string {
  const money = (minor: bigint) => moneyWithCurrency(minor, facts.currency);
  switch (code) {
    case "OPEN_CHARGEBACK": {
      const [first] = facts.openDisputes;
      const what = facts.openDisputes.length === 1 ? `an open ${disputeKind(first.initiatedAs)} that ${statusClause(first.status)}` : "open chargebacks";
      return `${facts.orderName} has ${what}: if the customer wins it, a refund now pays them twice.`;
    }
    case "REFUNDED_PAST_PAYMENT":
      return `Refunding ${money(amountMinor)} takes the refunds of ${facts.orderName} to ${money(facts.refundedMinor! + amountMinor)}, past the ${money(facts.paidMinor!)} the customer paid (store credit included).`;
    case "STORE_CREDIT_REFUNDED":
      return `${money(facts.storeCredit.minor)} of ${facts.orderName} was already refunded to store credit: a refund to the payment as well may pay the customer twice.`;
  }
}

/** Why the refund waits for "Yes, refund anyway": the risks not yet confirmed. */
export function riskRefusalMessage(facts: RiskFacts, amountMinor: bigint, unconfirmed: RiskCode[]): string {
  return `${unconfirmed.map((code) => riskSentence(facts, amountMinor, code)).join(" ")} To refund anyway, confirm "Yes, refund anyway".`;
}

/**
 * What the refund record keeps of the risks a person confirmed (its refCaptions): each open dispute
 * and refund to store credit by its id. A refund past the payment has no id of its own: the person
 * who confirmed it is the record's confirmedBy.
 */
export function confirmedRiskCaptions(facts: RiskFacts, confirmed: RiskCode[]): { id: string; caption: string }[] {
  const disputes = confirmed.includes("OPEN_CHARGEBACK")
    ? facts.openDisputes.map((d) => ({
        id: d.id,
        caption: `Open ${disputeKind(d.initiatedAs)} (${statusClause(d.status).replace(/^is /, "")}): refunded anyway`,
      }))
    : [];
  const storeCredit = confirmed.includes("STORE_CREDIT_REFUNDED")
    ? facts.storeCredit.ids.map((id) => ({ id, caption: "Refund to store credit: refunded to the payment anyway" }))
    : [];
  return [...disputes, ...storeCredit];
}
