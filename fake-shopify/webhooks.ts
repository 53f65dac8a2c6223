import { createHmac, randomUUID } from "node:crypto";
import { restDecimal } from "./money";
import type { FakeRefund, FakeShop } from "./shop";
import { gid } from "./views";
import { ADMIN_API_VERSION } from "./admin-api";

/** A REST timestamp in the shop's offset, as webhooks carry them ("2025-10-01T14:53:52-04:00"). */
function restTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

/**
 * The body of a refunds/create delivery: the REST Refund resource without a root key. Ids are
 * written as bare JSON numbers with all their digits, as Shopify does, even above 2^53.
 */
export function refundWebhookBody(shop: FakeShop, refund: FakeRefund): string {
  const order = shop.orders.get(refund.orderId)!;
  const money = (minor: bigint) => ({ amount: restDecimal(minor, order.currency), currency_code: order.currency });
  const zero = { shop_money: money(0n), presentment_money: money(0n) };
  const transactions = refund.transactionIds.map((id) => {
    const t = shop.transactions.get(id)!;
    return `{"id":${t.id},"order_id":${t.orderId},"kind":"${t.kind.toLowerCase()}","gateway":${JSON.stringify(t.gateway)},"status":"${t.status.toLowerCase()}","message":null,"created_at":"${restTime(t.createdAt)}","test":false,"authorization":null,"location_id":null,"user_id":null,"parent_id":${t.parentId ?? "null"},"processed_at":"${restTime(t.createdAt)}","device_id":null,"error_code":${t.errorCode ? JSON.stringify(t.errorCode.toLowerCase()) : "null"},"source_name":"web","receipt":{},"amount":"${restDecimal(t.amountMinor, order.currency)}","currency":"${order.currency}","payment_id":"c${t.orderId}.1","manual_payment_gateway":false,"amount_rounding":null,"admin_graphql_api_id":"${gid("OrderTransaction", t.id)}"}`;
  });
  return (
    `{"id":${refund.id},"order_id":${refund.orderId},"created_at":"${restTime(refund.createdAt)}","note":${JSON.stringify(refund.note)},` +
    `"user_id":null,"processed_at":"${restTime(refund.createdAt)}","duties":[],"total_duties_set":${JSON.stringify(zero)},"return":null,"restock":false,` +
    `"additional_fees":[],"total_additional_fees_set":${JSON.stringify(zero)},"refund_shipping_lines":[],"admin_graphql_api_id":"${gid("Refund", refund.id)}",` +
    `"order_adjustments":[],"refund_line_items":[],"transactions":[${transactions.join(",")}]}`
  );
}

export interface Delivery {
  topic: string;
  shop: string;
  body: string;
  webhookId: string;
  eventId: string;
  triggeredAt: string;
  apiVersion: string;
}

export function newDelivery(topic: string, shop: string, body: string, triggeredAt = new Date()): Delivery {
  return { topic, shop, body, webhookId: randomUUID(), eventId: randomUUID(), triggeredAt: triggeredAt.toISOString(), apiVersion: ADMIN_API_VERSION };
}

export function signBody(body: string, secret: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("base64");
}

export function deliveryHeaders(delivery: Delivery, secret: string): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "X-Shopify-Topic": delivery.topic,
    "X-Shopify-Hmac-Sha256": signBody(delivery.body, secret),
    "X-Shopify-Shop-Domain": delivery.shop,
    "X-Shopify-API-Version": delivery.apiVersion,
    "X-Shopify-Webhook-Id": delivery.webhookId,
    "X-Shopify-Event-Id": delivery.eventId,
    "X-Shopify-Triggered-At": delivery.triggeredAt,
  };
}

/** Posts a signed delivery to the app. The same Delivery object sent twice is a redelivery (same webhook id). */
export async function sendDelivery(appUrl: string, path: string, delivery: Delivery, secret: string): Promise<Response> {
  return fetch(new URL(path, appUrl), { method: "POST", headers: deliveryHeaders(delivery, secret), body: delivery.body });
}

export const TOPIC_PATHS: Record<string, string> = {
  "refunds/create": "/webhooks/refunds/create",
  "app/uninstalled": "/webhooks/app/uninstalled",
  "app/scopes_update": "/webhooks/app/scopes_update",
  "customers/data_request": "/webhooks/customers/data_request",
  "customers/redact": "/webhooks/customers/redact",
  "shop/redact": "/webhooks/shop/redact",
};
