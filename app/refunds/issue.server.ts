import type { PrismaClient, RefundRecord } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import { parseStored, storedCaptions } from "../lib/db/stored-json";
import { formatMoney, fromMinorUnits, toMinorUnits } from "../lib/money/currency";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { createRefund, loadOrderForRefund, type CreatedRefund, type OrderForRefund } from "../shopify/admin/refunds.server";
import { markDue, openOperation } from "../verification/operations.server";
import { minutesAgo, overRefundMessage, RECENT_REFUND_WINDOW_MS } from "./form";
import { awaitingApproval, fail, type IssueFailure, type IssueResult } from "./outcomes";
import { parseAmount } from "../lib/money/typed-amount";
import { allocate, presentmentCurrency, refundableMinor, type RefundTransactionInput } from "./plan";
import { withLock } from "../lib/db/locks";
import { orderLock, REFUND_LOCK_TIMES } from "./locks.server";
import { confirmedRiskCaptions, refundRisks, riskFacts, riskRefusalMessage, type RiskCode } from "./risk";
import { AttemptLimitReached, MAX_ATTEMPTS_PER_ORDER, RevisionConflict, rewriteRecord, UNSETTLED_OUTCOMES } from "./records.server";
import { logger } from "../lib/logging/logger.server";
import { mintUnderLimits } from "./limits-gate.server";

/** refundCreate calls the app makes by itself for one record, all with the record's key; past it, a person decides. */
export const AUTOMATIC_CALLS_PER_RECORD = 5;
/** A person may ask again with the same key a few more times than the app does by itself. */
export const MAX_CALLS_PER_RECORD = 8;
/** Calls made while the person waits: the first, then same-key retries 0.5 s and 1.5 s later. */
export const INLINE_CALLS = 3;

const orderNameOf = (record: RefundRecord) => parseStored(storedCaptions, record.refCaptions, "RefundRecord.refCaptions")[0]?.caption ?? "the order";
const amountOf = (record: RefundRecord) => `${fromMinorUnits(record.amountMinor, record.currency)} ${record.currency}`;

/** While an attempt on the order has no known outcome, a new refund could be a second one: say which, and what is being done. */
function unsettledMessage(record: RefundRecord): string {
  if (record.shopifyOutcome === "none") {
    return `${record.sysId} (${amountOf(record)}) on ${orderNameOf(record)} is being sent to Shopify. A new refund on this order waits until Shopify has answered it.`;
  }
  if (record.shopifyOutcome === "key_conflict") {
    return `${record.sysId} (${amountOf(record)}) on ${orderNameOf(record)} needs a person: Shopify refused to repeat it because its idempotency key was already used with other details. Check the order in Shopify admin and settle ${record.sysId} before refunding again.`;
  }
  return `${record.sysId} (${amountOf(record)}) on ${orderNameOf(record)} has no answer from Shopify yet. The app keeps asking Shopify with the same idempotency key, which cannot refund twice. A new refund on this order is refused until ${record.sysId} is settled.`;
}

export async function unsettledRecord(db: PrismaClient, shop: string, orderId: string): Promise<RefundRecord | null> {
  return db.refundRecord.findFirst({ where: { shop, orderId, shopifyOutcome: { in: UNSETTLED_OUTCOMES } }, orderBy: { createdAt: "asc" } });
}

/**
 * A refund on the order in the last ten minutes (or since `since`): one issued from the app (Shopify created it), or
 * any refund the app knows of by its refund's time: its verdict operation (webhook, sweep or app),
 * or a refunds/create delivery stored and not yet opened by the worker. Words for a person, or null.
 */
