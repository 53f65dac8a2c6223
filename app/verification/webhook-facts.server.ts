import type { Operation, PrismaClient } from "@prisma/client";
import { sinceOperationStart, summarizeDeliveries } from "./webhook-channel";

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
  staffUserId: true,
  posDeviceId: true,
} as const;

/** The API versions the deliveries were sent in (X-Shopify-API-Version), as one string: "2026-10", "2026-07, 2026-10". */
function versionsOf(deliveries: { apiVersion: string }[]): string | null {
  const versions = [...new Set(deliveries.map((d) => d.apiVersion))].sort();
  return versions.length ? versions.join(", ") : null;
}

type Delivery = Awaited<ReturnType<typeof readDeliveries>>[number];
export type WebhookFacts = ReturnType<typeof summarize>;

function readDeliveries(db: PrismaClient, shop: string, refundGids: string[], orderGids: string[]) {
  return db.webhookDelivery.findMany({
    where: { shop, OR: [{ refundGid: { in: refundGids } }, { orderGid: { in: orderGids } }] },
    select: { ...deliveryFields, orderGid: true },
  });
}

/** The `webhook` verifier over one operation: its refund's deliveries, and its order's since the operation started. */
function summarize(own: Delivery[], order: Delivery[], startedAt: Date) {
  const orderSinceStart = sinceOperationStart(order, startedAt);
  const first = own[0];
  return {
    /** What the refund's payload said of who made it and where (decision 031): not a channel the contract observes. */
    made: first ? { staffUserId: own.find((d) => d.staffUserId)?.staffUserId ?? null, posDevice: own.some((d) => d.posDeviceId !== null) } : null,
    refund_events: summarizeDeliveries(own, "event"),
    order_refund_events: summarizeDeliveries(orderSinceStart, "refund"),
    apiVersions: { refund_events: versionsOf(own), order_refund_events: versionsOf(orderSinceStart) },
  };
}

/** What the webhooks said of one shop's operations (the refund_events channel's facts), read in one query for all of them. */
export async function webhookFacts(
  db: PrismaClient,
  shop: string,
  operations: Pick<Operation, "refundGid" | "orderGid" | "startedAt">[],
): Promise<(operation: Pick<Operation, "refundGid" | "orderGid" | "startedAt">) => WebhookFacts> {
  const deliveries = operations.length
    ? await readDeliveries(
        db,
        shop,
        operations.map((op) => op.refundGid),
        operations.map((op) => op.orderGid),
      )
    : [];
  const byRefund = Map.groupBy(deliveries, (d) => d.refundGid);
  const byOrder = Map.groupBy(deliveries, (d) => d.orderGid);
  return (op) => summarize(byRefund.get(op.refundGid) ?? [], byOrder.get(op.orderGid) ?? [], op.startedAt);
}
