import type { PrismaClient } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import { markDue, openOperation } from "./operations.server";

/** Deliveries handled per pass: each costs two statements, and the next pass takes the rest. */
const BATCH = 200;

/**
 * The intake stores each refunds/create delivery and nothing else; this pass turns stored
 * deliveries into verification, in the order they arrived, through the one way the app opens an
 * operation (openOperation):
 * - the refund's operation is opened unless one exists (from the app, a sweep, the history, another delivery);
 * - new evidence makes every pending operation on the order due now (not the history's: the backfill
 *   decides those from its bulk read), the refund's own too if it already existed.
 * A delivery is marked only after both: a worker that dies in between leaves it for the next pass,
 * which repeats both harmlessly. Two workers may do the same delivery; the unique (shop, refund)
 * index keeps one operation.
 */
export async function openDeliveredRefunds(db: PrismaClient, contract: LoadedContract, now: Date): Promise<number> {
  const deliveries = await db.webhookDelivery.findMany({ where: { openedAt: null }, orderBy: { receivedAt: "asc" }, take: BATCH });
  for (const d of deliveries) {
    const opened = await openOperation(
      db,
      contract,
      { shop: d.shop, refundGid: d.refundGid, orderGid: d.orderGid, origin: "webhook", amount: d.amount, currency: d.currency, startedAt: d.refundCreatedAt },
      now,
    );
    await markDue(db, { shop: d.shop, orderGid: d.orderGid, origin: { not: "backfill" }, ...(opened ? { refundGid: { not: d.refundGid } } : {}) }, now);
  }
  if (deliveries.length) await db.webhookDelivery.updateMany({ where: { id: { in: deliveries.map((d) => d.id) } }, data: { openedAt: now } });
  return deliveries.length;
}

/** Whether a stored delivery waits for its operation: the worker's loop does not sleep then. */
export async function deliveriesWaiting(db: PrismaClient): Promise<boolean> {
  return (await db.webhookDelivery.findFirst({ where: { openedAt: null }, select: { id: true } })) !== null;
}
