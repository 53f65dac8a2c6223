import type { Observation, Operation, PrismaClient } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import { contractByVersion } from "../contracts/registry.server";
import type { Contract } from "../contracts/schema";
import { exposureSection } from "../exposure/shown.server";
import { limitsAuditOf } from "../guardrails/audit.server";
import { parseStored, storedStrings } from "../lib/db/stored-json";
import { moneySection } from "../settlement/money.server";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { staffNames } from "../staff/identity.server";
import { DUPLICATE_CHANNELS, parseDuplicates } from "../verdicts/duplicates";
import { withMakers } from "../verdicts/made.server";
import { withOrderNames } from "../verdicts/order-names.server";
import { toRow, type RefundRow } from "../verdicts/rows.server";
import { money } from "../verdicts/words";
import { conditionsOf } from "./conditions";
import { evidenceLead, recordedRefundOf, type RecordedRefund, type RelatedRefund } from "./lead";
import { timelineOf } from "./timeline";

export type { ConditionView } from "./conditions";
export type { TimelineEntry } from "./timeline";

const RELATED = { id: true, refundGid: true, orderName: true, amount: true, currency: true, status: true } as const;

/** The shop's other refunds on an order, as the evidence page links to them. */
const refundsOnOrder = (db: PrismaClient, op: Operation, orderGid: string): Promise<RelatedRefund[]> =>
  db.operation.findMany({ where: { shop: op.shop, orderGid, id: { not: op.id } }, select: RELATED, orderBy: [{ startedAt: "asc" }, { id: "asc" }], take: 20 });

/** What Shopify recorded, from the latest read-back that returned the refund. */
function recordedOf(observations: Observation[]): RecordedRefund | null {
  const readback = [...observations].reverse().find((o) => o.channel === "refund_readback" && o.ok && recordedRefundOf(JSON.parse(o.data ?? "null")));
  return readback ? recordedRefundOf(JSON.parse(readback.data ?? "null")) : null;
}

/** The lead: what the verdict means in a merchant's words, from what Shopify recorded and the shop's refunds around it. */
async function leadOf(db: PrismaClient, op: Operation & { observations: Observation[] }, contract: Contract, row: RefundRow) {
  const recorded = recordedOf(op.observations);
  const latestOf = (channels: readonly string[]) => [...op.observations].reverse().find((o) => channels.includes(o.channel) && o.ok);
  const [sameOrder, recordedOrder, intended] = await Promise.all([
    refundsOnOrder(db, op, op.orderGid),
    recorded?.orderGid && recorded.orderGid !== op.orderGid ? refundsOnOrder(db, op, recorded.orderGid) : Promise.resolve([]),
    db.refundRecord.findFirst({ where: { shop: op.shop, refundRef: op.refundGid, confirmedAnother: true }, select: { confirmedBy: true } }),
  ]);
  const intendedBy = intended?.confirmedBy ? ((await staffNames(db, op.shop, [intended.confirmedBy])).get(intended.confirmedBy) ?? null) : null;
  return evidenceLead({
    contract,
    status: op.status,
    reason: op.reason,
    reasons: parseStored(storedStrings, op.reasons, "Operation.reasons"),
    requested: { amount: row.amount, currency: op.currency },
    order: { gid: op.orderGid, name: row.orderName },
    recorded,
    sameOrder,
    recordedOrder,
    duplicateOf: parseDuplicates(latestOf(DUPLICATE_CHANNELS)?.data ?? null),
    ...(intended ? { intendedBy } : {}),
  });
}

/**
 * The refund's row as the lists show it, the order named as people know it. Before the read-back
 * named only the refund's own order, a refund Shopify recorded on another order stored that
 * order's name: such a name is not this order's, and it is asked for afresh.
 */
async function rowOf(db: PrismaClient, gateway: ShopifyGateway, op: Operation & { observations: Observation[] }, contract: Contract): Promise<RefundRow> {
  const recorded = recordedOf(op.observations);
  const storedName = recorded?.orderGid && recorded.orderGid !== op.orderGid && recorded.orderName === op.orderName ? null : op.orderName;
  const [row] = await withMakers(db, op.shop, [{ ...toRow(contract, op), orderName: storedName }]).then((rows) => withOrderNames(db, gateway, op.shop, rows));
  return row;
}