export async function recentRefund(
  db: PrismaClient,
  shop: string,
  orderId: string,
  now: Date,
  since = new Date(now.getTime() - RECENT_REFUND_WINDOW_MS),
): Promise<{ at: Date; message: string } | null> {
  const [record, operation, delivery] = await Promise.all([
    db.refundRecord.findFirst({ where: { shop, orderId, shopifyOutcome: "created", createdAt: { gte: since } }, orderBy: { createdAt: "desc" } }),
    db.operation.findFirst({ where: { shop, orderGid: orderId, startedAt: { gte: since } }, orderBy: { startedAt: "desc" } }),
    db.webhookDelivery.findFirst({ where: { shop, orderGid: orderId, refundCreatedAt: { gte: since } }, orderBy: { refundCreatedAt: "desc" } }),
  ]);
  const seen =
    delivery && (!operation || delivery.refundCreatedAt > operation.startedAt)
      ? { refundGid: delivery.refundGid, at: delivery.refundCreatedAt, amount: delivery.amount, currency: delivery.currency, orderName: null }
      : operation && {
          refundGid: operation.refundGid,
          at: operation.startedAt,
          amount: operation.amount,
          currency: operation.currency,
          orderName: operation.orderName,
        };
  // The record's own refund is seen again through its webhook, stamped by Shopify's clock, which
  // may be ahead of ours: it is still the record's refund, named by the record.
  if (record && (!seen || seen.refundGid === record.refundRef || record.createdAt >= seen.at)) {
    return {
      at: record.createdAt,
      message: `${record.sysId}, a refund of ${formatMoney(record.amountMinor, record.currency)} on ${orderNameOf(record)}, was issued from the app ${minutesAgo(record.createdAt, now)}.`,
    };
  }
  if (seen) {
    const minor = seen.amount && seen.currency ? toMinorUnits(seen.amount, seen.currency) : undefined;
    const money = minor !== undefined && seen.currency ? `of ${formatMoney(minor, seen.currency)} ` : "";
    return { at: seen.at, message: `A refund ${money}was made on ${seen.orderName ?? "this order"} ${minutesAgo(seen.at, now)}.` };
  }
  return null;
}

type RefundPlan = { ok: true; order: OrderForRefund; currency: string; amountMinor: bigint; transactions: RefundTransactionInput[] } | IssueFailure;

/** The order as Shopify has it now, the amount in its presentment currency, and the refund transactions; or why it cannot be refunded. */
export async function prepareRefund(gateway: ShopifyGateway, shop: string, orderId: string, amount: string): Promise<RefundPlan> {
  const answer = await loadOrderForRefund(gateway, shop, orderId);
  if (!answer.ok) return fail("SHOPIFY_UNAVAILABLE", `Shopify did not answer (${answer.message}). Nothing was refunded; try again in a moment.`);
  const order = answer.data;
  if (!order) return fail("ORDER_NOT_FOUND", "Shopify does not show this order.");
  const currency = presentmentCurrency(order);
  const parsed = parseAmount(amount, currency);
  if (!parsed.ok) return fail("INVALID_AMOUNT", parsed.message, undefined, { amount: parsed.message });
  const amountMinor = parsed.minor;
  const capacity = refundableMinor(order);
  const { transactions, unallocated } = allocate(order, amountMinor);
  if (amountMinor > capacity || unallocated > 0n) {
    const words = overRefundMessage(capacity, currency, order.name);
    return fail("OVER_TENDERED", words, undefined, { amount: words });
  }
  return { ok: true, order, currency, amountMinor, transactions };
}

/**
 * Issues a refund a person asked for: refused while another attempt on the order is unsettled;
 * the order's capacity is checked with Shopify before any mutation; the record is minted (status
 * created, with the exact RefundInput) before Shopify is called; then refundCreate with the
 * record's id as its idempotency key (see docs/decisions/008).
 */
export async function issueRefund(db: PrismaClient, contract: LoadedContract, gateway: ShopifyGateway, request: IssueRequest, now: Date): Promise<IssueResult> {
  // One request at a time per order, in every process: the checks below and the mint cannot interleave (decision 016).
  const locked = await withLock(db, orderLock(request.shop, request.orderId), () => issueHoldingOrder(db, contract, gateway, request, now), REFUND_LOCK_TIMES);
  if (locked.locked) return locked.value;
  return fail("IN_PROGRESS", "Another refund on this order is being issued right now. Wait a moment, then reload the page to see it.");
}

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
  /** The staff member asking (their user id), kept with a confirmation of another refund or of a risk. */
  actor?: string;
}

