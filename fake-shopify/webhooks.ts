import { createHmac, randomUUID } from "node:crypto";
import { restDecimal } from "./money";
import type { FakeDispute, ShopifyPaymentsDisputeReason } from "./disputes";
import type { FakeRefund, FakeShop } from "./shop";
import { gid } from "./views";
import { ADMIN_API_VERSION } from "./versions";

/** A REST timestamp in the shop's offset, as webhooks carry them ("2025-10-01T14:53:52-04:00"). */
function restTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

/**
 * The body of a refunds/create delivery: the REST Refund resource without a root key. Ids are
 * written as bare JSON numbers with all their digits, as Shopify does, even above 2^53. Each
 * transaction's `amount` and `currency` are in the order's presentment currency; every `*_set`
 * carries `shop_money` (the shop's currency) and `presentment_money`. A transaction processed on
 * Shopify POS names its `device_id`, the staff member logged in (`user_id`) and `source_name` "pos".
 */
export function refundWebhookBody(shop: FakeShop, refund: FakeRefund): string {
  const order = shop.orders.get(refund.orderId)!;
  const moneySet = (presentmentMinor: bigint) => ({
    shop_money: { amount: restDecimal(shop.shopMinor(order, presentmentMinor), order.currency), currency_code: order.currency },
    presentment_money: { amount: restDecimal(presentmentMinor, order.presentmentCurrency), currency_code: order.presentmentCurrency },
  });
  const zero = JSON.stringify(moneySet(0n));
  const transactions = refund.transactionIds.map((id) => {
    const t = shop.transactions.get(id)!;
    return `{"id":${t.id},"order_id":${t.orderId},"kind":"${t.kind.toLowerCase()}","gateway":${JSON.stringify(t.gateway)},"status":"${t.status.toLowerCase()}","message":null,"created_at":"${restTime(t.createdAt)}","test":false,"authorization":null,"location_id":null,"user_id":${t.deviceId !== null ? (refund.staffUserId ?? "null") : "null"},"parent_id":${t.parentId ?? "null"},"processed_at":"${restTime(t.createdAt)}","device_id":${t.deviceId ?? "null"},"error_code":${t.errorCode ? JSON.stringify(t.errorCode.toLowerCase()) : "null"},"source_name":"${t.deviceId !== null ? "pos" : "web"}","receipt":{},"amount":"${restDecimal(t.amountMinor, order.presentmentCurrency)}","currency":"${order.presentmentCurrency}","payment_id":"c${t.orderId}.1","manual_payment_gateway":${t.gateway === "manual"},"amount_rounding":null,"admin_graphql_api_id":"${gid("OrderTransaction", t.id)}"}`;
  });
  const refundLineItems = refund.lineItems.map((line) => {
    const item = order.lineItems.find((l) => l.id === line.lineItemId)!;
    const subtotal = item.priceMinor * BigInt(line.quantity);
    const price = restDecimal(item.priceMinor, order.presentmentCurrency);
    const lineItem = `{"id":${item.id},"admin_graphql_api_id":"${gid("LineItem", item.id)}","name":${JSON.stringify(item.title)},"title":${JSON.stringify(item.title)},"quantity":${item.quantity},"price":"${price}","price_set":${JSON.stringify(moneySet(item.priceMinor))}}`;
    return (
      `{"id":${line.id},"line_item_id":${item.id},"location_id":null,"quantity":${line.quantity},"restock_type":"${line.restockType.toLowerCase()}",` +
      `"subtotal":"${restDecimal(subtotal, order.presentmentCurrency)}","subtotal_set":${JSON.stringify(moneySet(subtotal))},"total_tax":"${restDecimal(0n, order.presentmentCurrency)}","total_tax_set":${zero},"line_item":${lineItem}}`
    );
  });
  return (
    `{"id":${refund.id},"order_id":${refund.orderId},"created_at":"${restTime(refund.createdAt)}","note":${JSON.stringify(refund.note)},` +
    `"user_id":${refund.staffUserId ?? "null"},"processed_at":"${restTime(refund.processedAt)}","duties":[],"total_duties_set":${zero},"return":null,"restock":false,` +
    `"additional_fees":[],"total_additional_fees_set":${zero},"refund_shipping_lines":[],"admin_graphql_api_id":"${gid("Refund", refund.id)}",` +
    `"order_adjustments":[],"refund_line_items":[${refundLineItems.join(",")}],"transactions":[${transactions.join(",")}]}`
  );
}

