import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient, WebhookDelivery } from "@prisma/client";
import { dialectOf } from "../lib/db/dialect";
import { anyReady, type Claimed } from "../work/claims.server";
import { outcome, runRowWork, type Helpers, type InOrderWork, type Outcomes, type RowHelpers } from "../work/runner.server";
import type { LoadedContract } from "../contracts/load";
import { markDue, newOperationData, openOperation } from "./operations.server";
import { columnsOf, insertRows } from "../lib/db/bulk";

/**
 * Deliveries opened at once: a few statements for the whole batch; the next batch takes the rest.
 * At most 500: a batch's ids go into `IN (…)` lists, and Prisma refuses a statement with more than
 * 999 parameters on SQLite ("The query parameter limit supported by your database is exceeded").
 */
export const INTAKE_BATCH = 500;

/**
 * The intake stores each refunds/create delivery and nothing else; this work turns stored
 * deliveries into verification, in the order they arrived, through the one way the app opens an
 * operation (openOperation):
 * - the refund's operation is opened unless one exists (from the app, a sweep, the history, another delivery);
 * - new evidence makes every pending operation on the order due now (not the history's: the backfill
 *   decides those from its bulk read), the refund's own too if it existed before this delivery came.
 * A batch is claimed first (two workers never open the same deliveries) and marked opened only
 * after: a worker that dies in between leaves it to whoever takes it after the lease, who repeats
 * the steps harmlessly (an operation is opened once; an order's operations made due twice are read
 * once more). A delivery whose steps fail keeps its claim until the lease ends, and the rest go on.
 */
export function intakeWork(contract: LoadedContract): InOrderWork<"deliveries"> {
  return {
    name: "intake",
    queue: "deliveries",
    perShop: false,
    batch: INTAKE_BATCH,
    batches: 1,
    handle: (deliveries, helpers) => openBatchOrEach(contract, deliveries, helpers),
  };
}

/** One batch of the intake (the worker's loop takes batches for up to a second); how many deliveries it claimed. */
export async function openDeliveredRefunds(helpers: Helpers, contract: LoadedContract): Promise<number> {
  return (await runRowWork(intakeWork(contract), helpers)).claimed;
}

async function openBatchOrEach(
  contract: LoadedContract,
  deliveries: Claimed<"deliveries">[],
  helpers: RowHelpers<"deliveries">,
): Promise<Outcomes<"deliveries">> {
  const { db } = helpers;
  const now = helpers.now();
  const stopped = await uninstalledShops(db, deliveries);
  const opened = { kind: "done" as const, data: { openedAt: now } };
  // A few statements for the whole batch; on PostgreSQL one transaction, one commit. If it fails,
  // each delivery is tried on its own, so one that cannot be opened holds up no other.
  try {
    const openAll = (tx: PrismaClient | Prisma.TransactionClient) => openBatch(tx, contract, deliveries, now, stopped);
    await (dialectOf(db) === "postgresql" ? db.$transaction(openAll, { timeout: 60_000, maxWait: 10_000 }) : openAll(db));
    return outcome(deliveries, opened);
  } catch (error) {
    helpers.logger.warn({ err: error, deliveries: deliveries.length }, "opening the batch at once failed; opening one by one");
  }
  const each: Claimed<"deliveries">[] = [];
  for (const d of deliveries) {
    try {
      await openForDelivery(db, contract, d, now, stopped.has(d.shop));
      each.push(d);
    } catch (error) {
      helpers.logger.child({ shop: d.shop, delivery: d.id }).warn({ err: error }, "delivery not opened; retried after the lease");
    }
  }
  return outcome(each, opened);
}

type NewRow = ReturnType<typeof newOperationData> & { id: string; createdAt: Date; updatedAt: Date };
const OPERATION_COLUMNS = columnsOf<NewRow>({
  id: "text",
  shop: "text",
  refundGid: "text",
  orderGid: "text",
  orderName: "text",
  origin: "text",
  amount: "text",
  currency: "text",
  amountMinor: "bigint",
  startedAt: "instant",
  actionResult: "text",
  correlation: "text",
  contractId: "text",
  contractVersion: "text",
  contractHash: "text",
  contractDeclaredHash: "text",
  nextDueAt: "instant",
  createdAt: "instant",
  updatedAt: "instant",
});

