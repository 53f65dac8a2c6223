import { storedLedger, type StoredLedgerEntry } from "../settlement/ledger";
import { toMinorUnits } from "../lib/money/currency";
import { money } from "../verdicts/words";

/**
 * Alerts on where a verified refund's money went (contract shopify.refund.settled): a settlement
 * whose final verdict needs a person becomes an AlertEvent of the refund's operation, stored under
 * one of these kinds (never a verdict an operation can have, so the two never share a unique key).
 */

/** Settlement verdicts that need a person. */
export const MONEY_VERDICTS: readonly string[] = ["CONTRADICTED", "FAILED", "UNVERIFIABLE"];

/** The alert settings' choice that turns money alerts on or off ("Money problems"). */
export const MONEY_CHOICE = "MONEY";

/** Each kind of money alert (AlertEvent.verdict) and its headline, as the evidence page titles it. */
export const MONEY_ALERTS = {
  PAYOUT_FAILED: "Payout failed",
  REFUND_REVERSED: "Refund reversed",
  LEDGER_AMOUNT_MISMATCH: "Another amount in the ledger",
  SETTLEMENT_FAILED: "Failed at the gateway after it was verified",
  NOT_SETTLED: "Never settled",
  /** A contradiction of a later contract version this one has no words for. */
  SETTLEMENT_CONTRADICTED: "Money not settled",
} as const;

export type MoneyAlert = keyof typeof MONEY_ALERTS;

export const isMoneyAlert = (verdict: string): verdict is MoneyAlert => Object.hasOwn(MONEY_ALERTS, verdict);

const CONTRADICTIONS: Record<string, MoneyAlert> = {
  payout_failed: "PAYOUT_FAILED",
  refund_reversed: "REFUND_REVERSED",
  ledger_amount_mismatch: "LEDGER_AMOUNT_MISMATCH",
};

/** The alert a settlement's final verdict owes, by its first reason; null for one that needs nobody. */
export function moneyAlertOf(settlement: { status: string; reason: string | null }): MoneyAlert | null {
  if (settlement.status === "UNVERIFIABLE") return "NOT_SETTLED";
  if (settlement.status === "FAILED") return "SETTLEMENT_FAILED";
  if (settlement.status === "CONTRADICTED") return CONTRADICTIONS[settlement.reason ?? ""] ?? "SETTLEMENT_CONTRADICTED";
  return null;
}

/** What a money alert's sentence may say about the settlement, read from its row. */
export interface MoneyFacts {
  /** The refund's amount and its order, as the rest of the alert names them. */
  amount: string | null;
  currency: string | null;
  order: string;
  /** Where the money was at the last read (Settlement.money). */
  state: string;
  /** The payout that failed or was canceled, when the ledger named it. */
  payout: { id: string | null; status: string | null };
  /** What Shopify Payments took from the balance, when it took another amount. */
  ledgerAmount: { amount: string; currency: string } | null;
  /** Whole days from the refund to the verdict. */
  days: number;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** Where the money of a refund that never settled stopped, as the evidence page says it. */
const STOPPED: Record<string, string> = {
  awaiting_ledger: " Shopify Payments' ledger does not show it.",
  in_ledger: " It left your balance, but no payout has carried it.",
  in_transit: " Its payout was still on its way to your bank.",
};

/** The alert's sentence in a merchant's words, e.g. "The payout that carried the $40.00 refund on #1001 failed at your bank." */
export function moneySentence(alert: MoneyAlert, facts: MoneyFacts): string {
  const refund = `the ${money(facts.amount, facts.currency)} refund on ${facts.order}`;
  switch (alert) {
    case "PAYOUT_FAILED":
      return facts.payout.status === "CANCELED"
        ? `Shopify canceled the payout that carried ${refund}: the money is not settled. Check the payout in Shopify Payments.`
        : `The payout that carried ${refund} failed at your bank: the money is not settled. Check the payout in Shopify Payments.`;
    case "REFUND_REVERSED":
      return `Shopify Payments reversed ${refund}: the money came back to your balance and did not reach the customer.`;
    case "LEDGER_AMOUNT_MISMATCH":
      return facts.ledgerAmount
        ? `Shopify Payments took ${money(facts.ledgerAmount.amount, facts.ledgerAmount.currency)} from your balance for ${refund}.`
        : `Shopify Payments took another amount from your balance than ${refund} says.`;
    case "SETTLEMENT_FAILED":
      return `A transaction of ${refund} failed at the gateway after the refund was verified: the money did not leave.`;
    case "NOT_SETTLED":
      return `${upper(refund)} has not settled ${plural(facts.days, "day")} after it was made.${STOPPED[facts.state] ?? ""}`;
    default:
      return `The money of ${refund} is not settled as Shopify said: the evidence page says why.`;
  }
}

const upper = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function entriesOf(observed: string | null): StoredLedgerEntry[] {
  try {
    const parsed = storedLedger.safeParse(observed ? JSON.parse(observed) : null);
    return parsed.success ? parsed.data.payments_ledger.entries : [];
  } catch {
    return [];
  }
}

const magnitude = (amount: string, currency: string) => toMinorUnits(amount.replace(/^-/, ""), currency);

/** The facts of a settlement's row a money alert names: its failed payout, the ledger's other amount, the days it waited. */
export function moneyFacts(
  settlement: {
    money: string;
    observed: string | null;
    payoutGid: string | null;
    payoutStatus: string | null;
    startedAt: Date;
    processedAt: Date | null;
    decidedAt: Date | null;
  },
  refund: { amount: string | null; currency: string | null; order: string },
  now: Date,
): MoneyFacts {
  const entries = entriesOf(settlement.observed);
  const failed = entries.find((e) => e.payout_status === "FAILED" || e.payout_status === "CANCELED");
  // The entry whose balance transaction differs from its transaction, in the balance's currency.
  const other = entries.find(
    (e) =>
      e.balance_amount !== null &&
      e.balance_currency === e.currency &&
      magnitude(e.balance_amount, e.currency) !== undefined &&
      magnitude(e.balance_amount, e.currency) !== magnitude(e.amount, e.currency),
  );
  const madeAt = Math.min(settlement.startedAt.getTime(), settlement.processedAt?.getTime() ?? Infinity);
  return {
    ...refund,
    state: settlement.money,
    payout: failed ? { id: failed.payout_id, status: failed.payout_status } : { id: settlement.payoutGid, status: settlement.payoutStatus },
    // A refund debits the balance: its entry is negative, the amount it took is its magnitude.
    ledgerAmount: other?.balance_amount ? { amount: other.balance_amount.replace(/^-/, ""), currency: other.currency } : null,
    days: Math.floor(((settlement.decidedAt ?? now).getTime() - madeAt) / 86_400_000),
  };
}
