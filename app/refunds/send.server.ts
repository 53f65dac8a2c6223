import type { RefundRecord } from "@prisma/client";
import { fromMinorUnits, toMinorUnits } from "../lib/money/currency";
import { logger } from "../lib/logging/logger.server";
import { createRefund, type CreatedRefund } from "../shopify/admin/refunds.server";
import { markDue, openOperation } from "../verification/operations.server";
import { awaitingApproval, fail, type IssueResult } from "./outcomes";
import { orderNameOf, openAttemptMessage, type RefundContext } from "./pipeline.server";
import { RevisionConflict, rewriteRecord } from "./records.server";

/** refundCreate calls the app makes by itself for one record, all with the record's key; past it, a person decides. */
export const AUTOMATIC_CALLS_PER_RECORD = 5;
/** A person may ask again with the same key a few more times than the app does by itself. */
export const MAX_CALLS_PER_RECORD = 8;
/** Calls made while the person waits: the first, then same-key retries 0.5 s and 1.5 s later. */
export const INLINE_CALLS = 3;

/** What a record's attempt came to, as the person is told it: an earlier submit of the same form answers with it, never a second record. */
export function answerOf(record: RefundRecord): IssueResult {
  switch (record.shopifyOutcome) {
    case "created":
      return { ok: true, record };
    case "refused":
      return fail("USER_ERRORS", record.failureReason ?? `Shopify refused ${record.sysId}.`, record);
    case "held":
      return awaitingApproval(record, `${record.sysId} is waiting for approval: nothing was refunded yet.`);
    case "not_sent":
      return fail("NOT_APPROVED", record.failureReason ?? `${record.sysId} was not approved: nothing was refunded.`, record);
    case "key_conflict":
      return fail("KEY_CONFLICT", openAttemptMessage(record), record);
    default:
      return fail("OUTCOME_UNKNOWN", openAttemptMessage(record), record);
  }
}

/**
 * Sends the record's RefundInput with its key, up to `calls` times while the outcome stays
 * unknown (no answer, or Shopify still running the first request). A GraphQL error means Shopify
 * ran nothing: it closes a record that was never sent before, and closes nothing after a call
 * whose outcome is unknown.
 */
export async function callShopify(context: RefundContext, record: RefundRecord, calls: number, limit = AUTOMATIC_CALLS_PER_RECORD): Promise<IssueResult> {
  const { db, gateway, now } = context;
  let current = record;
  for (let call = 0; call < calls && current.calls < limit; call++) {
    if (call > 0) await gateway.sleep(500 * 3 ** (call - 1));
    const mayExist = current.shopifyOutcome === "unknown";
    current = await rewriteRecord(db, current, { calls: { increment: 1 }, shopifyOutcome: "unknown", sentAt: current.sentAt ?? now }, now);
    const outcome = await createRefund(gateway, current.shop, JSON.parse(current.refundInput ?? "{}"), current.id);
    let recorded: IssueResult | RefundRecord;
    try {
      recorded = await recordAnswer(context, current, outcome, mayExist);
    } catch (error) {
      if (error instanceof RevisionConflict) throw error;
      return answerNotRecorded(context, current, error);
    }
    if ("ok" in recorded) return recorded;
    current = recorded;
  }
  return fail("OUTCOME_UNKNOWN", `Shopify did not confirm ${current.sysId}. ${openAttemptMessage(current)}`, current);
}

/**
 * The call was made, and the database refused a write after it (a full disk, a failover). The
 * person is told what the record says: Shopify's answer, if it was written before the write that
 * failed; otherwise the record is still `unknown`, as it was written before the call, and the
 * worker's recovery asks Shopify again with the same key, which answers with the refund it made.
 */
async function answerNotRecorded({ db }: RefundContext, record: RefundRecord, error: unknown): Promise<IssueResult> {
  logger.error({ err: error, shop: record.shop, recordId: record.id }, "what came back from refundCreate could not all be recorded");
  const stored = await db.refundRecord.findUnique({ where: { id: record.id } }).catch(() => null);
  if (stored && stored.shopifyOutcome !== "unknown") return answerOf(stored);
  return fail(
    "OUTCOME_UNKNOWN",
    `${record.sysId} was sent to Shopify, but the app could not record what came back. The app asks Shopify again with the same idempotency key, which cannot refund twice, and shows the outcome here. A new refund on ${orderNameOf(record)} is refused until then.`,
    record,
  );
}

