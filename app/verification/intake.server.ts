import type { PrismaClient, WebhookDelivery } from "@prisma/client";
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
  const stopped = await uninstalledShops(db, deliveries);
  for (const d of deliveries) await openForDelivery(db, contract, d, now, stopped.has(d.shop));
  if (deliveries.length) await db.webhookDelivery.updateMany({ where: { id: { in: deliveries.map((d) => d.id) } }, data: { openedAt: now } });
  return deliveries.length;
}

/** Shops uninstalled since: their refunds are opened as uninstall leaves every pending one, not due (stopObservingShop). */
async function uninstalledShops(db: PrismaClient, deliveries: WebhookDelivery[]): Promise<Set<string>> {
  if (!deliveries.length) return new Set();
  const states = await db.shopState.findMany({
    where: { shop: { in: [...new Set(deliveries.map((d) => d.shop))] }, uninstalledAt: { not: null } },
    select: { shop: true },
  });
  return new Set(states.map((s) => s.shop));
}

async function openForDelivery(db: PrismaClient, contract: LoadedContract, d: WebhookDelivery, now: Date, stopped = false): Promise<boolean> {
  const facts = {
    shop: d.shop,
    refundGid: d.refundGid,
    orderGid: d.orderGid,
    origin: "webhook" as const,
    amount: d.amount,
    currency: d.currency,
    startedAt: d.refundCreatedAt,
  };
  const opened = await openOperation(db, contract, facts, now, stopped ? null : undefined);
  if (!stopped)
    await markDue(db, { shop: d.shop, orderGid: d.orderGid, origin: { not: "backfill" }, ...(opened ? { refundGid: { not: d.refundGid } } : {}) }, now);
  return opened;
}

/**
 * A refund the history backfill is about to open: if a delivery of it is stored and waits for the
 * worker's pass, the webhook's operation is opened now instead (a live refund is verified by the
 * live contract, as it would have been had the pass come first). Whether there was one.
 */
export async function openIfDelivered(db: PrismaClient, contract: LoadedContract, shop: string, refundGid: string, now: Date): Promise<boolean> {
  const delivery = await db.webhookDelivery.findFirst({ where: { shop, refundGid }, orderBy: { receivedAt: "asc" } });
  if (!delivery) return false;
  await openForDelivery(db, contract, delivery, now);
  return true;
}

/** Whether a stored delivery waits for its operation: the worker's loop does not sleep then. */
export async function deliveriesWaiting(db: PrismaClient): Promise<boolean> {
  return (await db.webhookDelivery.findFirst({ where: { openedAt: null }, select: { id: true } })) !== null;
}