/** What an earlier submit of the same form came to: that record's answer, never a second record. */
function sameIntent(record: RefundRecord): IssueResult {
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
      return fail("KEY_CONFLICT", unsettledMessage(record), record);
    default:
      return fail("OUTCOME_UNKNOWN", unsettledMessage(record), record);
  }
}

async function issueHoldingOrder(db: PrismaClient, contract: LoadedContract, gateway: ShopifyGateway, request: IssueRequest, now: Date): Promise<IssueResult> {
  const earlier = await db.refundRecord.findUnique({ where: { shop_intentKey: { shop: request.shop, intentKey: request.formToken } } });
  // A form's token names one intent on one order: posted on another order it is not that intent, and says nothing of it.
  if (earlier && earlier.orderId !== request.orderId) {
    const message = "This form was made for another order. Reload the page and try again.";
    return fail("INVALID_FORM", message, undefined, { formToken: message });
  }
  if (earlier) return sameIntent(earlier);
  const unsettled = await unsettledRecord(db, request.shop, request.orderId);
  if (unsettled) return fail("OUTCOME_PENDING", unsettledMessage(unsettled), unsettled);
  if ((await db.refundRecord.count({ where: { shop: request.shop, orderId: request.orderId } })) >= MAX_ATTEMPTS_PER_ORDER) {
    return fail("ATTEMPT_LIMIT", new AttemptLimitReached().message);
  }
  if (!request.confirmAnother) {
    const recent = await recentRefund(db, request.shop, request.orderId, now);
    if (recent) return fail("RECENT_REFUND", `${recent.message} To refund this order again, confirm "Yes, another refund".`);
  }
  const plan = await prepareRefund(gateway, request.shop, request.orderId, request.amount);
  if (!plan.ok) return plan;
  const { order, currency, amountMinor, transactions } = plan;
  // Checked with the order as Shopify has it now, holding the order's lock: a chargeback opened since the page was read counts.
  const facts = riskFacts(order);
  const risks = refundRisks(facts, amountMinor);
  const unconfirmed = risks.filter((risk) => !request.confirmRisk?.includes(risk));
  if (unconfirmed.length) return { ok: false, code: unconfirmed[0], message: riskRefusalMessage(facts, amountMinor, unconfirmed), risks };
  const confirmedBy = request.confirmAnother || risks.length ? (request.actor ?? null) : null;
  const parent = transactions[0]?.parentId ?? null;
  const note = request.note?.trim() || null;
  const minted = await mintUnderLimits(
    db,
    { shop: request.shop, actor: request.actor ?? null, order, amountMinor },
    {
      shop: request.shop,
      caption: `Refund of ${fromMinorUnits(amountMinor, currency)} ${currency} on ${order.name}`,
      orderId: order.id,
      parentId: parent,
      amountMinor,
      currency,
      note,
      notify: request.notify,
      refundInput: JSON.stringify({ orderId: order.id, currency, note, notify: request.notify, transactions }),
      refCaptions: JSON.stringify([
        { id: order.id, caption: order.name },
        ...transactions.map((t) => ({ id: t.parentId, caption: `${t.gateway} payment` })),
        ...confirmedRiskCaptions(facts, risks),
      ]),
      intentKey: request.formToken,
      // confirmedAnother stays the "another refund" answer alone (a duplicate's evidence, contract 1.2.0); confirmedBy is who said yes to either question.
      confirmedAnother: Boolean(request.confirmAnother),
      confirmedBy,
    },
    now,
  );
  if (!minted.locked) return fail("IN_PROGRESS", "Other refunds in this shop are being checked against its limits right now. Try again in a moment.");
  const { record, approval } = minted.value;
  if (!record) return fail("ATTEMPT_LIMIT", new AttemptLimitReached().message);
  if (approval) return awaitingApproval(record, approval.message);
  return callShopify(db, contract, gateway, record, now, INLINE_CALLS);
}

/**
 * Sends the record's RefundInput with its key, up to `calls` times while the outcome stays
 * unknown (no answer, or Shopify still running the first request). A GraphQL error means Shopify
 * ran nothing: it settles a record that was never sent before, and settles nothing after a call
 * whose outcome is unknown.
 */