/** Writes one answer of refundCreate onto the record: a result to give the person, or the record to call again with. */
async function recordAnswer(
  context: RefundContext,
  current: RefundRecord,
  outcome: Awaited<ReturnType<typeof createRefund>>,
  mayExist: boolean,
): Promise<IssueResult | RefundRecord> {
  const { db, now } = context;
  switch (outcome.kind) {
    case "created":
      return { ok: true, record: await stampRefund(context, current, { refund: outcome.refund, actionResult: outcome.result }) };
    case "refused":
      current = await rewriteRecord(
        db,
        current,
        {
          status: "failed",
          shopifyOutcome: "refused",
          failureReason: outcome.message,
          outcomeDetail: outcome.message,
          actionResult: JSON.stringify(outcome.result),
        },
        now,
      );
      return fail("USER_ERRORS", outcome.message, current);
    case "key_conflict":
      current = await rewriteRecord(db, current, { shopifyOutcome: "key_conflict", outcomeDetail: `Shopify refused the call: ${outcome.message}` }, now);
      return fail("KEY_CONFLICT", openAttemptMessage(current), current);
    case "not_run":
      if (!mayExist) {
        const message = `Shopify did not run the refund (${outcome.message}). Nothing was refunded; try again in a moment.`;
        current = await rewriteRecord(db, current, { status: "failed", shopifyOutcome: "refused", failureReason: message, outcomeDetail: message }, now);
        return fail("NOT_RUN", message, current);
      }
      current = await rewriteRecord(db, current, { outcomeDetail: `Asked again; Shopify did not run the request (${outcome.message}).` }, now);
      return fail("OUTCOME_UNKNOWN", openAttemptMessage(current), current);
    case "concurrent":
    case "unknown":
      return rewriteRecord(
        db,
        current,
        {
          outcomeDetail:
            outcome.kind === "concurrent" ? "Shopify is still running the first request with this key." : `No answer from Shopify (${outcome.message}).`,
        },
        now,
      );
  }
}

/** The refund Shopify made for a record: what refundCreate answered (or the refund adopted by fingerprint), and how it was matched. */
export interface MadeRefund {
  refund: Pick<CreatedRefund, "id"> & Partial<Pick<CreatedRefund, "totalRefundedSet">>;
  actionResult: unknown;
  correlation?: "resource_id" | "fingerprint";
}

/**
 * Records Shopify's refund on the record and puts the refund under the contract, with the
 * person's request as `$input` (amount and currency as asked, in the presentment currency), the
 * mutation's answer as `$action.result` and the record's mint time as `$operation.created_at`.
 * If its webhook already opened an operation, that one is taken over.
 */
export async function stampRefund(context: RefundContext, record: RefundRecord, made: MadeRefund): Promise<RefundRecord> {
  const { db, contract, now } = context;
  const { refund, actionResult, correlation = "resource_id" } = made;
  const shopMoney = refund.totalRefundedSet?.shopMoney;
  const shopAmountMinor = shopMoney ? toMinorUnits(shopMoney.amount, shopMoney.currencyCode) : undefined;
  const stamped = await rewriteRecord(
    db,
    record,
    {
      refundRef: refund.id,
      shopifyOutcome: "created",
      outcomeDetail: null,
      actionResult: JSON.stringify(actionResult),
      ...(shopMoney && shopAmountMinor !== undefined ? { shopAmountMinor, shopCurrency: shopMoney.currencyCode } : {}),
    },
    now,
  );
  const facts = {
    shop: stamped.shop,
    refundGid: refund.id,
    orderGid: stamped.orderId,
    origin: "app" as const,
    amount: fromMinorUnits(stamped.amountMinor, stamped.currency),
    currency: stamped.currency,
    startedAt: stamped.createdAt,
    actionResult,
    orderName: orderNameOf(stamped),
    correlation,
    // Made here, by whom asked for it (decision 031).
    made: { in: "this_app" as const, staffUserId: stamped.askedBy, app: null },
  };
  if (!(await openOperation(db, contract, facts, now))) {
    await db.operation.updateMany({
      where: { shop: stamped.shop, refundGid: refund.id, status: "PENDING" },
      data: {
        origin: "app",
        madeIn: "this_app",
        madeByStaff: stamped.askedBy,
        madeByApp: null,
        amount: facts.amount,
        currency: facts.currency,
        amountMinor: stamped.amountMinor,
        startedAt: stamped.createdAt,
        actionResult: JSON.stringify(actionResult),
        correlation,
      },
    });
    await markDue(db, { shop: stamped.shop, refundGid: refund.id }, now);
  }
  return stamped;
}
