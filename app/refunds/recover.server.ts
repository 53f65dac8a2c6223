import type { PrismaClient, RefundRecord } from "@prisma/client";
import { compareDecimalValues, parseInstant, wholeSecond } from "../contracts/values";
import { fromMinorUnits } from "../lib/money/currency";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { loadOrderRefunds } from "../shopify/admin/refunds.server";
import type { RefundContext } from "./pipeline.server";
import { AUTOMATIC_CALLS_PER_RECORD, callShopify, MAX_CALLS_PER_RECORD, stampRefund } from "./send.server";
import { fail, type IssueResult } from "./outcomes";
import { ORDER_LOCK_MS } from "./locks.server";
import { isOpenAttempt, RevisionConflict, rewriteRecord } from "./records.server";

/** A call with no known outcome is left alone this long, so that no call of ours is still in flight. */
const UNANSWERED_GRACE_MS = 30_000;

/** Records whose call has no known outcome, left alone long enough that no call of ours is still in flight (all shops', or one's). */
export const unansweredCallsWhere = (now: Date, shop?: string) => ({
  shopifyOutcome: "unknown",
  calls: { lt: AUTOMATIC_CALLS_PER_RECORD },
  updatedAt: { lt: new Date(now.getTime() - UNANSWERED_GRACE_MS) },
  ...(shop ? { shop } : {}),
});

/**
 * Records made ready to send and never sent, past the order lock's hold (all shops', or one's):
 * by their last write, which is the mint or, for a request that waited, its approval.
 */
export const unsentWhere = (now: Date, shop?: string) => ({
  shopifyOutcome: "none",
  updatedAt: { lt: new Date(now.getTime() - ORDER_LOCK_MS) },
  ...(shop ? { shop } : {}),
});

/**
 * The refund Shopify created on the order for this record, by the contract's weak fingerprint
 * correlation: the same amount in the same currency, created since the record was minted, held by
 * no other record. For a key Shopify may no longer remember, before calling with it again.
 */
async function findByFingerprint(db: PrismaClient, gateway: ShopifyGateway, record: RefundRecord) {
  const answer = await loadOrderRefunds(gateway, record.shop, record.orderId, { waitThrottled: false });
  if (!answer.ok) return { ok: false as const };
  const amount = fromMinorUnits(record.amountMinor, record.currency);
  const fromSecond = wholeSecond(record.createdAt.getTime());
  const taken = new Set(
    (await db.refundRecord.findMany({ where: { shop: record.shop, orderId: record.orderId, refundRef: { not: null } }, select: { refundRef: true } })).map(
      (r) => r.refundRef,
    ),
  );
  const match = (answer.data?.refunds ?? [])
    .map((refund) => ({ refund, createdAt: parseInstant(refund.createdAt) }))
    .filter(({ refund, createdAt }) => createdAt !== undefined && wholeSecond(createdAt) >= fromSecond && !taken.has(refund.id))
    .filter(
      ({ refund }) =>
        refund.totalRefundedSet.presentmentMoney.currencyCode === record.currency &&
        compareDecimalValues(refund.totalRefundedSet.presentmentMoney.amount, amount) === 0,
    )
    .sort((a, b) => a.createdAt! - b.createdAt!)[0]?.refund;
  return { ok: true as const, match };
}

/**
 * Settles a record whose call went unanswered: adopts the refund Shopify shows for it, or asks
 * Shopify once more with the same key (which answers with the original refund if it exists).
 */
export async function recoverRecord(context: RefundContext, record: RefundRecord, limit = AUTOMATIC_CALLS_PER_RECORD): Promise<IssueResult> {
  const found = await findByFingerprint(context.db, context.gateway, record);
  if (!found.ok) return fail("SHOPIFY_UNAVAILABLE", "Shopify did not answer, so the app cannot tell whether the refund exists. Nothing was sent.", record);
  if (found.match) {
    const refund = found.match;
    const actionResult = { refundCreate: { refund: { id: refund.id }, userErrors: [], adoptedBy: "fingerprint" } };
    return { ok: true, record: await stampRefund(context, record, { refund, actionResult, correlation: "fingerprint" }) };
  }
  return callShopify(context, record, 1, limit);
}