/** Which Admin API versions served the evidence, per channel (the latest observation of each). */
function apiVersionsOf(observations: { channel: string; apiVersion: string | null; observedAt: Date }[]): { channel: string; apiVersion: string }[] {
  const latest = new Map<string, string>();
  for (const o of observations) if (o.apiVersion) latest.set(o.channel, o.apiVersion);
  return [...latest].map(([channel, apiVersion]) => ({ channel, apiVersion }));
}

/**
 * Everything the evidence page shows about one of the shop's refunds; undefined for another shop's
 * id. Its sections after the verdict: the refund limits it met (decision 030: the request it waited
 * on before it was sent, or the limit it went over, made outside the app), where its money went
 * (contract shopify.refund.settled) and whether it is at risk twice (shopify.refund.exposure).
 */
export async function loadRefundDetail(db: PrismaClient, gateway: ShopifyGateway, loaded: LoadedContract, refund: { shop: string; id: string; now: Date }) {
  const { shop, id, now } = refund;
  const op = await db.operation.findFirst({
    where: { id, shop },
    include: {
      evaluations: { orderBy: { evaluatedAt: "asc" } },
      observations: { orderBy: { observedAt: "asc" } },
      reviewEvents: { orderBy: { createdAt: "asc" } },
    },
  });
  if (!op) return undefined;
  // Explained by the contract version that decided it, not the one new refunds are opened with.
  const contract = (contractByVersion(op.contractId, op.contractVersion) ?? loaded).contract;
  const [deliveries, row, audits, people] = await Promise.all([
    db.webhookDelivery.findMany({ where: { shop, refundGid: op.refundGid }, orderBy: { receivedAt: "asc" } }),
    rowOf(db, gateway, op, contract),
    limitsAuditOf(db, shop, [op], now),
    // People by name where Shopify gave it (an online session of theirs), "Staff member 42" only where it did not.
    staffNames(
      db,
      shop,
      op.reviewEvents.map((r) => r.actor),
    ),
  ]);
  const limits = audits.get(op.id) ?? null;
  const amount = row.amount !== null && row.currency ? money(row.amount, row.currency) : null;
  const moneyShown = await moneySection(db, op, amount, now);
  return {
    refund: {
      ...row,
      provisionalVerdict: op.provisionalVerdict,
      shopAmount: op.shopAmount,
      shopCurrency: op.shopCurrency,
      refundGid: op.refundGid,
      orderGid: op.orderGid,
      attempts: op.attempts,
      revision: op.revision,
      escalate: op.escalate,
      reasons: parseStored(storedStrings, op.reasons, "Operation.reasons"),
      decidedAt: op.decidedAt?.toISOString() ?? null,
    },
    nextAttemptAt: op.status === "PENDING" ? (op.nextDueAt?.toISOString() ?? null) : null,
    observing: op.status === "PENDING" && op.nextDueAt !== null,
    timeoutAt: new Date(op.startedAt.getTime() + contract.timing.timeout_ms).toISOString(),
    lead: await leadOf(db, op, contract, row),
    /** The name of the order this refund was for, when known (null when Shopify recorded it on another order). */
    orderName: row.orderName,
    ...conditionsOf(contract, op.evaluations.at(-1)),
    duplicatesDropped: deliveries.reduce((sum, d) => sum + d.redeliveries, 0),
    contract: { id: op.contractId, version: op.contractVersion, hash: op.contractHash, declaredHash: op.contractDeclaredHash, summary: contract.summary },
    timeline: timelineOf({ op, deliveries, people, limits }),
    limits,
    money: moneyShown,
    exposure: await exposureSection(db, gateway, { shop, operationId: op.id, startedAt: op.startedAt, amount, money: moneyShown }),
    apiVersions: apiVersionsOf(op.observations),
    now: now.toISOString(),
  };
}
