import { sumDecimals } from "../lib/money/decimal";

interface TransactionMoney {
  kind: string;
  amountSet: { presentmentMoney: { amount: string; currencyCode: string } };
}

/**
 * $input for a refund no webhook stated (found by the sweep or the history backfill): what its
 * REFUND transactions add up to, in the currency the customer paid in, as a webhook would state
 * it; the amount is unknown when they were not all read or are in more than one currency.
 */
export function statedAmount(transactions: TransactionMoney[], complete: boolean): { amount: string | null; currency: string | null } {
  const money = transactions.filter((t) => t.kind === "REFUND").map((t) => t.amountSet.presentmentMoney);
  const currencies = new Set(money.map((m) => m.currencyCode));
  if (!complete || currencies.size !== 1) return { amount: null, currency: money[0]?.currencyCode ?? null };
  return { amount: sumDecimals(money.map((m) => m.amount)), currency: money[0].currencyCode };
}
