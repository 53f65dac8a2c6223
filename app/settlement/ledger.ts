import { z } from "zod";
import { parseDecimal } from "../contracts/values";
import { numberOfGid } from "../shopify/ids";

/** The gateway whose ledger Shopify shows: every other gateway's money is out of Shopify's sight once the gateway said SUCCESS. */
export const SHOPIFY_PAYMENTS = "shopify_payments";

const money = z.object({ amount: z.string(), currencyCode: z.string() });

/** One refund transaction as SettlementTransactions reads it (the refund_transactions channel). */
export const settlementTransaction = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.string(),
  gateway: z.string().nullable(),
  processedAt: z.string().datetime({ offset: true }).nullable(),
  amountSet: z.object({ shopMoney: money, presentmentMoney: money }),
  shopifyPaymentsSet: z.object({ refundSet: z.object({ acquirerReferenceNumber: z.string().nullable() }).nullable() }).nullable(),
});
export type SettlementTransaction = z.infer<typeof settlementTransaction>;

/** One Shopify Payments balance transaction as PaymentsLedger reads it. */
export const balanceEntry = z.object({
  id: z.string(),
  type: z.string(),
  // BigInt scalar: digits, as a string or (from a lenient server) a number.
  sourceOrderTransactionId: z.union([z.string(), z.number()]).nullable(),
  transactionDate: z.string().datetime({ offset: true }),
  amount: money,
  associatedPayout: z.object({ id: z.string().nullable(), status: z.string().nullable() }),
});
export type BalanceEntry = z.infer<typeof balanceEntry>;

/** A payout's status in four words: 2026-10 deprecates IN_TRANSIT for SCHEDULED; ACTION_REQUIRED waits as PENDING does. */
export type PayoutState = "pending" | "scheduled" | "paid" | "failed";
export function payoutState(status: string | null): PayoutState {
  if (status === "PAID") return "paid";
  if (status === "SCHEDULED" || status === "IN_TRANSIT") return "scheduled";
  if (status === "FAILED" || status === "CANCELED") return "failed";
  return "pending";
}

const text = z.string();
const maybe = text.nullable();

/** One refund transaction of the ledger as the payments_ledger channel writes it, and a settlement stores it (Settlement.observed). */
const ledgerEntry = z.object({
  order_transaction_id: text,
  status: text,
  amount: text,
  currency: text,
  balance_transaction_id: maybe,
  balance_amount: maybe,
  balance_currency: maybe,
  payout_id: maybe,
  payout_status: maybe,
});
export type LedgerEntry = z.infer<typeof ledgerEntry>;

/**
 * What is read back of a settlement's last read of the ledger (Settlement.observed): the amounts and
 * the payout of each entry, all a reader needs, so a row stored before a field was added still reads.
 */
const storedEntry = ledgerEntry.pick({ amount: true, currency: true, balance_amount: true, balance_currency: true, payout_id: true, payout_status: true });
export type StoredLedgerEntry = z.infer<typeof storedEntry>;
export const storedLedger = z.object({ payments_ledger: z.object({ entries: z.array(storedEntry) }) });

/** The payments_ledger channel's output: what contract shopify.refund.settled's conditions read. */
export interface PaymentsLedger {
  /** Shopify Payments REFUND transactions of the refund. */
  transactions: number;
  not_succeeded: number;
  in_ledger: number;
  /** Without a REFUND balance transaction. */
  missing: number;
  amount_mismatches: number;
  reversed: number;
  payouts: Record<PayoutState, number>;
  /** Not yet in a PAID payout (missing ones included). */
  unpaid: number;
  entries: LedgerEntry[];
}

/**
 * Whether a ledger entry records the transaction's amount: compared only in the currency the
 * customer paid in, exactly (digits, never floats), as a magnitude (a refund debits the balance).
 * An entry in the shop's currency was converted at the rate of the day of the refund, which
 * Shopify does not give per transaction: it is no finding either way, and neither is an amount
 * that is not a decimal.
 */
function sameAmount(entry: BalanceEntry, t: SettlementTransaction): boolean | null {
  const paid = t.amountSet.presentmentMoney;
  if (entry.amount.currencyCode !== paid.currencyCode) return null;
  const a = parseDecimal(entry.amount.amount.replace(/^-/, ""));
  const b = parseDecimal(paid.amount.replace(/^-/, ""));
  if (!a || !b) return null;
  const scale = Math.max(a.scale, b.scale);
  return a.units * 10n ** BigInt(scale - a.scale) === b.units * 10n ** BigInt(scale - b.scale);
}

