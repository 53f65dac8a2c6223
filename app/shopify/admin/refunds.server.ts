import type { AdminFailure, AdminResult, ShopifyGateway } from "./gateway.server";
import { ORDER_FOR_REFUND_QUERY, ORDER_REFUNDS_QUERY, QUERY_COSTS, REFUND_CREATE_MUTATION, REFUND_SWEEP_QUERY } from "./documents";
import type { RefundInput } from "./types/admin.types";
import type { OrderForRefundQuery, OrderRefundsQuery, RefundCreateMutation, RefundSweepQuery } from "./types/admin.generated";

export type OrderForRefund = NonNullable<OrderForRefundQuery["order"]>;
export type OrderWithRefunds = NonNullable<OrderRefundsQuery["order"]>;
export type SweptOrder = RefundSweepQuery["orders"]["nodes"][number];
export type CreatedRefund = NonNullable<NonNullable<RefundCreateMutation["refundCreate"]>["refund"]>;

/** For requests a person is waiting on: THROTTLED answers are waited out (a few seconds at most). */
const INTERACTIVE = { waitThrottled: true };

export async function loadOrderForRefund(gateway: ShopifyGateway, shop: string, orderId: string): Promise<AdminResult<OrderForRefund | null>> {
  const answer = await gateway.request(shop, ORDER_FOR_REFUND_QUERY, { id: orderId }, QUERY_COSTS.orderForRefund, INTERACTIVE);
  return answer.ok ? { ...answer, data: answer.data.order ?? null } : answer;
}

/** Every refund of an order, however many (Order.refunds is read without `first`). */
export async function loadOrderRefunds(
  gateway: ShopifyGateway,
  shop: string,
  orderId: string,
  options: { waitThrottled?: boolean } = INTERACTIVE,
): Promise<AdminResult<OrderWithRefunds | null>> {
  const answer = await gateway.request(shop, ORDER_REFUNDS_QUERY, { id: orderId }, QUERY_COSTS.orderRefunds, options);
  return answer.ok ? { ...answer, data: answer.data.order ?? null } : answer;
}

export async function loadSweepPage(
  gateway: ShopifyGateway,
  shop: string,
  query: string,
  after: string | null,
): Promise<AdminResult<RefundSweepQuery["orders"]>> {
  const answer = await gateway.request(shop, REFUND_SWEEP_QUERY, { query, after }, QUERY_COSTS.refundSweep, { waitThrottled: true });
  return answer.ok ? { ...answer, data: answer.data.orders } : answer;
}

/**
 * What became of one refundCreate call, in the terms the caller must act on:
 * - `created`: Shopify holds the refund (made now, or earlier under the same key);
 * - `refused`: Shopify answered and made nothing (userErrors, or it says the key's first attempt failed);
 * - `not_run`: Shopify refused the request before running it (a GraphQL error, throttling, access);
 * - `concurrent`: a request with this key is still running at Shopify: wait, then ask again;
 * - `key_conflict`: this key was used with other input: a bug of ours, for a person, never retried;
 * - `unknown`: no answer (reset, timeout, 5xx): the refund may exist; ask again with the same key.
 */
export type RefundCreateOutcome =
  | { kind: "created"; refund: CreatedRefund; result: RefundCreateMutation; apiVersion: string | null }
  | { kind: "refused"; message: string; result: RefundCreateMutation | null }
  | { kind: "not_run" | "concurrent" | "key_conflict" | "unknown"; message: string; failure: AdminFailure };

const IDEMPOTENCY_OUTCOMES: Record<string, "concurrent" | "key_conflict" | "refused"> = {
  IDEMPOTENCY_CONCURRENT_REQUEST: "concurrent",
  IDEMPOTENCY_KEY_PARAMETER_MISMATCH: "key_conflict",
  IDEMPOTENCY_PREVIOUS_ATTEMPT_FAILED: "refused",
};

export async function createRefund(gateway: ShopifyGateway, shop: string, input: RefundInput, idempotencyKey: string): Promise<RefundCreateOutcome> {
  const answer = await gateway.request(shop, REFUND_CREATE_MUTATION, { input, idempotencyKey }, QUERY_COSTS.refundCreate, INTERACTIVE);
  if (!answer.ok) {
    const idempotency = IDEMPOTENCY_OUTCOMES[answer.code];
    if (idempotency === "refused") return { kind: "refused", message: `Shopify says the first attempt with this key failed: ${answer.message}`, result: null };
    const kind = idempotency ?? (answer.kind === "unavailable" ? "unknown" : "not_run");
    return { kind, message: answer.message, failure: answer };
  }
  const payload = answer.data.refundCreate;
  if (!payload?.refund || payload.userErrors.length) {
    return { kind: "refused", message: payload?.userErrors.map((e) => e.message).join("; ") || "Shopify returned no refund.", result: answer.data };
  }
  return { kind: "created", refund: payload.refund, result: answer.data, apiVersion: answer.apiVersion };
}
