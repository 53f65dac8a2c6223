import type { Bindings } from "../contracts/schema";

/** The operation fields the contract's bindings come from. */
export interface OperationFacts {
  refundGid: string;
  orderGid: string;
  amount: string | null;
  currency: string | null;
  startedAt: Date;
  actionResult: unknown;
}

function readbackCurrency(readback: unknown): string | undefined {
  const refund = (readback as { data?: { refund?: { totalRefundedSet?: { shopMoney?: { currencyCode?: unknown } } } } } | undefined)?.data?.refund;
  const code = refund?.totalRefundedSet?.shopMoney?.currencyCode;
  return typeof code === "string" ? code : undefined;
}

/**
 * The contract's bindings for an operation. For refunds observed outside the app there is no
 * refundCreate call: the refund's own global id stands for the action's result, and its
 * created_at for the operation start. The amount is only bound when its currency is the one
 * Shopify reports the total in (shop money): comparing amounts across currencies would be a
 * false contradiction, so it stays unknown instead.
 */
export function buildBindings(operation: OperationFacts, observed: Record<string, unknown>, now: Date): Bindings {
  const shopCurrency = readbackCurrency(observed.refund_readback);
  const amountComparable = operation.amount !== null && (!operation.currency || !shopCurrency || operation.currency === shopCurrency);
  const input: Record<string, unknown> = { order_id: operation.orderGid, currency: operation.currency };
  if (amountComparable) input.amount = operation.amount;
  return {
    input,
    action: { result: operation.actionResult ?? { refundCreate: { refund: { id: operation.refundGid }, userErrors: [] } } },
    operation: { created_at: operation.startedAt.toISOString() },
    observed,
    now: now.toISOString(),
  };
}
