import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { isOpenAttempt } from "../refunds/records.server";
import { UNCLAIMED } from "../work/claims.server";
import { readInSlices, writeInSlices } from "../lib/db/slices";

/** app/uninstalled: the sessions go and observing stops; verdicts stay until shop/redact. */
export async function stopObservingShop(db: PrismaClient, shop: string, now: Date): Promise<void> {
  // Each step is idempotent, so a repeated delivery finishes what a crashed one started.
  await db.shopState.upsert({ where: { shop }, create: { shop, uninstalledAt: now }, update: { uninstalledAt: now } });
  await db.operation.updateMany({
    where: { shop, status: "PENDING" },
    data: { nextDueAt: null, ...UNCLAIMED, revision: { increment: 1 } },
  });
  // Money at risk twice is no longer read for a shop that removed the app (its refunds' judgements stay until shop/redact).
  await db.exposure.updateMany({ where: { shop, nextDueAt: { not: null } }, data: { nextDueAt: null, ...UNCLAIMED, revision: { increment: 1 } } });
  await db.session.deleteMany({ where: { shop } });
  // Settlements stay due: without a session they wait six hours at a time, resume on a reinstall,
  // and end not followed at their timeout (app/settlement/settle.server.ts).
  // Nothing more is sent for a shop that removed the app; the log says why.
  await db.alertDelivery.updateMany({ where: { shop, status: "pending" }, data: { status: "failed", error: "Not sent: the app was uninstalled." } });
  await db.alertEvent.updateMany({ where: { shop, instantStatus: "pending" }, data: { instantStatus: "not_wanted" } });
  await db.backfill.updateMany({
    where: { shop, activeShop: shop },
    // The revision moves: a worker in the middle of it loses its claim at its next write.
    data: {
      state: "failed",
      activeShop: null,
      nextDueAt: null,
      ...UNCLAIMED,
      revision: { increment: 1 },
      finishedAt: now,
      message: "Stopped: the app was uninstalled.",
    },
  });
  await db.backfillLine.deleteMany({ where: { backfill: { shop } } });
}

/** shop/redact (48 hours after uninstall): everything the app holds for the shop. */
export async function redactShop(db: PrismaClient, shop: string): Promise<void> {
  // Idempotent steps, no transaction (see recordVerdicts); a repeated delivery completes it.
  await db.reviewEvent.deleteMany({ where: { shop } });
  await db.operationReason.deleteMany({ where: { shop } });
  await db.alertEvent.deleteMany({ where: { shop } });
  await db.alertDelivery.deleteMany({ where: { shop } });
  await db.alertSettings.deleteMany({ where: { shop } });
  await db.flowTriggerUsage.deleteMany({ where: { shop } });
  await db.backfillLine.deleteMany({ where: { backfill: { shop } } });
  await db.backfill.deleteMany({ where: { shop } });
  await db.limitBreach.deleteMany({ where: { shop } });
  await db.evaluation.deleteMany({ where: { operation: { shop } } });
  await db.observation.deleteMany({ where: { operation: { shop } } });
  await db.operation.deleteMany({ where: { shop } });
  // The triggers took each operation out of its rollup row; the rows themselves (zero now) go too.
  await db.verdictRollup.deleteMany({ where: { shop } });
  await db.shopifyBucket.deleteMany({ where: { shop } });
  await db.refundApproval.deleteMany({ where: { shop } });
  await db.refundLimits.deleteMany({ where: { shop } });
  await db.refundRecord.deleteMany({ where: { shop } });
  await db.lock.deleteMany({ where: { shop } });
  await db.webhookDelivery.deleteMany({ where: { shop } });
  await db.complianceRequest.deleteMany({ where: { shop } });
  await db.shopState.deleteMany({ where: { shop } });
  await db.session.deleteMany({ where: { shop } });
}

/**
 * customers/redact: the app stores no customer fields (its read-back selects none), but the raw
 * read-back and webhook evidence of the listed orders' refunds is removed all the same; what
 * remains is the verdict, a record of the merchant's own refund.
 */
