import { numberOfGid } from "../shopify/ids";
import type { PaymentsAccess } from "../shops/payments-reads.server";
import type { MoneyState } from "./ledger";

/** What the app can say about a refund's money, from the most to the least it knows. */
export type MoneyKnowledge =
  | { kind: "followed"; state: MoneyState; verdict: string; references: string[]; payoutStatus: string | null; waitingDays: number }
  | { kind: "not_granted" | "no_account" | "not_yet" | "not_verified" };

export interface MoneyHeadline {
  title: string;
  detail: string;
  tone: "success" | "critical" | "warning" | "info";
}

const HEADLINES: Record<MoneyState, MoneyHeadline> = {
  paid: { title: "Settled", detail: "Shopify Payments took the refund from your balance, and the payout that carried it was paid.", tone: "success" },
  in_transit: { title: "In transit", detail: "The refund is in Shopify Payments' ledger and its payout is on its way to your bank.", tone: "info" },
  in_ledger: { title: "In Shopify Payments' ledger", detail: "The refund left your balance; it is not in a payout yet.", tone: "info" },
  awaiting_ledger: { title: "Sent to the gateway", detail: "Shopify Payments' ledger does not show the refund yet; the app looks again.", tone: "info" },
  at_gateway: {
    title: "At the gateway only",
    detail: "The payment gateway reported the refund sent. Shopify shows nothing of that gateway's money after that; its own dashboard does.",
    tone: "info",
  },
  not_followed: {
    title: "Not followed to the payout",
    detail: "The app holds no readable record of money this refund moved, so there is no payout to follow.",
    tone: "info",
  },
  payout_failed: { title: "Payout failed", detail: "The payout that carried this refund failed at your bank or was canceled by Shopify.", tone: "critical" },
  reversed: {
    title: "Refund reversed",
    detail: "Shopify Payments reversed the refund: the money came back to your balance and did not reach the customer.",
    tone: "critical",
  },
  wrong_amount: {
    title: "Another amount in the ledger",
    detail: "Shopify Payments took another amount from your balance than the refund says.",
    tone: "critical",
  },
  gateway_failed: { title: "Failed at the gateway", detail: "A refund transaction failed at the gateway: the money did not leave.", tone: "critical" },
};

const UNFOLLOWED: Record<Exclude<MoneyKnowledge["kind"], "followed">, MoneyHeadline> = {
  not_granted: {
    title: "Not followed to the payout",
    detail: "The app may not read your Shopify Payments payouts. Grant it read access to payouts to see where each refund's money is.",
    tone: "info",
  },
  no_account: { title: "Not followed to the payout", detail: "This shop has no Shopify Payments account: Shopify shows no payouts to follow.", tone: "info" },
  not_yet: { title: "Not followed yet", detail: "The app starts following the refund's money within a few minutes of verifying it.", tone: "info" },
  not_verified: { title: "Not followed", detail: "Only a verified refund is followed to the payout.", tone: "info" },
};

export function moneyHeadline(knowledge: MoneyKnowledge): MoneyHeadline {
  if (knowledge.kind !== "followed") return UNFOLLOWED[knowledge.kind];
  const headline = HEADLINES[knowledge.state];
  // Ended at the contract's timeout unread; one with nothing to follow ended at once, and says so.
  if (knowledge.verdict === "NOT_FOLLOWED" && knowledge.state !== "not_followed")
    return {
      title: "No longer followed",
      detail: `The app could not read this refund's payout within ${knowledge.waitingDays} days of the refund (the payouts scopes withdrawn, or Shopify's answers unreadable).`,
      tone: "info",
    };
  if (knowledge.verdict === "UNVERIFIABLE")
    return { title: "Never settled", detail: `The refund's payout was not paid within ${knowledge.waitingDays} days of the refund.`, tone: "warning" };
  return headline;
}

/**
 * States in which Shopify Payments shows the money left for the customer's card: a customer may be
 * told it was sent. Not "at the gateway only": a gift card, cash or another gateway's refund is
 * not a card refund Shopify can vouch for.
 */
const SENT: readonly MoneyState[] = ["paid", "in_transit", "in_ledger"];

/**
 * One sentence a support agent can paste to a customer, or null when the money has not left:
 * "Your refund of €25.00 was sent to your card on 3 Dec; your bank can trace it with reference 74…".
 */
export function customerSentence(knowledge: MoneyKnowledge, refund: { amount: string; sentOn: string | null }): string | null {
  if (knowledge.kind !== "followed" || !SENT.includes(knowledge.state) || !refund.sentOn) return null;
  const sent = `Your refund of ${refund.amount} was sent to your card on ${refund.sentOn}`;
  const [reference] = knowledge.references;
  return reference
    ? `${sent}; your bank can trace it with reference ${reference}.`
    : `${sent}. Card refunds usually appear on a statement within 5 to 10 business days.`;
}

const DAY_MS = 86_400_000;

/** The settlement's facts the screens and the CSV read. */
export interface SettlementFacts {
  status: string;
  money: string;
  arn: string | null;
  payoutGid: string | null;
  payoutStatus: string | null;
  processedAt: Date | null;
  startedAt: Date;
  decidedAt: Date | null;
}

/**
 * What the app knows of a refund's money from facts already read: its settlement, the refund's
 * verdict and the shop's payments access. One page's settlements (the CSV) or one refund's
 * (`moneyKnowledge`, the evidence page) say the same.
 */
export function knowledgeOf(settlement: SettlementFacts | null | undefined, operationStatus: string, access: PaymentsAccess | null, now: Date): MoneyKnowledge {
  if (settlement)
    return {
      kind: "followed",
      state: settlement.money as MoneyState,
      verdict: settlement.status,
      references: referencesOf(settlement.arn),
      payoutStatus: settlement.payoutStatus,
      waitingDays: Math.floor(((settlement.decidedAt ?? now).getTime() - settlement.startedAt.getTime()) / DAY_MS),
    };
  if (operationStatus !== "VERIFIED") return { kind: "not_verified" };
  return { kind: access === "not_granted" ? "not_granted" : access === "none" ? "no_account" : "not_yet" };
}

/** The card network's references (ARNs) a settlement stores comma-separated. */
export const referencesOf = (arn: string | null): string[] =>
  (arn ?? "")
    .split(",")
    .map((reference) => reference.trim())
    .filter(Boolean);

/** A payout's status (ShopifyPaymentsPayoutStatus) in a merchant's words. */
const PAYOUT_STATUS_LABELS: Record<string, string> = {
  PAID: "Paid",
  SCHEDULED: "Scheduled: on its way to your bank",
  IN_TRANSIT: "In transit to your bank",
  FAILED: "Failed",
  CANCELED: "Canceled by Shopify",
};

export const payoutStatusLabel = (status: string | null): string => (status ? (PAYOUT_STATUS_LABELS[status] ?? status) : "");

/** The number in a payout's global id (gid://shopify/ShopifyPaymentsPayout/123): what the admin's address shows. */
export const payoutNumber = (gid: string | null): string => (gid ? numberOfGid(gid) : "");