/**
 * The REST Dispute resource's `reason` values, as Shopify's REST reference lists them: the GraphQL
 * enum in lowercase, except two it spells otherwise ("bank_not_process", "subscription_canceled").
 * NONCOMPLIANT is not in that list; it is written in lowercase like the rest.
 */
const REST_REASONS: Partial<Record<ShopifyPaymentsDisputeReason, string>> = {
  BANK_CANNOT_PROCESS: "bank_not_process",
  SUBSCRIPTION_CANCELLED: "subscription_canceled",
};

/**
 * The body of a disputes/create or disputes/update delivery: the REST Dispute resource without a
 * root key, its fields in the order of Shopify's examples (id, order_id, type, amount, currency,
 * reason, network_reason_code, status, evidence_due_by, evidence_sent_on, finalized_on,
 * initiated_at). Ids are bare JSON numbers with all their digits; the amount is in the dispute's
 * currency (the order's presentment currency); enums are lowercase.
 */
export function disputeWebhookBody(shop: FakeShop, dispute: FakeDispute): string {
  if (!shop.disputes.has(dispute.id)) throw new Error(`dispute ${dispute.id} is not one of ${shop.domain}'s`);
  const time = (date: Date | null) => (date ? `"${restTime(date)}"` : "null");
  return (
    `{"id":${dispute.id},"order_id":${dispute.orderId},"type":"${dispute.type.toLowerCase()}","amount":"${restDecimal(dispute.amountMinor, dispute.currency)}",` +
    `"currency":"${dispute.currency}","reason":"${REST_REASONS[dispute.reason] ?? dispute.reason.toLowerCase()}","network_reason_code":${JSON.stringify(dispute.networkReasonCode)},` +
    `"status":"${dispute.status.toLowerCase()}","evidence_due_by":${time(dispute.evidenceDueBy)},"evidence_sent_on":${time(dispute.evidenceSentOn)},` +
    `"finalized_on":${time(dispute.finalizedOn)},"initiated_at":${time(dispute.initiatedAt)}}`
  );
}

/** The body of app/uninstalled: the Shop resource (its myshopify domain names it; `domain` is its primary domain). */
export function shopWebhookBody(shop: FakeShop): string {
  return JSON.stringify({
    id: 548380009,
    name: shop.name,
    email: `owner@${shop.name}.example`,
    domain: `${shop.name}.example`,
    myshopify_domain: shop.domain,
    currency: shop.currency,
    iana_timezone: shop.ianaTimezone,
  });
}

/** The bodies of the compliance topics, as Shopify documents them: each names its shop. */
export const complianceBodies = {
  shopRedact: (domain: string) => JSON.stringify({ shop_id: 954889, shop_domain: domain }),
  customersRedact: (domain: string, orderIds: (bigint | number)[]) =>
    `{"shop_id":954889,"shop_domain":"${domain}","customer":{"id":191167,"email":"john@example.com","phone":"555-625-1199"},"orders_to_redact":[${orderIds.join(",")}]}`,
  dataRequest: (domain: string, orderIds: (bigint | number)[]) =>
    `{"shop_id":954889,"shop_domain":"${domain}","orders_requested":[${orderIds.join(",")}],"customer":{"id":191167,"email":"john@example.com","phone":"555-625-1199"},"data_request":{"id":9999}}`,
};

/** The body of bulk_operations/finish: the operation's id and how it ended, in lowercase as Shopify writes it. */
export function bulkFinishBody(operation: { id: string; status: string; errorCode: string | null; createdAt: string; completedAt: string | null }): string {
  return JSON.stringify({
    admin_graphql_api_id: operation.id,
    completed_at: operation.completedAt,
    created_at: operation.createdAt,
    error_code: operation.errorCode?.toLowerCase() ?? null,
    status: operation.status.toLowerCase(),
    type: "query",
  });
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

/** `apiVersion` is the subscription's version, which serializes the body and names the X-Shopify-API-Version header. */
export function newDelivery(topic: string, shop: string, body: string, triggeredAt = new Date(), apiVersion: string = ADMIN_API_VERSION): Delivery {
  return { topic, shop, body, webhookId: randomUUID(), eventId: randomUUID(), triggeredAt: triggeredAt.toISOString(), apiVersion };
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
  "bulk_operations/finish": "/webhooks/bulk_operations/finish",
  "disputes/create": "/webhooks/disputes/create",
  "disputes/update": "/webhooks/disputes/update",
};