export const isShopifyPaymentsRefund = (t: { kind: string; gateway: string | null }) => t.kind === "REFUND" && t.gateway === SHOPIFY_PAYMENTS;

/**
 * Joins a refund's Shopify Payments REFUND transactions to the ledger's balance transactions by
 * sourceOrderTransactionId: the facts contract shopify.refund.settled judges. A REFUND_FAILURE
 * entry for a transaction is a reversal; an amount is a mismatch only where `sameAmount` can tell.
 */
export function paymentsLedger(transactions: SettlementTransaction[], entries: BalanceEntry[]): PaymentsLedger {
  const byTransaction = Map.groupBy([...new Map(entries.map((e) => [e.id, e])).values()], (e) => String(e.sourceOrderTransactionId ?? ""));
  const ledger: PaymentsLedger = {
    transactions: 0,
    not_succeeded: 0,
    in_ledger: 0,
    missing: 0,
    amount_mismatches: 0,
    reversed: 0,
    payouts: { pending: 0, scheduled: 0, paid: 0, failed: 0 },
    unpaid: 0,
    entries: [],
  };
  for (const t of transactions.filter(isShopifyPaymentsRefund)) {
    ledger.transactions++;
    if (t.status !== "SUCCESS") ledger.not_succeeded++;
    const own = byTransaction.get(numberOfGid(t.id)) ?? [];
    if (own.some((e) => e.type === "REFUND_FAILURE")) ledger.reversed++;
    const entry = own.find((e) => e.type === "REFUND");
    const amount = t.amountSet.presentmentMoney;
    ledger.entries.push({
      order_transaction_id: t.id,
      status: t.status,
      amount: amount.amount,
      currency: amount.currencyCode,
      balance_transaction_id: entry?.id ?? null,
      balance_amount: entry?.amount.amount ?? null,
      balance_currency: entry?.amount.currencyCode ?? null,
      payout_id: entry?.associatedPayout.id ?? null,
      payout_status: entry?.associatedPayout.status ?? null,
    });
    if (!entry) {
      ledger.missing++;
      ledger.unpaid++;
      continue;
    }
    ledger.in_ledger++;
    if (sameAmount(entry, t) === false) ledger.amount_mismatches++;
    const state = payoutState(entry.associatedPayout.status);
    ledger.payouts[state]++;
    if (state !== "paid") ledger.unpaid++;
  }
  return ledger;
}

/** Where the money is, in one word a screen, a filter and the CSV share (most urgent first). */
export type MoneyState =
  | "reversed"
  | "payout_failed"
  | "wrong_amount"
  | "gateway_failed"
  | "awaiting_ledger"
  | "in_ledger"
  | "in_transit"
  | "paid"
  | "at_gateway"
  /** Nothing to follow: no readable record of the refund's transactions, or a refund that moved no money. */
  | "not_followed";

export function moneyState(ledger: PaymentsLedger, transactions: SettlementTransaction[]): MoneyState {
  if (ledger.reversed) return "reversed";
  if (ledger.payouts.failed) return "payout_failed";
  if (ledger.amount_mismatches) return "wrong_amount";
  if (transactions.some((t) => t.status === "FAILURE" || t.status === "ERROR")) return "gateway_failed";
  if (!ledger.transactions) return "at_gateway";
  if (ledger.missing || ledger.not_succeeded) return "awaiting_ledger";
  if (ledger.payouts.pending) return "in_ledger";
  if (ledger.payouts.scheduled) return "in_transit";
  return "paid";
}

/** The card network's references of the Shopify Payments transactions, once assigned. */
export function acquirerReferences(transactions: SettlementTransaction[]): string[] {
  return transactions
    .filter(isShopifyPaymentsRefund)
    .map((t) => t.shopifyPaymentsSet?.refundSet?.acquirerReferenceNumber)
    .filter((arn): arn is string => Boolean(arn));
}

/** Whether Shopify would show an ARN here at all: `shopifyPaymentsSet` is for Shopify Plus stores only. */
export const referencesShown = (transactions: SettlementTransaction[]) =>
  transactions.filter(isShopifyPaymentsRefund).some((t) => t.shopifyPaymentsSet !== null);
