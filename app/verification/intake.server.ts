import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient, WebhookDelivery } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import { markDue, openOperation } from "./operations.server";

/** Deliveries handled per pass: each costs two statements, and the next pass takes the rest. */
const BATCH = 200;
/** How long a worker's claim on a batch holds; after it, another worker (or a later pass) takes the batch over. */
const LEASE_MS = 30_000;

const waiting = (now: Date): Prisma.WebhookDeliveryWhereInput => ({ openedAt: null, OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] });

/**
 * The intake stores each refunds/create delivery and nothing else; this pass turns stored
 * deliveries into verification, in the order they arrived, through the one way the app opens an
 * operation (openOperation):
 * - the refund's operation is opened unless one exists (from the app, a sweep, the history, another delivery);
 * - new evidence makes every pending operation on the order due now (not the history's: the backfill
 *   decides those from its bulk read), the refund's own too if it existed before this delivery came.
 * A batch is claimed first (two workers never open the same deliveries) and marked only after:
 * a worker that dies in between leaves it to whoever takes it after the lease, who repeats the
 * steps harmlessly. A delivery whose steps fail stays claimed until the lease ends, and the rest go on.
 */
export async function openDeliveredRefunds(
  db: PrismaClient,
  contract: LoadedContract,
  now: Date,
  workerId = "intake",
  log: (message: string, fields?: Record<string, unknown>) => void = () => undefined,
): Promise<number> {
  const candidates = await db.webhookDelivery.findMany({ where: waiting(now), orderBy: { receivedAt: "asc" }, take: BATCH, select: { id: true } });
  if (!candidates.length) return 0;
  const claim = `${workerId}:${randomUUID()}`;
  await db.webhookDelivery.updateMany({
    where: { id: { in: candidates.map((c) => c.id) }, ...waiting(now) },
    data: { claimedBy: claim, claimedUntil: new Date(now.getTime() + LEASE_MS) },
  });
  const deliveries = await db.webhookDelivery.findMany({ where: { claimedBy: claim }, orderBy: { receivedAt: "asc" } });
  const stopped = await uninstalledShops(db, deliveries);
  const opened: string[] = [];
  for (const d of deliveries) {
    try {
      await openForDelivery(db, contract, d, now, stopped.has(d.shop));
      opened.push(d.id);
    } catch (error) {
      log("delivery not opened; retried after the lease", { delivery: d.id, shop: d.shop, error: (error as Error).message });
    }
  }
  if (opened.length) await db.webhookDelivery.updateMany({ where: { id: { in: opened } }, data: { openedAt: now, claimedBy: null, claimedUntil: null } });
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

async function openForDelivery(db: PrismaClient, contract: LoadedContract, d: WebhookDelivery, now: Date, stopped = false): Promise<void> {
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
  if (stopped) return;
  // The refund's own operation is new evidence's only if it existed before the delivery: one opened
  // from this delivery (by a worker that died before marking it) keeps its first check.
  const own = opened ? [] : [{ refundGid: d.refundGid, createdAt: { lt: d.receivedAt } }];
  await markDue(db, { shop: d.shop, orderGid: d.orderGid, origin: { not: "backfill" }, OR: [{ refundGid: { not: d.refundGid } }, ...own] }, now);
}

/**
 * A refund the history backfill is about to open: if a delivery of it waits for the worker's
 * pass, the webhook's operation is opened now instead (a live refund is verified by the live
 * contract, as it would have been had the pass come first). Whether there was one.
 */
export async function openIfDelivered(db: PrismaClient, contract: LoadedContract, shop: string, refundGid: string, now: Date): Promise<boolean> {
  const delivery = await db.webhookDelivery.findFirst({ where: { shop, refundGid, openedAt: null }, orderBy: { receivedAt: "asc" } });
  if (!delivery) return false;
  await openForDelivery(db, contract, delivery, now);
  return true;
}

/** Whether a stored delivery waits for its operation (and no live claim holds it): the worker's loop does not sleep then. */
export async function deliveriesWaiting(db: PrismaClient, now: Date): Promise<boolean> {
  return (await db.webhookDelivery.findFirst({ where: waiting(now), select: { id: true } })) !== null;
}
