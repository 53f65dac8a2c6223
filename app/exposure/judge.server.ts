import type { Exposure } from "@prisma/client";
import { contractOfRow, evaluateRow, timeoutOf, verdictColumns, type FollowUp, type FollowUpOptions } from "../follow-ups/follow-up";
import { readStored } from "../lib/db/stored-json";
import { grantedDetails, readDisputeDetails, readOrderDisputes, readOrderExposures } from "./reads.server";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import type { Failed } from "../shopify/admin/nodes.server";
import type { Claimed } from "../work/claims.server";
import { outcome, type Note, type Outcomes, type RowHelpers } from "../work/runner.server";
import { storedExposure } from "./view";
import { moneyAtRisk, orderDisputes, orderMoney, paymentsDisputeGid, type DisputeDetails, type ExposureOrder } from "./order-exposure";

/** The exposure follow-up (./follow-up.server.ts EXPOSURE) and Shopify: what judging a shop's rows needs. */
interface Judging {
  followUp: FollowUp<"exposures">;
  gateway: ShopifyGateway;
}

type Row = Claimed<"exposures">;
type Judged = Outcomes<"exposures">;

/**
 * A shop's exposures due, judged (the follow-up's judging): their orders are read (one request per
 * batch, not one per refund), their disputes' details where the shop granted them, and each refund
 * is judged by contract shopify.refund.exposure, then read again a day later until the chargeback
 * window closes.
 */
export function judgeExposures(followUp: FollowUp<"exposures">, rows: Row[], helpers: RowHelpers<"exposures">, options: FollowUpOptions): Promise<Judged> {
  return judgeShop({ followUp, gateway: options.gateway }, helpers, rows);
}

async function judgeShop(options: Judging, helpers: RowHelpers<"exposures">, due: Row[]): Promise<Judged> {
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
      return judgeExposure(options, now, row, {
        order: read.node,
        details: details === "not_granted" ? null : details,
        refund: refunds.get(row.operationId) ?? null,
      });
    }),
  ];
}

/**
 * The daily look (decision 028): a refund already judged whose order's disputes are the same as at
 * its last read (by id and status) is not read whole; one whose disputes changed, that a webhook
 * named, or never judged is. A look that fails reads it whole, whose failure then backs off.
 */
async function lookAtDisputes(options: Judging, shop: string, due: Row[]): Promise<{ unchanged: Row[]; rows: Row[] }> {
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

/** The next read a poll interval away, or none once the chargeback window has closed (a row never read ends UNVERIFIABLE, alerting no one). */
function readLater(options: Judging, now: Date, row: Row, data: Partial<Exposure>, note?: Note): Judged {
  const { timing } = contractOfRow(options.followUp, row).contract;
  const next = now.getTime() + timing.poll_interval_ms;
  if (next < timeoutOf(options.followUp, row)) return outcome([row], { kind: "due", at: new Date(next), data, note });
  const unread = row.status === "PENDING" && !data.status ? { status: "UNVERIFIABLE", reason: timing.on_timeout.reason, decidedAt: now } : {};
  return outcome([row], { kind: "done", data: { ...data, ...unread }, note });
}

function afterFailedRead(options: Judging, now: Date, row: Row, failure: Failed): Judged {
  if (failure.kind === "deferred") return outcome([row], { kind: "due", at: new Date(now.getTime() + failure.retryAfterMs) });
  if (now.getTime() >= timeoutOf(options.followUp, row)) return readLater(options, now, row, {});
  const failures = row.readFailures + 1;
  return outcome([row], { kind: "retry", failures, askedMs: failure.retryAfterMs, data: { readFailures: failures } });
}

/** What one refund's judgement reads: its order as Shopify records it now, its disputes' details (null: not granted), and the refund's own amount. */
interface OrderRead {
  order: ExposureOrder;
  details: Map<string, DisputeDetails> | null;
  refund: { amount: string; currency: string } | null;
}

/** Judges one refund's exposure from its order as Shopify records it now, and writes what the read showed. */
function judgeExposure(options: Judging, now: Date, row: Row, { order, details, refund }: OrderRead): Judged {
  const loaded = contractOfRow(options.followUp, row);
  const createdAt = order.refunds.find((r) => r.id === row.refundGid)?.createdAt;
  const money = orderMoney(order, row.refundGid);
  const disputes = orderDisputes(order, createdAt ? new Date(createdAt) : row.startedAt, details);
  const observed = { order_money: money, order_disputes: disputes };
  const evaluation = evaluateRow(loaded, row, observed, now);
  const atRisk = evaluation.verdict === "CONTRADICTED" ? moneyAtRisk(money, disputes, refund) : null;
  const changed = evaluation.verdict !== row.status || JSON.stringify(evaluation.reasons) !== row.reasons;
  // Newly at risk, or at risk for another reason (a chargeback opened, then lost): a person looks again.
  const note = changed && evaluation.verdict === "CONTRADICTED" ? { refund: row.refundGid, operation: row.operationId, atRisk: evaluation.reason } : undefined;
  return readLater(
    options,
    now,
    row,
    {
      ...verdictColumns(evaluation),
      atRisk: atRisk?.amount ?? null,
      currency: atRisk?.currency ?? null,
      observed: JSON.stringify(observed),
      observedAt: now,
      attempts: row.attempts + 1,
      readFailures: 0,
      decidedAt: changed ? now : row.decidedAt,
    },
    note,
  );
}
