import type { Exposure } from "@prisma/client";
import { evaluate } from "../contracts/evaluate";
import type { LoadedContract } from "../contracts/load";
import { contractByVersion } from "../contracts/registry.server";
import { readDisputeDetails, readOrderExposures } from "../shopify/admin/exposure-reads.server";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import type { Failed } from "../shopify/admin/nodes.server";
import type { Claimed } from "../worker/claims.server";
import { outcome, type Note, type Outcomes, type RowHelpers, type ShopByShopWork } from "../worker/runner.server";
import { moneyAtRisk, orderDisputes, orderMoney, paymentsDisputeGid, type DisputeDetails, type ExposureOrder } from "./order-exposure";

export interface ExposureOptions {
  gateway: ShopifyGateway;
  contract: LoadedContract;
  leaseMs?: number;
}

/** Exposures of one shop read at once: their orders in a few nodes(ids:) requests, the disputes' details in one. */
const PER_SHOP = 200;
const MAX_SHOPS_A_PASS = 50;

type Row = Claimed<"exposures">;
type Judged = Outcomes<"exposures">;

/**
 * Judging exposure, as work for the runner: a shop's due refunds have their orders read (one
 * request per batch, not one per refund), their disputes' details where the shop granted them,
 * and each refund is judged by contract shopify.refund.exposure, then read again a day later
 * until the chargeback window closes.
 */
export function exposureWork(options: ExposureOptions): ShopByShopWork<"exposures"> {
  return {
    name: "exposure",
    queue: "exposures",
    perShop: true,
    maxShops: MAX_SHOPS_A_PASS,
    concurrency: 4,
    batch: PER_SHOP,
    leaseMs: options.leaseMs,
    handle: (rows, helpers) => judgeShop(options, helpers, rows),
  };
}

async function judgeShop(options: ExposureOptions, helpers: RowHelpers<"exposures">, rows: Row[]): Promise<Judged> {
  const { db } = helpers;
  const shop = helpers.shop!;
  const orders = await readOrderExposures(
    options.gateway,
    shop,
    rows.map((row) => row.orderGid),
  );
  const disputeGids = [...orders.values()].flatMap((read) => (read.ok && read.node ? read.node.disputes.map((d) => paymentsDisputeGid(d.id)) : []));
  const details = await readDisputeDetails(options.gateway, shop, disputeGids);
  const refunds = new Map(
    (await db.operation.findMany({ where: { id: { in: rows.map((row) => row.operationId) } }, select: { id: true, amount: true, currency: true } })).map(
      (op) => [op.id, op.amount && op.currency ? { amount: op.amount, currency: op.currency } : null],
    ),
  );
  const now = helpers.now();
  return rows.flatMap((row): Judged => {
    const read = orders.get(row.orderGid)!;
    if (!read.ok) return afterFailedRead(options, now, row, read);
    // Shopify shows no such order now (deleted, or past the 60 days without read_all_orders): nothing is judged from that.
    if (!read.node) return readLater(options, now, row, {});
    return judge(options, now, row, read.node, details === "not_granted" ? null : details, refunds.get(row.operationId) ?? null);
  });
}

const contractOf = (options: ExposureOptions, row: Row) => contractByVersion(row.contractId, row.contractVersion) ?? options.contract;
const windowEnd = (options: ExposureOptions, row: Row) => row.startedAt.getTime() + contractOf(options, row).contract.timing.timeout_ms;

/** The next read a poll interval away, or none once the chargeback window has closed (a row never read ends UNVERIFIABLE, alerting no one). */
function readLater(options: ExposureOptions, now: Date, row: Row, data: Partial<Exposure>, note?: Note): Judged {
  const { timing } = contractOf(options, row).contract;
  const next = now.getTime() + timing.poll_interval_ms;
  if (next < windowEnd(options, row)) return outcome([row], { kind: "due", at: new Date(next), data, note });
  const unread = row.status === "PENDING" && !data.status ? { status: "UNVERIFIABLE", reason: timing.on_timeout.reason, decidedAt: now } : {};
  return outcome([row], { kind: "done", data: { ...data, ...unread }, note });
}

function afterFailedRead(options: ExposureOptions, now: Date, row: Row, failure: Failed): Judged {
  if (failure.kind === "deferred") return outcome([row], { kind: "due", at: new Date(now.getTime() + failure.retryAfterMs) });
  if (now.getTime() >= windowEnd(options, row)) return readLater(options, now, row, {});
  const failures = row.readFailures + 1;
  return outcome([row], { kind: "retry", failures, askedMs: failure.retryAfterMs, data: { readFailures: failures } });
}

/** Judges one refund's exposure from its order as Shopify records it now, and writes what the read showed. */
function judge(
  options: ExposureOptions,
  now: Date,
  row: Row,
  order: ExposureOrder,
  details: Map<string, DisputeDetails> | null,
  refund: { amount: string; currency: string } | null,
): Judged {
  const loaded = contractOf(options, row);
  const createdAt = order.refunds.find((r) => r.id === row.refundGid)?.createdAt;
  const money = orderMoney(order);
  const disputes = orderDisputes(order, createdAt ? new Date(createdAt) : row.startedAt, details);
  const observed = { order_money: money, order_disputes: disputes };
  const evaluation = evaluate(loaded, {
    input: { refund_id: row.refundGid },
    action: { result: null },
    operation: { created_at: row.startedAt.toISOString() },
    observed,
    now: now.toISOString(),
  });
  const atRisk = evaluation.verdict === "CONTRADICTED" ? moneyAtRisk(money, disputes, refund) : null;
  const changed = evaluation.verdict !== row.status || JSON.stringify(evaluation.reasons) !== row.reasons;
  // Newly at risk, or at risk for another reason (a chargeback opened, then lost): a person looks again.
  const note = changed && evaluation.verdict === "CONTRADICTED" ? { refund: row.refundGid, operation: row.operationId, atRisk: evaluation.reason } : undefined;
  return readLater(
    options,
    now,
    row,
    {
      status: evaluation.verdict,
      reason: evaluation.reason,
      reasons: JSON.stringify(evaluation.reasons),
      classes: JSON.stringify(evaluation.classes),
      escalate: evaluation.escalate,
      atRisk: atRisk?.amount ?? null,
      currency: atRisk?.currency ?? null,
      observed: JSON.stringify(observed),
      result: JSON.stringify(evaluation),
      observedAt: now,
      attempts: row.attempts + 1,
      readFailures: 0,
      decidedAt: changed ? now : row.decidedAt,
    },
    note,
  );
}
