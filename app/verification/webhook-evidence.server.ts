import type { Operation, PrismaClient } from "@prisma/client";
import { sinceOperationStart, summarizeDeliveries, type WebhookChannelOutput } from "./webhook-channel";

const deliveryFields = { webhookId: true, eventId: true, topic: true, refundGid: true, triggeredAt: true, receivedAt: true, refundCreatedAt: true, redeliveries: true } as const;

/** The `webhook` verifier: the refund's own deliveries, and the order's since the operation started. */
export async function webhookEvidence(db: PrismaClient, operation: Pick<Operation, "shop" | "refundGid" | "orderGid" | "startedAt">): Promise<{ refund_events: WebhookChannelOutput; order_refund_events: WebhookChannelOutput }> {
  const [own, order] = await Promise.all([
    db.webhookDelivery.findMany({ where: { shop: operation.shop, refundGid: operation.refundGid }, select: deliveryFields }),
    db.webhookDelivery.findMany({ where: { shop: operation.shop, orderGid: operation.orderGid }, select: deliveryFields }),
  ]);
  return {
    refund_events: summarizeDeliveries(own, "event"),
    order_refund_events: summarizeDeliveries(sinceOperationStart(order, operation.startedAt), "refund"),
  };
}
