import db from "../db.server";
import { REFUND_CREATED } from "../contracts/registry.server";
import { recordRefundDelivery } from "../verification/intake.server";
import { authenticateWebhook, badPayload } from "./authenticate.server";
import { parseRefundWebhook, RefundPayloadError } from "./refund-payload";

function instant(value: string | undefined): Date | null {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? null : new Date(ms);
}

/** refunds/create: authenticate, keep the delivery, make sure the refund is under verification, answer. */
export async function handleRefundsCreate(request: Request): Promise<Response> {
  const webhook = await authenticateWebhook(request, "REFUNDS_CREATE");
  // Shopify sends nothing to a shop that has not installed the app; a delivery for one (a replay,
  // or after uninstall) is acknowledged and stored nowhere.
  if (!webhook.session) return new Response();
  let claim;
  try {
    claim = parseRefundWebhook(webhook.rawBody);
  } catch (error) {
    if (error instanceof RefundPayloadError) return badPayload(error.message);
    throw error;
  }
  await recordRefundDelivery(
    db,
    REFUND_CREATED,
    {
      shop: webhook.shop,
      webhookId: webhook.webhookId,
      eventId: webhook.eventId ?? null,
      topic: webhook.topic,
      triggeredAt: instant(webhook.triggeredAt),
      apiVersion: webhook.apiVersion,
    },
    claim,
    new Date(),
  );
  return new Response();
}
