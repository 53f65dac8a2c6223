import type { PrismaClient, RefundApproval } from "@prisma/client";
import { readInSlices } from "../lib/db/slices";
import { parseStored } from "../lib/db/stored-json";
import { breachesSentence, storedBreaches, type Breach } from "../guardrails/limits";
import { breachesOf, decidedBreachesOf, isExpired, type ApprovalState } from "../guardrails/requests.server";
import { staffNames } from "../staff/identity.server";

/**
 * The refund limits' audit trail, as the screens and the CSV tell it (decision 030): a request for
 * approval (who asked, when, the limits it went over, who decided, when, their note, the limits in
 * force then), and a refund made outside the app that went over a limit (LimitBreach). Instants are
 * ISO strings: each screen shows them in the shop's time zone.
 */
export interface ApprovalAudit {
  requestId: string;
  /** A request still "waiting" past its expiry, which the worker has not reached yet, is expired all the same. */
  state: ApprovalState;
  askedBy: string;
  askedAt: string;
  expiresAt: string;
  /** The limits it went over when it was asked for, in words. */
  over: string;
  decidedBy: string | null;
  decidedAt: string | null;
  note: string | null;
  /** The limits in force when it was approved, in words; null unless it was approved. */
  limitsWhenDecided: string | null;
}

export interface OverLimit {
  /** Who made it, where Shopify said (the refunds/create payload's user_id); null for a refund no person made. */
  madeBy: string | null;
  /** "Made outside the app by Rene Ortiz, over the shop's limit: $180.00 is over the shop's limit of $100.00 per refund." */
  sentence: string;
}

export interface LimitsAudit {
  approval: ApprovalAudit | null;
  overLimit: OverLimit | null;
}

const whose = (name: string | null) => (name ? `${name}'s` : "their");

export function approvalAudit(request: RefundApproval, names: Map<string, string>, now: Date): ApprovalAudit {
  const askedBy = names.get(request.askedBy)!;
  const decided = decidedBreachesOf(request);
  return {
    requestId: request.id,
    state: request.state === "waiting" && isExpired(request, now) ? "expired" : (request.state as ApprovalState),
    askedBy,
    askedAt: request.askedAt.toISOString(),
    expiresAt: request.expiresAt.toISOString(),
    over: breachesSentence(breachesOf(request), whose(askedBy)),
    decidedBy: request.decidedBy ? names.get(request.decidedBy)! : null,
    decidedAt: request.decidedAt?.toISOString() ?? null,
    note: request.decisionNote,
    limitsWhenDecided:
      request.state !== "approved" || decided === null
        ? null
        : decided.length
          ? breachesSentence(decided, whose(askedBy))
          : "Within the shop's limits when it was approved.",
  };
}

/** A refund made outside the app over a limit, in words, with who made it where known. */
export function overLimitWords(breaches: Breach[], madeBy: string | null): string {
  const by = madeBy ? ` by ${madeBy}` : "";
  return `Made outside the app${by}, over the shop's limit${breaches.length > 1 ? "s" : ""}: ${breachesSentence(breaches, whose(madeBy))}`;
}

/** The requests for approval of these refund records (the refund form's attempts), by record id. */
export async function approvalsOfRecords(db: PrismaClient, shop: string, recordIds: string[], now: Date): Promise<Map<string, ApprovalAudit>> {
  const requests = await readInSlices(recordIds, (slice) => db.refundApproval.findMany({ where: { shop, recordId: { in: slice } } }));
  const names = await staffNames(
    db,
    shop,
    requests.flatMap((r) => [r.askedBy, ...(r.decidedBy ? [r.decidedBy] : [])]),
  );
  return new Map(requests.map((request) => [request.recordId, approvalAudit(request, names, now)]));
}

/** Refunds made outside the app that went over a limit, among these operations, by operation id. */
export async function overLimitsOf(db: PrismaClient, shop: string, operationIds: string[]): Promise<Map<string, OverLimit>> {
  const breaches = await readInSlices(operationIds, (slice) => db.limitBreach.findMany({ where: { shop, operationId: { in: slice } } }));
  const madeBy = await staffNames(
    db,
    shop,
    breaches.flatMap((b) => (b.staffUserId ? [b.staffUserId] : [])),
  );
  return new Map(
    breaches.map((b) => {
      const name = b.staffUserId ? madeBy.get(b.staffUserId)! : null;
      const words = overLimitWords(parseStored(storedBreaches, b.limits, `LimitBreach.limits:${b.id}`), name);
      return [b.operationId, { madeBy: name, sentence: words }] as const;
    }),
  );
}

/**
 * The limits' audit of these refunds (operations), by operation id: the request a refund issued in
 * the app waited on, and the breach of one made outside it. Refunds with neither are left out.
 */
export async function limitsAuditOf(
  db: PrismaClient,
  shop: string,
  operations: { id: string; refundGid: string }[],
  now: Date,
): Promise<Map<string, LimitsAudit>> {
  const [records, overLimits] = await Promise.all([
    readInSlices(
      operations.map((op) => op.refundGid),
      (slice) => db.refundRecord.findMany({ where: { shop, refundRef: { in: slice } }, select: { id: true, refundRef: true } }),
    ),
    overLimitsOf(
      db,
      shop,
      operations.map((op) => op.id),
    ),
  ]);
  const approvals = await approvalsOfRecords(
    db,
    shop,
    records.map((r) => r.id),
    now,
  );
  const approvalOfRefund = new Map(records.flatMap((r) => (r.refundRef && approvals.has(r.id) ? [[r.refundRef, approvals.get(r.id)!] as const] : [])));
  const audits = new Map<string, LimitsAudit>();
  for (const op of operations) {
    const approval = approvalOfRefund.get(op.refundGid) ?? null;
    const overLimit = overLimits.get(op.id) ?? null;
    if (approval || overLimit) audits.set(op.id, { approval, overLimit });
  }
  return audits;
}
