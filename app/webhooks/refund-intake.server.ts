import { databaseUrl } from "../lib/db/url";
import { logger } from "../lib/logging/logger.server";
import { wakeWorkers } from "../work/wake";
import { isStaleDelivery, STALE_DELIVERY } from "./authenticate.server";
import { deliveryWriter, openDeliveryStore } from "./delivery-store.server";
import { parseRefundWebhook, RefundPayloadError } from "./refund-payload";
import { checkWebhook } from "./shopify-webhooks.server";

export interface WebhookRequest {
  method: string;
  headers: Headers;
  /** The raw body, read within MAX_WEBHOOK_BYTES. */
  body: string;
}

export interface WebhookAnswer {
  status: number;
  text: string;
}

const writer = deliveryWriter(openDeliveryStore(databaseUrl()));
const log = logger.child({ module: "refund-intake" });

function instant(value: string | undefined): Date | null {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? null : new Date(ms);
}

/**
 * refunds/create: Shopify's validation of the signature and headers, the payload's claim, then one
 * row in a group commit. 200 only once that row is committed; the worker opens the operation.
 * The same answer whether the request came through the Node handler or the Remix route.
 */
export async function receiveRefundDelivery(request: WebhookRequest, now = new Date()): Promise<WebhookAnswer> {
  if (request.method !== "POST") return { status: 405, text: "Method Not Allowed" };
  const check = await checkWebhook(request.headers, request.body);
  if (!check.valid) return { status: check.status, text: check.status === 401 ? "Unauthorized" : `Webhook refused: ${check.reason}` };
  const { shop } = check;
  if (check.topic !== "REFUNDS_CREATE") return { status: 400, text: `This address takes REFUNDS_CREATE deliveries, not ${check.topic}` };
  if (isStaleDelivery(check.triggeredAt, now.getTime())) return { status: 400, text: STALE_DELIVERY };
  const triggeredAt = instant(check.triggeredAt ?? undefined);
  let claim;
  try {
    claim = parseRefundWebhook(request.body);
  } catch (error) {
    if (!(error instanceof RefundPayloadError)) throw error;
    return error.message === "body is not JSON" ? { status: 400, text: "Webhook body is not JSON" } : { status: 422, text: error.message };
  }
  try {
    await writer.add({
      shop,
      webhookId: check.webhookId,
      eventId: check.eventId,
      topic: check.topic,
      triggeredAt,
      apiVersion: check.apiVersion,
      refundGid: claim.refundGid,
      orderGid: claim.orderGid,
      refundCreatedAt: new Date(claim.createdAt),
      amount: claim.amount,
      currency: claim.currency,
      staffUserId: claim.staffUserId,
      posDeviceId: claim.posDeviceId,
      receivedAt: now,
    });
  } catch (error) {
    // Not stored, so not acknowledged: Shopify delivers it again.
    log.error({ err: error, shop }, "refunds/create delivery not stored");
    return { status: 503, text: "Not stored; deliver again" };
  }
  wakeWorkers();
  return { status: 200, text: "" };
}
