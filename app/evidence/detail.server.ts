import type { PrismaClient } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import type { ConditionResult } from "../contracts/evaluate";
import { z } from "zod";
import { expectedValue } from "../contracts/schema";
import { parseStored, storedStrings } from "../lib/db/stored-json";
import { contractByVersion } from "../contracts/registry.server";
import { toRow } from "../verdicts/rows.server";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { withOrderNames } from "../verdicts/order-names.server";
import { withMakers } from "../verdicts/made.server";
import { evidenceLead, recordedRefundOf, type RelatedRefund } from "./lead";
import { DUPLICATE_CHANNELS, parseDuplicates } from "../verdicts/duplicates";
import { staffNames } from "../staff/identity.server";
import { VERDICT_LABELS, money } from "../verdicts/words";
import { moneyKnowledge } from "../settlement/money.server";
import { moneyView } from "../settlement/view";
import { exposureOfRefund } from "../exposure/page.server";
import { disputeProofOf } from "../exposure/dispute-proof.server";
import { refundProofFacts } from "../exposure/dispute-proof";
import { limitsAuditOf, type ApprovalAudit } from "../guardrails/audit.server";

/**
 * One step of a refund's story. `title` and `detail` are a merchant's words, shown on the page;
 * `technical` holds the engine's (delivery ids, API versions, verdict codes, attempts), shown only
 * inside "Technical details" and the JSON view.
 */
export interface TimelineEntry {
  at: string;
  kind: "webhook" | "observation" | "evaluation" | "review";
  title: string;
  detail: string;
  technical: string;
  tone: "success" | "critical" | "warning" | "info" | undefined;
}

export interface ConditionView extends ConditionResult {
  meaning: string;
}

/** One condition of an evaluation's stored result (app/contracts/evaluate.ts, ConditionResult). */
const storedCondition = z.object({
  id: z.string(),
  group: z.enum(["verified", "contradicted", "rule"]),
  status: z.enum(["holds", "fails", "unknown"]),
  path: z.string(),
  operator: z.string(),
  expected: expectedValue,
  expected_value: z.unknown(),
  actual: z.unknown(),
  evidence: z.string(),
});

/** An evaluation's `result` as the evidence page reads it: the engine's explanation and conditions, or what a shop's erasure left. */
const storedEvaluation = z.union([z.object({ redacted: z.literal(true) }), z.object({ explanation: z.string(), conditions: z.array(storedCondition) })]);

