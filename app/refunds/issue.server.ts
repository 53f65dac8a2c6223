import type { PrismaClient } from "@prisma/client";
import { withLock } from "../lib/db/locks";
import { fromMinorUnits } from "../lib/money/currency";
import { mintUnderLimits } from "./limits-gate.server";
import { orderLock, REFUND_LOCK_TIMES } from "./locks.server";
import { awaitingApproval, fail, type IssueResult } from "./outcomes";
import { checkBeforeSending, type RefundContext } from "./pipeline.server";
import { AttemptLimitReached, MAX_ATTEMPTS_PER_ORDER } from "./records.server";
import type { RiskCode } from "./risk";
import { answerOf, callShopify, INLINE_CALLS } from "./send.server";

export interface IssueRequest {
  shop: string;
  orderId: string;
  amount: string;
  note?: string | null;
  notify: boolean;
  confirmAnother?: boolean;
  /** "Yes, refund anyway": the risks of paying twice the person saw and confirmed. */
  confirmRisk?: RiskCode[];
  /** The one-time token of the form: the same form submitted twice is one intent, one record. */
  formToken: string;
  /**
   * The staff member asking (their user id): every request names one (app/screens/context.server.ts
   * refuses a session token that names nobody). Kept as who asked, and with a confirmation of another refund or of a risk.
   */
  actor: string;
}

/**
 * Issues a refund a person asked for: refused while another attempt on the order is open;
 * the order's capacity is checked with Shopify before any mutation; the record is minted (status
 * created, with the exact RefundInput) before Shopify is called; then refundCreate with the
 * record's id as its idempotency key (see docs/decisions/008).
 */
export async function issueRefund(context: RefundContext, request: IssueRequest): Promise<IssueResult> {
  // One request at a time per order, in every process: the checks below and the mint cannot interleave (decision 016).
  const locked = await withLock(context.db, orderLock(request.shop, request.orderId), () => issueHoldingOrder(context, request), REFUND_LOCK_TIMES);
  if (locked.locked) return locked.value;
  return fail("IN_PROGRESS", "Another refund on this order is being issued right now. Wait a moment, then reload the page to see it.");
}

/** The form's token: an earlier submit of the same form, on this order; a refusal when the token was made for another order. */
async function earlierIntent(db: PrismaClient, request: IssueRequest): Promise<IssueResult | null> {
  const earlier = await db.refundRecord.findUnique({ where: { shop_intentKey: { shop: request.shop, intentKey: request.formToken } } });
  if (!earlier) return null;
  // A form's token names one intent on one order: posted on another order it is not that intent, and says nothing of it.
  if (earlier.orderId !== request.orderId) {
    const message = "This form was made for another order. Reload the page and try again.";
    return fail("INVALID_FORM", message, undefined, { formToken: message });
  }
  return answerOf(earlier);
}

async function issueHoldingOrder(context: RefundContext, request: IssueRequest): Promise<IssueResult> {
  const { db, now } = context;
  const earlier = await earlierIntent(db, request);
  if (earlier) return earlier;
  if ((await db.refundRecord.count({ where: { shop: request.shop, orderId: request.orderId } })) >= MAX_ATTEMPTS_PER_ORDER) {
    return fail("ATTEMPT_LIMIT", new AttemptLimitReached().message);
  }
  const note = request.note?.trim() || null;
  const checked = await checkBeforeSending(context, {
    shop: request.shop,
    orderId: request.orderId,
    amount: request.amount,
    note,
    notify: request.notify,
    confirmAnother: Boolean(request.confirmAnother),
    confirmRisk: request.confirmRisk ?? [],
    sender: { by: "issuing" },
  });
  if (!checked.ok) return checked;
  const { order, currency, amountMinor } = checked;
  const minted = await mintUnderLimits(
    db,
    { shop: request.shop, actor: request.actor, order, amountMinor },
    {
      shop: request.shop,
      caption: `Refund of ${fromMinorUnits(amountMinor, currency)} ${currency} on ${order.name}`,
      orderId: order.id,
      amountMinor,
      currency,
      note,
      notify: request.notify,
      ...checked.sent,
      intentKey: request.formToken,
      // confirmedAnother stays the "another refund" answer alone (a duplicate's evidence, contract 1.2.0); confirmedBy is who said yes to either question.
      confirmedAnother: Boolean(request.confirmAnother),
      confirmedBy: checked.confirmed ? request.actor : null,
    },
    now,
  );
  if (!minted.locked) return fail("IN_PROGRESS", "Other refunds in this shop are being checked against its limits right now. Try again in a moment.");
  const { record, approval } = minted.value;
  if (!record) return fail("ATTEMPT_LIMIT", new AttemptLimitReached().message);
  if (approval) return awaitingApproval(record, approval.message);
  return callShopify(context, record, INLINE_CALLS);
}