export async function redactCustomerOrders(db: PrismaClient, shop: string, payload: { orders_to_redact: string[] }): Promise<number> {
  const orders = payload.orders_to_redact;
  const operations = await readInSlices(orders, (slice) => db.operation.findMany({ where: { shop, orderGid: { in: slice } }, select: { id: true } }));
  const ids = operations.map((o) => o.id);
  await writeInSlices(ids, (slice) => db.observation.deleteMany({ where: { operationId: { in: slice } } }));
  await writeInSlices(ids, (slice) =>
    db.evaluation.updateMany({ where: { operationId: { in: slice } }, data: { result: JSON.stringify({ redacted: true }), observationIds: "[]" } }),
  );
  // Staff notes are free text and may name the customer.
  await writeInSlices(ids, (slice) => db.reviewEvent.updateMany({ where: { operationId: { in: slice }, note: { not: null } }, data: { note: REDACTED } }));
  // The card network's reference traces the customer's card refund: it goes, with the reads that
  // held it, and the refund is read no more (a later read would store it again).
  await writeInSlices(ids, (slice) =>
    db.settlement.updateMany({
      where: { operationId: { in: slice }, status: "PENDING" },
      data: { status: "NOT_FOLLOWED", reason: "customer_redacted", decidedAt: new Date() },
    }),
  );
  await writeInSlices(ids, (slice) =>
    db.settlement.updateMany({
      where: { operationId: { in: slice } },
      data: { arn: null, observed: null, result: null, nextDueAt: null, ...UNCLAIMED, revision: { increment: 1 } },
    }),
  );
  // The order as the exposure read it (its disputes' amounts and reasons) goes too, and it is read no more.
  await writeInSlices(ids, (slice) =>
    db.exposure.updateMany({
      where: { operationId: { in: slice } },
      data: { observed: null, result: null, nextDueAt: null, ...UNCLAIMED, revision: { increment: 1 } },
    }),
  );
  await writeInSlices(orders, (slice) => db.webhookDelivery.deleteMany({ where: { shop, orderGid: { in: slice } } }));
  await redactRefundRecordNotes(db, shop, orders);
  await redactApprovalNotes(db, shop, orders);
  await db.complianceRequest.create({ data: { shop, topic: "customers/redact", detail: JSON.stringify({ orders, operations: ids.length }) } });
  return ids.length;
}

const REDACTED = "[redacted on the customer's request]";

/**
 * The free text of refunds issued from the app on those orders (the note a person typed, also in
 * the stored RefundInput). An attempt still waiting for Shopify's answer keeps its stored input as
 * sent, because its retries must repeat it byte for byte (same idempotency key); its note field
 * is redacted at once like the others.
 */
async function redactRefundRecordNotes(db: PrismaClient, shop: string, orders: string[]): Promise<void> {
  const records = await readInSlices(orders, (slice) =>
    db.refundRecord.findMany({
      where: { shop, orderId: { in: slice }, note: { not: null } },
      select: { id: true, refundInput: true, shopifyOutcome: true },
    }),
  );
  for (const record of records) {
    const input = !isOpenAttempt(record) && record.refundInput ? JSON.stringify({ ...JSON.parse(record.refundInput), note: REDACTED }) : record.refundInput;
    // A write like any other: the OCC token rotates, so a form opened before cannot overwrite it.
    await db.refundRecord.update({
      where: { id: record.id },
      data: { note: REDACTED, refundInput: input, revision: randomUUID(), revisionNum: { increment: 1 } },
    });
  }
}

/**
 * An approver's note or reason to decline is free text that may name the customer: it goes from
 * the requests on those orders, and from the words a declined refund's record repeats it in.
 */
async function redactApprovalNotes(db: PrismaClient, shop: string, orders: string[]): Promise<void> {
  const records = await readInSlices(orders, (slice) => db.refundRecord.findMany({ where: { shop, orderId: { in: slice } }, select: { id: true } }));
  const ids = records.map((r) => r.id);
  await writeInSlices(ids, (slice) =>
    db.refundApproval.updateMany({ where: { recordId: { in: slice }, decisionNote: { not: null } }, data: { decisionNote: REDACTED } }),
  );
  await writeInSlices(ids, (slice) =>
    db.refundRecord.updateMany({
      where: { id: { in: slice }, shopifyOutcome: "not_sent" },
      data: { failureReason: REDACTED, outcomeDetail: REDACTED, revision: randomUUID(), revisionNum: { increment: 1 } },
    }),
  );
}

/** What a data request lists of each refund on the orders it names. */
const DATA_REQUEST_FACTS = {
  refundGid: true,
  orderGid: true,
  orderName: true,
  amount: true,
  currency: true,
  status: true,
  reason: true,
  startedAt: true,
  decidedAt: true,
  // Where the money went, and the card network's reference a bank traces the refund with.
  settlement: { select: { status: true, money: true, arn: true, payoutStatus: true } },
  // Whether its money is at risk twice (a chargeback on the order, more back than paid).
  exposure: { select: { status: true, reason: true, atRisk: true, currency: true } },
} as const;

/** customers/data_request: what the app holds for the listed orders, kept for the merchant to hand over. */
export async function recordCustomerDataRequest(
  db: PrismaClient,
  shop: string,
  payload: { orders_requested: string[]; data_request?: { id?: string } },
): Promise<string> {
  const orders = payload.orders_requested;
  const operations = await readInSlices(orders, (slice) => db.operation.findMany({ where: { shop, orderGid: { in: slice } }, select: DATA_REQUEST_FACTS }));
  const request = await db.complianceRequest.create({
    data: {
      shop,
      topic: "customers/data_request",
      detail: JSON.stringify({
        data_request_id: payload.data_request?.id ?? null,
        orders,
        customer_personal_data: "none: Refund Verifier stores no customer names, emails, phones or addresses",
        refunds: operations,
      }),
    },
  });
  return request.id;
}