/** Everything the detail page shows about one of the shop's refunds; undefined for another shop's id. */
export async function loadRefundDetail(db: PrismaClient, gateway: ShopifyGateway, loaded: LoadedContract, shop: string, id: string, now: Date) {
  const op = await db.operation.findFirst({
    where: { id, shop },
    include: {
      evaluations: { orderBy: { evaluatedAt: "asc" } },
      observations: { orderBy: { observedAt: "asc" } },
      reviewEvents: { orderBy: { createdAt: "asc" } },
    },
  });
  if (!op) return undefined;
  const deliveries = await db.webhookDelivery.findMany({ where: { shop, refundGid: op.refundGid }, orderBy: { receivedAt: "asc" } });
  // Explained by the contract version that decided it, not the one new refunds are opened with.
  const contract = (contractByVersion(op.contractId, op.contractVersion) ?? loaded).contract;
  const latest = op.evaluations.at(-1);
  const result = latest ? parseStored(storedEvaluation, latest.result, `Evaluation.result of ${latest.id}`) : undefined;
  const meanings = new Map<string, string>([
    ...contract.verified_when.map((c) => [c.id, c.meaning] as [string, string]),
    ...contract.contradicted_when.map((c) => [c.id, `${c.reason} (${c.class})`] as [string, string]),
    ...contract.rules.map((r) => [r.id, r.reason] as [string, string]),
  ]);
  const conditions: ConditionView[] =
    result && "conditions" in result ? result.conditions.map((c) => ({ ...c, actual: c.actual, meaning: meanings.get(c.id) ?? "" })) : [];

  // What Shopify recorded, from the latest read-back that returned the refund.
  const readback = [...op.observations].reverse().find((o) => o.channel === "refund_readback" && o.ok && recordedRefundOf(JSON.parse(o.data ?? "null")));
  const recorded = readback ? recordedRefundOf(JSON.parse(readback.data ?? "null")) : null;
  const related = { id: true, refundGid: true, orderName: true, amount: true, currency: true, status: true } as const;
  const latestOf = (channels: readonly string[]) => [...op.observations].reverse().find((o) => channels.includes(o.channel) && o.ok);
  const duplicateOf = parseDuplicates(latestOf(DUPLICATE_CHANNELS)?.data ?? null);
  const intended = await db.refundRecord.findFirst({ where: { shop, refundRef: op.refundGid, confirmedAnother: true }, select: { confirmedBy: true } });
  const [sameOrder, recordedOrder]: RelatedRefund[][] = await Promise.all([
    db.operation.findMany({
      where: { shop, orderGid: op.orderGid, id: { not: op.id } },
      select: related,
      orderBy: [{ startedAt: "asc" }, { id: "asc" }],
      take: 20,
    }),
    recorded?.orderGid && recorded.orderGid !== op.orderGid
      ? db.operation.findMany({
          where: { shop, orderGid: recorded.orderGid, id: { not: op.id } },
          select: related,
          orderBy: [{ startedAt: "asc" }, { id: "asc" }],
          take: 20,
        })
      : Promise.resolve([]),
  ]);
  const reasons = parseStored(storedStrings, op.reasons, "Operation.reasons");
  // Before the read-back named only the refund's own order, a refund Shopify recorded on another
  // order stored that order's name: such a name is not this order's, and it is asked for afresh.
  const storedName = recorded?.orderGid && recorded.orderGid !== op.orderGid && recorded.orderName === op.orderName ? null : op.orderName;
  const [[row], followed, exposure, disputeProof, audits] = await Promise.all([
    withMakers(db, shop, [{ ...toRow(contract, op), orderName: storedName }]).then((rows) => withOrderNames(db, gateway, shop, rows)),
    moneyKnowledge(db, op, now),
    exposureOfRefund(db, shop, op.id),
    disputeProofOf(db, gateway, shop, op.id),
    limitsAuditOf(db, shop, [op], now),
  ]);
  const limits = audits.get(op.id) ?? null;
  const orderName = row.orderName;
  const lead = evidenceLead({
    contract,
    status: op.status,
    reason: op.reason,
    reasons,
    requested: { amount: row.amount, currency: op.currency },
    order: { gid: op.orderGid, name: orderName },
    recorded,
    sameOrder,
    recordedOrder,
    duplicateOf,
    ...(intended ? { intendedBy: intended.confirmedBy ? ((await staffNames(db, shop, [intended.confirmedBy])).get(intended.confirmedBy) ?? null) : null } : {}),
  });

  // People by name where Shopify gave it (an online session of theirs), "Staff member 42" only where it did not.
  const people = await staffNames(
    db,
    shop,
    op.reviewEvents.map((r) => r.actor),
  );
  const timeline: TimelineEntry[] = [
    ...deliveries.map((d) => ({
      at: d.receivedAt.toISOString(),
      kind: "webhook" as const,
      title: "Shopify told the app about this refund",
      detail: d.redeliveries ? `Shopify sent the same notice ${d.redeliveries} more time${d.redeliveries > 1 ? "s" : ""}; it counts once.` : "",
      technical: `refunds/create webhook ${d.webhookId}, API ${d.apiVersion}${d.redeliveries ? `; ${d.redeliveries} redeliver${d.redeliveries > 1 ? "ies" : "y"} dropped as duplicates` : ""}`,
      tone: "info" as const,
    })),
    ...op.observations
      .filter((o) => o.channel === "refund_readback")
      .map((o) => {
        const shown = o.ok && Boolean(JSON.parse(o.data ?? "{}")?.data?.refund);
        return {
          at: o.observedAt.toISOString(),
          kind: "observation" as const,
          title: !o.ok ? "Shopify did not answer" : shown ? "Found in Shopify" : "Not in Shopify yet",
          detail: !o.ok
            ? "This does not count for or against the refund; the app asks again."
            : shown
              ? ""
              : "Shopify can take a few seconds to show a new refund; the app looks again.",
          technical: `refund_readback ${o.ok ? (shown ? "returned the refund" : "returned no refund") : `failed: ${o.error ?? "no error"}`}${o.apiVersion ? `, API ${o.apiVersion}` : ""}`,
          tone: o.ok ? undefined : ("warning" as const),
        };
      }),
    ...op.evaluations.map((e) => ({
      at: e.evaluatedAt.toISOString(),
      kind: "evaluation" as const,
      title: e.verdict === "PENDING" ? "Checked: not decided yet" : `Checked: ${VERDICT_LABELS[e.verdict] ?? e.verdict}`,
      detail: "",
      technical: `evaluation ${e.verdict}, attempt ${e.attempt}`,
      tone: e.verdict === "VERIFIED" ? ("success" as const) : e.verdict === "PENDING" ? undefined : ("critical" as const),
    })),
    ...op.reviewEvents.map((r) => ({
      at: r.createdAt.toISOString(),
      kind: "review" as const,
      title: r.action === "resolved" ? `Resolved by ${people.get(r.actor)}` : `Re-check requested by ${people.get(r.actor)}`,
      detail: r.note ?? "",
      technical: `review ${r.action} by ${r.actor}`,
      tone: "info" as const,
    })),
    ...(limits?.approval ? approvalSteps(limits.approval) : []),
  ].sort((a, b) => a.at.localeCompare(b.at));

  const moneyShown = moneyView(
    followed.knowledge,
    followed.settlement,
    sentAmount(followed.settlement) ?? (row.amount !== null && row.currency ? money(row.amount, row.currency) : null),
  );
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
      reasons,
      decidedAt: op.decidedAt?.toISOString() ?? null,
    },
    nextAttemptAt: op.status === "PENDING" ? (op.nextDueAt?.toISOString() ?? null) : null,
    observing: op.status === "PENDING" && op.nextDueAt !== null,
    timeoutAt: new Date(op.startedAt.getTime() + contract.timing.timeout_ms).toISOString(),
    lead,
    /** The name of the order this refund was for, when known (null when Shopify recorded it on another order). */
    orderName,
    conditions,
    explanation: result && "explanation" in result ? result.explanation : null,
    duplicatesDropped: deliveries.reduce((sum, d) => sum + d.redeliveries, 0),
    contract: { id: op.contractId, version: op.contractVersion, hash: op.contractHash, declaredHash: op.contractDeclaredHash, summary: contract.summary },
    timeline,
    // Where the refund's money is (contract shopify.refund.settled), or why the app does not follow it;
    // the customer's sentence says the refund's amount as they paid it (its presentment currency).
    // What went back to the card: the Shopify Payments part of a refund split with a gift card or another gateway.
    money: moneyShown,
    // Money at risk twice (contract shopify.refund.exposure), with the refund's proof a dispute asks for.
    // The proof's button, or why it cannot be sent, or Shopify's answer once it was.
    exposure: exposure && {
      ...exposure,
      proof: refundProofFacts(row.amount !== null && row.currency ? money(row.amount, row.currency) : null, op.startedAt.toISOString(), moneyShown.followed),
      disputeProof,
    },
    // Refund limits (decision 030): the request it waited on before it was sent, or the limit it went over, made outside the app.
    limits,
    apiVersions: apiVersionsOf(op.observations),
    now: now.toISOString(),
  };
}

