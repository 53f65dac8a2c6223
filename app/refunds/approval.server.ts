import type { PrismaClient, RefundApproval, RefundRecord } from "@prisma/client";
import { formatInstant } from "../lib/time/format";
import { shopTimeZone } from "../shops/profile.server";
import { breachesSentence, limitBreaches, type ShopLimits } from "../guardrails/limits";
import { mayNotDecide } from "../guardrails/approvers.server";
import { readLimits, recentRefunds, type Actor } from "../guardrails/limits.server";
import { decide, isExpired, requestOf } from "../guardrails/requests.server";
import { staffNames } from "../staff/identity.server";
import { fail, type IssueResult } from "./outcomes";
import { withLock } from "../lib/db/locks";
import { ORDER_LOCK_MS, orderLock, REFUND_LOCK_TIMES } from "./locks.server";
import { RevisionConflict, rewriteRecord } from "./records.server";
import type { RiskCode } from "./risk";
import { fromMinorUnits } from "../lib/money/currency";
import { checkBeforeSending, type RefundContext } from "./pipeline.server";
import { callShopify, INLINE_CALLS } from "./send.server";

/** The longest reason an approver may give. */
export const MAX_REASON_LENGTH = 500;

const NO_SUCH_REQUEST = "There is no such refund request in this shop.";
/** An instant in the shop's time zone, as every screen writes one. */
const atTime = async (db: PrismaClient, shop: string, at: Date) => formatInstant(at.toISOString(), await shopTimeZone(db, shop));

async function nameOf(db: PrismaClient, shop: string, userId: string | null): Promise<string> {
  if (!userId) return "the app";
  return (await staffNames(db, shop, [userId])).get(userId) ?? `Staff member ${userId}`;
}

/** Who decided a request, and how, in words: for the one who comes second, and for the record's failure reason. */
async function decisionWords(db: PrismaClient, request: RefundApproval): Promise<string> {
  if (request.state === "expired")
    return `Nobody approved it within a day: it expired at ${await atTime(db, request.shop, request.expiresAt)}. Nothing was refunded; ask again if it is still due.`;
  const by = await nameOf(db, request.shop, request.decidedBy);
  const when = request.decidedAt ? ` at ${await atTime(db, request.shop, request.decidedAt)}` : "";
  if (request.state === "declined") return `${by} declined it${when}: ${request.decisionNote ?? "no reason given"}. Nothing was refunded.`;
  return `${by} approved it${when}.`;
}

/**
 * Why this person may not decide this request now, or null: who may decide (guardrails/approvers.server.ts),
 * and only while it waits and has not expired.
 */
async function refusal(db: PrismaClient, request: RefundApproval, approver: Actor, now: Date, limits?: ShopLimits): Promise<IssueResult | null> {
  const notDecider = mayNotDecide(request, approver, limits ?? (await readLimits(db, request.shop)));
  if (notDecider) return fail(notDecider.code, notDecider.words);
  if (request.state !== "waiting") return fail("ALREADY_DECIDED", await decisionWords(db, request));
  if (isExpired(request, now))
    return fail(
      "REQUEST_EXPIRED",
      `This request expired at ${await atTime(db, request.shop, request.expiresAt)}: nothing was refunded. The person who asked can ask again.`,
    );
  return null;
}

export interface Approval {
  shop: string;
  requestId: string;
  approver: Actor;
  note: string | null;
  /** The shop's limits revision the approver's page showed: the approval stands for the limits they saw. */
  limitsRevision: number;
  confirmAnother: boolean;
  confirmRisk: RiskCode[];
}

/**
 * Approves a request and issues its refund once, with the record's id as the idempotency key
 * (decision 008), after checking again, holding the order's lock, what Shopify can still refund,
 * whether the order was refunded since it was asked for, and its risks of paying twice.
 */
export async function approveRequest(context: RefundContext, approval: Approval): Promise<IssueResult> {
  const { db, now } = context;
  const request = await requestOf(db, approval.shop, approval.requestId);
  if (!request) return fail("REQUEST_NOT_FOUND", NO_SUCH_REQUEST);
  const refused = await refusal(db, request, approval.approver, now);
  if (refused) return refused;
  const record = await db.refundRecord.findUniqueOrThrow({ where: { id: request.recordId } });
  const locked = await withLock(db, orderLock(approval.shop, record.orderId), () => approveHoldingOrder(context, approval, request.id), REFUND_LOCK_TIMES);
  if (locked.locked) return locked.value;
  return fail("IN_PROGRESS", "A refund on this order is being issued right now. Wait a moment, then reload the page.");
}