/**
 * A record minted and never sent: its request stopped (the process died) between the mint and the
 * call, under the order's lock. Past the lock's hold nothing can still be sending it, and it
 * was never sent (a call marks the record `unknown` before it leaves): it fails, saying so, and the
 * order is open to refunds again. Sending it minutes later, unasked, would surprise the person.
 */
export async function abandonUnsentRecords(db: PrismaClient, now: Date, shop: string): Promise<number> {
  const stale = await db.refundRecord.findMany({ where: unsentWhere(now, shop), take: 50 });
  let abandoned = 0;
  for (const record of stale) {
    const reason = "Not sent: the app stopped before it called Shopify, so nothing was refunded. Issue the refund again if it is still wanted.";
    try {
      await rewriteRecord(db, record, { status: "failed", shopifyOutcome: "refused", failureReason: reason, outcomeDetail: reason }, now);
      abandoned++;
    } catch (error) {
      if (!(error instanceof RevisionConflict)) throw error;
    }
  }
  return abandoned;
}

/** The worker's pass over unanswered calls; a record another writer moved meanwhile is left for the next pass. */
export async function recoverUnansweredCalls(context: RefundContext, shop: string): Promise<number> {
  let answered = 0;
  const unanswered = await context.db.refundRecord.findMany({ where: unansweredCallsWhere(context.now, shop), orderBy: { createdAt: "asc" }, take: 50 });
  for (const record of unanswered) {
    try {
      const result = await recoverRecord(context, record);
      if (result.ok || result.record?.shopifyOutcome !== "unknown") answered++;
    } catch (error) {
      if (!(error instanceof RevisionConflict)) throw error;
    }
  }
  return answered;
}

/** One of the shop's refund records, at the revision the person's page showed. */
export interface RecordShown {
  shop: string;
  recordId: string;
  revision: string;
}

/** A person asks Shopify again about an unanswered attempt, with the same key: it can never refund twice. */
export async function resendRefund(context: RefundContext, attempt: RecordShown): Promise<IssueResult> {
  const { shop, recordId, revision } = attempt;
  const record = await context.db.refundRecord.findFirst({ where: { id: recordId, shop } });
  if (!record) return fail("ORDER_NOT_FOUND", "No such refund record in this shop.");
  if (record.revision !== revision) return fail("CONFLICT", new RevisionConflict().message + " Reload to see its current state.", record);
  if (record.shopifyOutcome !== "unknown")
    return fail(
      "NOT_RETRYABLE",
      `${record.sysId} is settled (${record.shopifyOutcome}); only an attempt without an answer from Shopify can be asked again.`,
      record,
    );
  if (record.calls >= MAX_CALLS_PER_RECORD)
    return fail(
      "NOT_RETRYABLE",
      `${record.sysId} was sent ${record.calls} times without an answer. Check the order in Shopify admin, then settle the attempt.`,
      record,
    );
  return recoverRecord(context, record, MAX_CALLS_PER_RECORD);
}

/**
 * A person checked the order in Shopify admin and found no refund for an open attempt (or
 * resolves a key conflict): the record fails with their words, and the order is open to refunds again.
 */
export async function closeWithoutRefund(db: PrismaClient, attempt: RecordShown & { actor: string }, now: Date): Promise<IssueResult> {
  const { shop, recordId, revision, actor } = attempt;
  const record = await db.refundRecord.findFirst({ where: { id: recordId, shop } });
  if (!record) return fail("ORDER_NOT_FOUND", "No such refund record in this shop.");
  if (record.revision !== revision) return fail("CONFLICT", new RevisionConflict().message + " Reload to see its current state.", record);
  if (!isOpenAttempt(record)) return fail("NOT_RETRYABLE", `${record.sysId} is already settled (${record.shopifyOutcome}).`, record);
  const reason = `Settled by staff member ${actor}: Shopify admin shows no refund for this attempt.`;
  const settled = await rewriteRecord(db, record, { status: "failed", shopifyOutcome: "refused", failureReason: reason, outcomeDetail: reason }, now);
  return { ok: true, record: settled };
}