/** The request a refund over a limit waited on, as steps of its story: asked, then approved (a refund that was sent was approved). */
function approvalSteps(approval: ApprovalAudit): TimelineEntry[] {
  const asked: TimelineEntry = {
    at: approval.askedAt,
    kind: "review",
    title: `Asked for approval by ${approval.askedBy}`,
    detail: approval.over,
    technical: `refund approval ${approval.requestId} asked`,
    tone: "info",
  };
  if (!approval.decidedAt || !approval.decidedBy) return [asked];
  const decided: TimelineEntry = {
    at: approval.decidedAt,
    kind: "review",
    title: `${approval.state === "approved" ? "Approved" : "Declined"} by ${approval.decidedBy}`,
    detail: approval.note ?? "",
    technical: `refund approval ${approval.requestId} ${approval.state}`,
    tone: "info",
  };
  return [asked, decided];
}

/** Which Admin API versions served the evidence, per channel (the latest observation of each). */
function apiVersionsOf(observations: { channel: string; apiVersion: string | null; observedAt: Date }[]): { channel: string; apiVersion: string }[] {
  const latest = new Map<string, string>();
  for (const o of observations) if (o.apiVersion) latest.set(o.channel, o.apiVersion);
  return [...latest].map(([channel, apiVersion]) => ({ channel, apiVersion }));
}

const sentAmount = (settlement: { amount: string | null; currency: string | null } | null) =>
  settlement?.amount && settlement.currency ? money(settlement.amount, settlement.currency) : null;