export async function callShopify(
  db: PrismaClient,
  contract: LoadedContract,
  gateway: ShopifyGateway,
  record: RefundRecord,
  now: Date,
  calls: number,
  limit = AUTOMATIC_CALLS_PER_RECORD,
): Promise<IssueResult> {
  let current = record;
  for (let call = 0; call < calls && current.calls < limit; call++) {
    if (call > 0) await gateway.sleep(500 * 3 ** (call - 1));
    const mayExist = current.shopifyOutcome === "unknown";
    current = await rewriteRecord(db, current, { calls: { increment: 1 }, shopifyOutcome: "unknown", sentAt: current.sentAt ?? now }, now);
    const outcome = await createRefund(gateway, current.shop, JSON.parse(current.refundInput ?? "{}"), current.id);
    let recorded: IssueResult | RefundRecord;
    try {
      recorded = await recordAnswer(db, contract, current, outcome, mayExist, now);
    } catch (error) {
      if (error instanceof RevisionConflict) throw error;
      return answerNotRecorded(db, current, error);
    }
    if ("ok" in recorded) return recorded;
    current = recorded;
  }
  return fail("OUTCOME_UNKNOWN", `Shopify did not confirm ${current.sysId}. ${unsettledMessage(current)}`, current);
}

/**
 * The call was made, and the database refused a write after it (a full disk, a failover). The
 * person is told what the record says: Shopify's answer, if it was written before the write that
 * failed; otherwise the record is still `unknown`, as it was written before the call, and the
 * worker's recovery asks Shopify again with the same key, which answers with the refund it made.
 */
async function answerNotRecorded(db: PrismaClient, record: RefundRecord, error: unknown): Promise<IssueResult> {
  logger.error({ err: error, shop: record.shop, recordId: record.id }, "what came back from refundCreate could not all be recorded");
  const stored = await db.refundRecord.findUnique({ where: { id: record.id } }).catch(() => null);
  if (stored && stored.shopifyOutcome !== "unknown") return sameIntent(stored);
  return fail(
    "OUTCOME_UNKNOWN",
    `${record.sysId} was sent to Shopify, but the app could not record what came back. The app asks Shopify again with the same idempotency key, which cannot refund twice, and shows the outcome here. A new refund on ${orderNameOf(record)} is refused until then.`,
    record,
  );
}

/** Writes one answer of refundCreate onto the record: a result to give the person, or the record to call again with. */
async function recordAnswer(
  db: PrismaClient,
  contract: LoadedContract,
  current: RefundRecord,
  outcome: Awaited<ReturnType<typeof createRefund>>,
  mayExist: boolean,
  now: Date,
): Promise<IssueResult | RefundRecord> {
  switch (outcome.kind) {
    case "created":
      return { ok: true, record: await stampRefund(db, contract, current, outcome.refund, outcome.result, now) };
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
      return fail("KEY_CONFLICT", unsettledMessage(current), current);
    case "not_run":
      if (!mayExist) {
        const message = `Shopify did not run the refund (${outcome.message}). Nothing was refunded; try again in a moment.`;
        current = await rewriteRecord(db, current, { status: "failed", shopifyOutcome: "refused", failureReason: message, outcomeDetail: message }, now);
        return fail("NOT_RUN", message, current);
      }
      current = await rewriteRecord(db, current, { outcomeDetail: `Asked again; Shopify did not run the request (${outcome.message}).` }, now);
      return fail("OUTCOME_UNKNOWN", unsettledMessage(current), current);
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

/**
 * Records Shopify's refund on the record and puts the refund under the contract, with the
 * person's request as `$input` (amount and currency as asked, in the presentment currency), the
 * mutation's answer as `$action.result` and the record's mint time as `$operation.created_at`.
 * If its webhook already opened an operation, that one is taken over.
 */
export async function stampRefund(
  db: PrismaClient,
  contract: LoadedContract,
  record: RefundRecord,
  refund: Pick<CreatedRefund, "id"> & Partial<Pick<CreatedRefund, "totalRefundedSet">>,
  actionResult: unknown,
  now: Date,
  correlation: "resource_id" | "fingerprint" = "resource_id",
): Promise<RefundRecord> {
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