async function approveHoldingOrder(context: RefundContext, approval: Approval, id: string): Promise<IssueResult> {
  const { db, now } = context;
  // Read again holding the order's lock: another approver may have decided it while this one waited.
  const request = await db.refundApproval.findUniqueOrThrow({ where: { id } });
  // The limits as they are now: who may approve, and (below) whether they changed since the approver's page was read.
  const limits = await readLimits(db, request.shop);
  const refused = await refusal(db, request, approval.approver, now, limits);
  if (refused) return refused;
  const record = await db.refundRecord.findUniqueOrThrow({ where: { id: request.recordId } });
  // The limits as they are now, in their own currency: before Shopify is asked anything, an approval given for other limits is asked again.
  const recent = await recentRefunds(db, record.shop, request.askedBy, limits.currency, now);
  const inForce = limitBreaches(limits, request.askedBy, limits.currency, record.limitAmountMinor ?? 0n, recent);
  if (limits.revision !== approval.limitsRevision) {
    const whose = `${await nameOf(db, record.shop, request.askedBy)}'s`;
    const words = inForce.length ? `Now: ${breachesSentence(inForce, whose)}` : "It is now within the shop's limits.";
    return fail("LIMITS_CHANGED", `The shop's limits changed since you opened this request. ${words} Look at it again, then decide.`);
  }
  const checked = await checkBeforeSending(context, {
    shop: record.shop,
    orderId: record.orderId,
    amount: fromMinorUnits(record.amountMinor, record.currency),
    note: record.note,
    notify: record.notify,
    confirmAnother: approval.confirmAnother,
    confirmRisk: approval.confirmRisk,
    sender: { by: "approving", askedAt: request.askedAt, orderRefundedMinor: request.orderRefundedMinor },
  });
  if (!checked.ok) return checked;
  if (!(await decide(db, request, { state: "approved", decidedBy: approval.approver.userId, note: approval.note, limits: inForce }, now))) {
    return fail("ALREADY_DECIDED", await decisionWords(db, await db.refundApproval.findUniqueOrThrow({ where: { id } })));
  }
  // Never sent, so its key was never used: the input is made again from the order as Shopify has it now.
  const ready = await rewriteRecord(
    db,
    record,
    {
      shopifyOutcome: "none",
      // Released to be sent: the limits count it from now (decision 030).
      sentAt: now,
      ...checked.sent,
      ...(checked.confirmed ? { confirmedAnother: record.confirmedAnother || approval.confirmAnother, confirmedBy: approval.approver.userId } : {}),
    },
    now,
  );
  return callShopify(context, ready, INLINE_CALLS);
}

/** Declines a request with the approver's reason; its record is settled as not sent, with the reason for the person who asked. */
export async function declineRequest(
  db: PrismaClient,
  decline: { shop: string; requestId: string; approver: Actor; reason: string },
  now: Date,
): Promise<IssueResult> {
  const reason = decline.reason.trim();
  if (!reason) return fail("INVALID_REASON", "Say why you decline it: the person who asked reads it.", undefined, { reason: "Say why you decline it." });
  if (reason.length > MAX_REASON_LENGTH)
    return fail("INVALID_REASON", `Keep the reason under ${MAX_REASON_LENGTH} characters.`, undefined, { reason: `At most ${MAX_REASON_LENGTH} characters.` });
  const request = await requestOf(db, decline.shop, decline.requestId);
  if (!request) return fail("REQUEST_NOT_FOUND", NO_SUCH_REQUEST);
  const refused = await refusal(db, request, decline.approver, now);
  if (refused) return refused;
  if (!(await decide(db, request, { state: "declined", decidedBy: decline.approver.userId, note: reason, limits: null }, now))) {
    return fail("ALREADY_DECIDED", await decisionWords(db, await db.refundApproval.findUniqueOrThrow({ where: { id: request.id } })));
  }
  const record = await closeHeldRecord(db, await db.refundApproval.findUniqueOrThrow({ where: { id: request.id } }), now);
  return record ? { ok: true, record } : fail("ALREADY_DECIDED", "It was decided, and its refund record had already moved on.");
}

/**
 * A held record whose request is no longer waiting: declined or expired, it is closed as not
 * sent. Approved and still held means the app stopped between the approval and sending it: it is
 * closed as not sent too, never sent later on its own (the approver is no longer there to see).
 */
async function closeHeldRecord(db: PrismaClient, request: RefundApproval, now: Date): Promise<RefundRecord | null> {
  const record = await db.refundRecord.findUnique({ where: { id: request.recordId } });
  if (!record || record.shopifyOutcome !== "held") return null;
  const words =
    request.state === "approved"
      ? `${await decisionWords(db, request)} The app stopped before sending it to Shopify: nothing was refunded. Ask again if it is still due.`
      : await decisionWords(db, request);
  return rewriteRecord(db, record, { status: "failed", shopifyOutcome: "not_sent", failureReason: words, outcomeDetail: words }, now);
}

/** Held records a stopped process may have left behind: their request decided, or never written. */
export const heldWhere = (now: Date, shop?: string) => ({
  shopifyOutcome: "held",
  updatedAt: { lt: new Date(now.getTime() - ORDER_LOCK_MS) },
  ...(shop ? { shop } : {}),
});

/** A held record whose request was never written (the app stopped between the two): not sent. */
async function closeUnasked(db: PrismaClient, id: string, now: Date): Promise<RefundRecord> {
  const words = "The app stopped while recording the request for approval: nothing was refunded. Ask again if it is still due.";
  const record = await db.refundRecord.findUniqueOrThrow({ where: { id } });
  return rewriteRecord(db, record, { status: "failed", shopifyOutcome: "not_sent", failureReason: words, outcomeDetail: words }, now);
}

/** Requests past their day, and held records a stopped process left behind, of one shop (the worker's approvals work). */
export async function closeRequests(db: PrismaClient, shop: string, now: Date): Promise<{ expired: number; closed: number }> {
  let expired = 0;
  const due = await db.refundApproval.findMany({ where: { shop, state: "waiting", expiresAt: { lte: now } }, take: 200 });
  for (const request of due) if (await decide(db, request, { state: "expired", decidedBy: null, note: null, limits: null }, now)) expired++;
  const held = await db.refundRecord.findMany({ where: heldWhere(now, shop), select: { id: true }, take: 200 });
  const requests = await db.refundApproval.findMany({ where: { recordId: { in: held.map((record) => record.id) } } });
  const requestOfRecord = new Map(requests.map((request) => [request.recordId, request]));
  let closed = 0;
  for (const { id } of held) {
    const request = requestOfRecord.get(id);
    if (request?.state === "waiting") continue;
    const record = await (request ? closeHeldRecord(db, request, now) : closeUnasked(db, id, now)).catch((error) => {
      if (error instanceof RevisionConflict) return null;
      throw error;
    });
    if (record) closed++;
  }
  return { expired, closed };
}
