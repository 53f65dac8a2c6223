import type { PrismaClient } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import type { RefundClaim } from "../webhooks/refund-payload";
import { markDue, openOperation } from "./operations.server";

export interface DeliveryHeaders {
  shop: string;
  webhookId: string;
  eventId: string | null;
  topic: string;
  triggeredAt: Date | null;
  apiVersion: string;
}

export type IntakeOutcome = "new" | "redelivery";

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === "P2002";
}

/**
 * Stores a refunds/create delivery and makes sure its refund has an operation. A redelivery
 * (same webhook id) is counted, not stored again. New evidence makes the operations it concerns
 * (this refund's, and every pending one on the same order) due now. Nothing slow: no Shopify call.
 */
export async function recordRefundDelivery(db: PrismaClient, contract: LoadedContract, headers: DeliveryHeaders, claim: RefundClaim, now: Date): Promise<IntakeOutcome> {
  try {
    await db.webhookDelivery.create({
      data: {
        ...headers,
        refundGid: claim.refundGid,
        orderGid: claim.orderGid,
        refundCreatedAt: new Date(claim.createdAt),
        receivedAt: now,
      },
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await db.webhookDelivery.update({ where: { shop_webhookId: { shop: headers.shop, webhookId: headers.webhookId } }, data: { redeliveries: { increment: 1 } } });
    return "redelivery";
  }
  const opened = await openOperation(
    db,
    contract,
    { shop: headers.shop, refundGid: claim.refundGid, orderGid: claim.orderGid, origin: "webhook", amount: claim.amount, currency: claim.currency, startedAt: new Date(claim.createdAt) },
    now,
  );
  // An operation that already existed (opened by the app or a sweep) is re-checked now; so is
  // every other pending one on the order, whose order_refund_events just changed.
  await markDue(db, { shop: headers.shop, orderGid: claim.orderGid, ...(opened ? { refundGid: { not: claim.refundGid } } : {}) }, now);
  return "new";
}
