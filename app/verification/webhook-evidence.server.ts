import type { Operation, PrismaClient } from "@prisma/client";
import { sinceOperationStart, summarizeDeliveries, type WebhookChannelOutput } from "./webhook-channel";

const deliveryFields = {
  webhookId: true,
  eventId: true,
  topic: true,
  refundGid: true,
  triggeredAt: true,
  receivedAt: true,
  refundCreatedAt: true,
  redeliveries: true,
  apiVersion: true,
} as const;

/** The API versions the deliveries were sent in (X-Shopify-API-Version), as one string: "2026-10", "2026-07, 2026-10". */
function versionsOf(deliveries: { apiVersion: string }[]): string | null {
  const versions = [...new Set(deliveries.map((d) => d.apiVersion))].sort();
  return versions.length ? versions.join(", ") : null;
}

/** The `webhook` verifier: the refund's own deliveries, and the order's since the operation started. */
export async function webhookEvidence(
  db: PrismaClient,
  operation: Pick<Operation, "shop" | "refundGid" | "orderGid" | "startedAt">,
): Promise<{
  refund_events: WebhookChannelOutput;
  order_refund_events: WebhookChannelOutput;
  apiVersions: { refund_events: string | null; order_refund_events: string | null };
}> {
  const [own, order] = await Promise.all([
    db.webhookDelivery.findMany({ where: { shop: operation.shop, refundGid: operation.refundGid }, select: deliveryFields }),
    db.webhookDelivery.findMany({ where: { shop: operation.shop, orderGid: operation.orderGid }, select: deliveryFields }),
  ]);
  const orderSinceStart = sinceOperationStart(order, operation.startedAt);
  return {
    refund_events: summarizeDeliveries(own, "event"),
    order_refund_events: summarizeDeliveries(orderSinceStart, "refund"),
    apiVersions: { refund_events: versionsOf(own), order_refund_events: versionsOf(orderSinceStart) },
  };
}