const refundKey = (r: { shop: string; refundGid: string }) => `${r.shop} ${r.refundGid}`;
const orderKey = (r: { shop: string; orderGid: string }) => `${r.shop} ${r.orderGid}`;

/**
 * What openForDelivery does for each delivery in turn, in a few statements for the batch: opens
 * the refunds no operation has yet (one insert that leaves out those that exist), then makes due
 * what the deliveries are new evidence for, exactly as one delivery after another would have:
 * - an operation that existed before the batch, if a delivery concerns another refund on its order,
 *   or its own refund and came after the operation was opened;
 * - an operation the batch opened, if a later delivery of the batch concerns another refund on its order.
 */
async function openBatch(
  db: PrismaClient | Prisma.TransactionClient,
  contract: LoadedContract,
  deliveries: WebhookDelivery[],
  now: Date,
  stopped: Set<string>,
) {
  const rows = new Map<string, NewRow>();
  for (const d of deliveries) {
    const data = newOperationData(contract, factsOf(d), now, stopped.has(d.shop) ? null : undefined);
    if (!rows.has(refundKey(d))) rows.set(refundKey(d), { id: randomUUID(), ...data, createdAt: now, updatedAt: now });
  }
  const openedIds = new Set(await insertRows(db, "Operation", OPERATION_COLUMNS, [...rows.values()], { skipExisting: true, returning: "id" }));
  const openedAt = new Map<string, number>();
  for (const [i, d] of deliveries.entries()) if (openedIds.has(rows.get(refundKey(d))!.id) && !openedAt.has(refundKey(d))) openedAt.set(refundKey(d), i);
  const live = deliveries.filter((d) => !stopped.has(d.shop));
  if (!live.length) return;
  const byOrder = Map.groupBy(
    live.map((d) => ({ d, index: deliveries.indexOf(d) })),
    ({ d }) => orderKey(d),
  );
  const onOrders = await db.operation.findMany({
    where: {
      status: "PENDING",
      origin: { not: "backfill" },
      shop: { in: [...new Set(live.map((d) => d.shop))] },
      orderGid: { in: [...new Set(live.map((d) => d.orderGid))] },
    },
    select: { id: true, shop: true, orderGid: true, refundGid: true, createdAt: true },
  });
  const due = onOrders.filter((op) => {
    const evidence = byOrder.get(orderKey(op)) ?? [];
    const openedHere = openedAt.get(refundKey(op));
    if (openedHere !== undefined) return evidence.some(({ d, index }) => index > openedHere && d.refundGid !== op.refundGid);
    return evidence.some(({ d }) => d.refundGid !== op.refundGid || op.createdAt < d.receivedAt);
  });
  if (due.length) await markDue(db, { id: { in: due.map((op) => op.id) } }, now);
}

const factsOf = (d: WebhookDelivery) => ({
  shop: d.shop,
  refundGid: d.refundGid,
  orderGid: d.orderGid,
  origin: "webhook" as const,
  amount: d.amount,
  currency: d.currency,
  startedAt: d.refundCreatedAt,
});

/** Shops uninstalled since: their refunds are opened as uninstall leaves every pending one, not due (stopObservingShop). */
async function uninstalledShops(db: PrismaClient, deliveries: WebhookDelivery[]): Promise<Set<string>> {
  if (!deliveries.length) return new Set();
  const states = await db.shopState.findMany({
    where: { shop: { in: [...new Set(deliveries.map((d) => d.shop))] }, uninstalledAt: { not: null } },
    select: { shop: true },
  });
  return new Set(states.map((s) => s.shop));
}

async function openForDelivery(
  db: PrismaClient | Prisma.TransactionClient,
  contract: LoadedContract,
  d: WebhookDelivery,
  now: Date,
  stopped = false,
): Promise<void> {
  const opened = await openOperation(db, contract, factsOf(d), now, stopped ? null : undefined);
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
export const deliveriesWaiting = (db: PrismaClient, now: Date) => anyReady(db, "deliveries", now);
