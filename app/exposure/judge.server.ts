import type { Exposure } from "@prisma/client";
import { evaluate } from "../contracts/evaluate";
import type { LoadedContract } from "../contracts/load";
import { contractByVersion } from "../contracts/registry.server";
import { readStored } from "../lib/db/stored-json";
import { grantedDetails, readDisputeDetails, readOrderDisputes, readOrderExposures } from "./reads.server";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import type { Failed } from "../shopify/admin/nodes.server";
import type { Claimed } from "../work/claims.server";
import { outcome, type Note, type Outcomes, type RowHelpers, type ShopByShopWork } from "../work/runner.server";
import { storedExposure } from "./view";
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

async function judgeShop(options: ExposureOptions, helpers: RowHelpers<"exposures">, due: Row[]): Promise<Judged> {
  const { db } = helpers;
  const shop = helpers.shop!;
  const now = helpers.now();
  const { unchanged, rows } = await lookAtDisputes(options, shop, due);
  // The same disputes as at the last read: the judgement stands until tomorrow's look.
  const kept = unchanged.flatMap((row) => readLater(options, now, row, { attempts: row.attempts + 1, readFailures: 0, observedAt: now }));
  if (rows.length === 0) return kept;
  const orders = await readOrderExposures(
    options.gateway,
    shop,
    rows.map((row) => row.orderGid),
  );
  const disputeGids = [...orders.values()].flatMap((read) => (read.ok && read.node ? read.node.disputes.map((d) => paymentsDisputeGid(d.id)) : []));
  const details = grantedDetails(await readDisputeDetails(options.gateway, shop, disputeGids));
  const refunds = new Map(
    (await db.operation.findMany({ where: { id: { in: rows.map((row) => row.operationId) } }, select: { id: true, amount: true, currency: true } })).map(
      (op) => [op.id, op.amount && op.currency ? { amount: op.amount, currency: op.currency } : null],
    ),
  );
  return [
    ...kept,
    ...rows.flatMap((row): Judged => {
      const read = orders.get(row.orderGid)!;
      if (!read.ok) return afterFailedRead(options, now, row, read);
      // Shopify shows no such order now (deleted, or past the 60 days without read_all_orders): nothing is judged from that.
      if (!read.node) return readLater(options, now, row, {});
      return judge(options, now, row, read.node, details === "not_granted" ? null : details, refunds.get(row.operationId) ?? null);
    }),
  ];
}

/**
 * The daily look (decision 028): a refund already judged whose order's disputes are the same as at
 * its last read (by id and status) is not read whole; one whose disputes changed, that a webhook
 * named, or never judged is. A look that fails reads it whole, whose failure then backs off.
 */
async function lookAtDisputes(options: ExposureOptions, shop: string, due: Row[]): Promise<{ unchanged: Row[]; rows: Row[] }> {
  const judgedBefore = due.filter((row) => row.attempts > 0 && disputesAtLastRead(row) !== null);
  if (judgedBefore.length === 0) return { unchanged: [], rows: due };
  const looks = await readOrderDisputes(
    options.gateway,
    shop,
    judgedBefore.map((row) => row.orderGid),
  );
  const unchanged = new Set(
    judgedBefore.filter((row) => {
      const look = looks.get(row.orderGid);
      return look?.ok && look.node && disputesKey(look.node.disputes) === disputesAtLastRead(row);
    }),
  );
  return { unchanged: [...unchanged], rows: due.filter((row) => !unchanged.has(row)) };
}

const disputesKey = (disputes: { id: string; status: string }[]) =>
  disputes
    .map((d) => `${d.id}:${d.status}`)
    .sort()
    .join(",");

function disputesAtLastRead(row: Row): string | null {
  const stored = readStored(storedExposure, row.observed);
  return stored ? disputesKey(stored.order_disputes.disputes) : null;
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
  const money = orderMoney(order, row.refundGid);
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
