import { parseInstant } from "../contracts/values";
import { fromMinorUnits, toMinorUnits } from "../lib/money/currency";
import type { OrderForRefund } from "../shopify/admin/refunds.server";

/**
 * Refunds are issued in the order's presentment currency, the one the customer paid in: Shopify
 * requires `RefundInput.currency` to be it when it differs from the shop's, and takes transaction
 * amounts in it. Capacity and allocation are read in that currency too.
 */
export const presentmentCurrency = (order: OrderForRefund): string => order.presentmentCurrencyCode;

export function refundableMinor(order: OrderForRefund): bigint {
  const amount = order.suggestedRefund?.maximumRefundableSet.presentmentMoney.amount;
  return (amount && toMinorUnits(amount, presentmentCurrency(order))) || 0n;
}

/** What Shopify shows refunded on the order so far, in its presentment currency. */
export function refundedMinor(order: OrderForRefund): bigint {
  return toMinorUnits(order.totalRefundedSet.presentmentMoney.amount, presentmentCurrency(order)) ?? 0n;
}

export interface RefundTransactionInput {
  orderId: string;
  parentId: string;
  amount: string;
  gateway: string;
  kind: "REFUND";
}

/** Newest captured money first (LIFO), each transaction up to what Shopify says it can still refund. */
export function allocate(order: OrderForRefund, amountMinor: bigint): { transactions: RefundTransactionInput[]; unallocated: bigint } {
  const currency = presentmentCurrency(order);
  const candidates = (order.suggestedRefund?.suggestedTransactions ?? [])
    .flatMap((t) => (t.parentTransaction ? [{ ...t, parent: t.parentTransaction, at: parseInstant(t.parentTransaction.createdAt) ?? 0 }] : []))
    .sort((a, b) => b.at - a.at);
  const transactions: RefundTransactionInput[] = [];
  let left = amountMinor;
  for (const candidate of candidates) {
    if (left <= 0n) break;
    const cap = toMinorUnits(candidate.maximumRefundableSet?.presentmentMoney.amount ?? "0", currency) ?? 0n;
    const take = cap < left ? cap : left;
    if (take <= 0n) continue;
    transactions.push({
      orderId: order.id,
      parentId: candidate.parent.id,
      amount: fromMinorUnits(take, currency),
      gateway: candidate.gateway ?? candidate.parent.gateway ?? "manual",
      kind: "REFUND",
    });
    left -= take;
  }
  return { transactions, unallocated: left };
}

/**
 * A refund of `amountMinor` (presentment currency) in the shop's currency, for its limits: exact
 * when the order is in the shop's currency, else at the order's own rate (what Shopify can still
 * refund, in both currencies), rounded up so that a limit is never passed by rounding. Undefined
 * when Shopify gave no rate.
 */
export function amountInShopCurrency(order: OrderForRefund, amountMinor: bigint): bigint | undefined {
  const currency = presentmentCurrency(order);
  if (currency === order.currencyCode) return amountMinor;
  const capacity = order.suggestedRefund?.maximumRefundableSet;
  if (!capacity || capacity.shopMoney.currencyCode !== order.currencyCode || capacity.presentmentMoney.currencyCode !== currency) return undefined;
  const shop = toMinorUnits(capacity.shopMoney.amount, order.currencyCode);
  const presentment = toMinorUnits(capacity.presentmentMoney.amount, currency);
  if (!shop || !presentment || shop <= 0n || presentment <= 0n) return undefined;
  return (amountMinor * shop + presentment - 1n) / presentment;
}
