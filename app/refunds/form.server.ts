import { randomUUID } from "node:crypto";
import db from "../db.server";
import { DUPLICATE_REASONS } from "../verdicts/words";
import { REFUND_CREATED } from "../contracts/registry.server";
import { fromMinorUnits, toMinorUnits } from "../lib/money/currency";
import { loadOrderForRefund } from "../shopify/admin/refunds.server";
import { interactiveGateway } from "../shopify.server";
import { parseInstant } from "../contracts/values";
import { NOT_AN_ORDER_ADDRESS, orderGidInAddress } from "../shopify/ids";
import { issueRefund, recentRefund, unsettledRecord } from "./issue.server";
import { fail, type IssueResult } from "./outcomes";
import { parseRefundAction, type RefundSource } from "./form";
import { presentmentCurrency, refundableMinor } from "./plan";
import { recordView, RevisionConflict } from "./records.server";
import { resendRefund, settleWithoutRefund } from "./recover.server";
import { orderRisks } from "./risk.server";
import { approversInWords, approversOf } from "../guardrails/approvers.server";
import { approvalsOfRecords } from "../guardrails/audit.server";
import { shopTimeZone } from "../shops/profile.server";
import { logger } from "../lib/logging/logger.server";

const notFound = (what: string) => new Response(`No such ${what} in this shop`, { status: 404 });

async function verdictsByRef(shop: string, refs: string[]) {
  const ops = await db.operation.findMany({ where: { shop, refundGid: { in: refs } }, select: { id: true, refundGid: true, status: true, reason: true } });
  return new Map(ops.map((op) => [op.refundGid, op]));
}

/**
 * The refunds issued from the app on one order, as the database has them (no Shopify read): each
 * record with what Shopify answered, its verdict and its request for approval, newest first, and
 * when they were read. The form's side card shows them; the page's data, the action's answer and
 * the light read while one is checked (`refundAttemptsAt`) each carry them, and the newest read wins.
 */
export async function refundAttempts(shop: string, orderGid: string, now = new Date()) {
  const readAt = new Date().toISOString();
  const records = await db.refundRecord.findMany({ where: { shop, orderId: orderGid }, orderBy: { createdAt: "desc" } });
  const [verdicts, approvals] = await Promise.all([
    verdictsByRef(
      shop,
      records.flatMap((r) => (r.refundRef ? [r.refundRef] : [])),
    ),
    // A refund over a limit waited on a request: the attempts say who decided it, when (in the shop's time zone) and why.
    approvalsOfRecords(
      db,
      shop,
      records.map((r) => r.id),
      now,
    ),
  ]);
  return {
    records: records.map((r) => {
      const op = r.refundRef ? verdicts.get(r.refundRef) : undefined;
      return {
        ...recordView(r, op ? { status: op.status, reason: op.reason } : null),
        operationId: op?.id ?? null,
        amount: fromMinorUnits(r.amountMinor, r.currency),
        shopAmount: r.shopAmountMinor !== null && r.shopCurrency ? fromMinorUnits(r.shopAmountMinor, r.shopCurrency) : null,
        approval: approvals.get(r.id) ?? null,
      };
    }),
    readAt,
  };
}

export type RefundAttempts = Awaited<ReturnType<typeof refundAttempts>>;

/** GET /app/orders/:orderId/refund/attempts: the card's records alone, read again while one is being checked. */
export async function refundAttemptsAt(shop: string, orderId: string, now = new Date()): Promise<RefundAttempts> {
  const orderGid = orderGidInAddress(orderId);
  if (!orderGid) throw new Response(NOT_AN_ORDER_ADDRESS, { status: 404 });
  return refundAttempts(shop, orderGid, now);
}

/** The refund form's data: the order as Shopify has it now (in the currency the customer paid in), and the attempts made from the app. */
export async function refundFormData(shop: string, orderId: string, now = new Date()) {
  const orderGid = orderGidInAddress(orderId);
  if (!orderGid) throw new Response(NOT_AN_ORDER_ADDRESS, { status: 404 });
  const answer = await loadOrderForRefund(interactiveGateway(), shop, orderGid);
  if (!answer.ok) throw new Response(`Shopify did not answer (${answer.message}). Try again in a moment.`, { status: 502 });
  const order = answer.data;
  if (!order) throw notFound("order");
  const currency = presentmentCurrency(order);
  const attempts = await refundAttempts(shop, order.id, now);
  const unsettled = await unsettledRecord(db, shop, order.id);
  const recent = await recentRefund(db, shop, order.id, now);
  const risks = await orderRisks(db, interactiveGateway(), shop, order, now);
  const timeZone = await shopTimeZone(db, shop, { gateway: interactiveGateway(), now });
  const received = order.totalReceivedSet.presentmentMoney;
  const paidMinor = received.currencyCode === currency ? toMinorUnits(received.amount, currency) : undefined;
  // Where the money goes: the order's payments Shopify can still refund, newest first (as allocate takes them).
  const sources: RefundSource[] = (order.suggestedRefund?.suggestedTransactions ?? [])
    .flatMap((t) =>
      t.parentTransaction
        ? [
            {
              gateway: t.gateway ?? t.parentTransaction.gateway ?? "manual",
              refundable: fromMinorUnits(toMinorUnits(t.maximumRefundableSet?.presentmentMoney.amount ?? "0", currency) ?? 0n, currency),
              at: parseInstant(t.parentTransaction.createdAt) ?? 0,
            },
          ]
        : [],
    )
    .sort((a, b) => b.at - a.at)
    .map(({ gateway, refundable }) => ({ gateway, refundable }));
  return {
    order: {
      id: order.id,
      legacyId: orderId,
      name: order.name,
      currency,
      shopCurrency: order.currencyCode,
      refunded: fromMinorUnits(toMinorUnits(order.totalRefundedSet.presentmentMoney.amount, currency) ?? 0n, currency),
      // What the customer paid, for the warning when the amount typed takes the refunds past it; null (not judged) when Shopify says it in another currency.
      paid: paidMinor === undefined ? null : fromMinorUnits(paidMinor, currency),
      refundable: fromMinorUnits(refundableMinor(order), currency),
    },
    ...attempts,
    timeZone,
    unsettledSysId: unsettled?.sysId ?? null,
    // One per rendering of the form: submitting it twice (a double click, a retry) is one refund.
    formToken: randomUUID(),
    sources,
    recentRefund: recent ? { message: recent.message, at: recent.at.toISOString() } : null,
    risks,
    // Any verdict on the order in which a duplicate held, whatever its first reason was.
    duplicateOnOrder: Boolean(
      await db.operationReason.findFirst({ where: { shop, reason: { in: [...DUPLICATE_REASONS] }, operation: { orderGid: order.id } }, select: { id: true } }),
    ),
  };
}

/**
 * The form's action and the order's attempts as they are after it: the card shows the attempt it
 * recorded (sent, held for approval, declined, or without Shopify's answer) with the answer
 * itself, not once the page's reload has read the order from Shopify again. Null for an address
 * that names no order.
 */
export async function answerRefundForm(shop: string, orderId: string, form: FormData, actor: string, now: Date) {
  const result = await refundFormAction(shop, orderId, form, actor, now);
  const orderGid = orderGidInAddress(orderId);
  // The answer is given whatever the read of the attempts does: the page's own reload reads them again.
  const attempts = orderGid
    ? await refundAttempts(shop, orderGid, new Date()).catch((error: unknown) => {
        logger.error({ err: error, shop }, "the order's attempts could not be read after the refund form's action");
        return null;
      })
    : null;
  return { result, attempts };
}

/** The form's action; another writer that moved the record meanwhile (the worker settling it, another tab) is a 409, not a 500. */
export async function refundFormAction(shop: string, orderId: string, form: FormData, actor: string, now: Date): Promise<IssueResult> {
  try {
    return await runRefundAction(shop, orderId, form, actor, now);
  } catch (error) {
    if (error instanceof RevisionConflict) return fail("CONFLICT", `${error.message} Reload to see what happened to it.`);
    throw error;
  }
}

async function runRefundAction(shop: string, orderId: string, form: FormData, actor: string, now: Date): Promise<IssueResult> {
  // Before the form, and before anything is keyed on the order: its claim, attempts and recent refunds go by this spelling.
  const orderGid = orderGidInAddress(orderId);
  if (!orderGid) return fail("ORDER_NOT_FOUND", NOT_AN_ORDER_ADDRESS);
  const parsed = parseRefundAction(form);
  if (!parsed.ok) return fail(parsed.fieldErrors.amount ? "INVALID_AMOUNT" : "INVALID_FORM", parsed.message, undefined, parsed.fieldErrors);
  const gateway = interactiveGateway();
  const input = parsed.data;
  switch (input.intent) {
    case "resend":
      return resendRefund(db, REFUND_CREATED, gateway, shop, input.recordId, input.revision, now);
    case "settle":
      return settleWithoutRefund(db, shop, input.recordId, input.revision, actor, now);
    case "issue":
      return tellWhoApproves(
        shop,
        actor,
        await issueRefund(
          db,
          REFUND_CREATED,
          gateway,
          {
            shop,
            orderId: orderGid,
            amount: input.amount,
            note: input.note,
            notify: input.notify,
            confirmAnother: input.confirmAnother,
            confirmRisk: input.confirmRisk,
            formToken: input.formToken,
            actor,
          },
          now,
        ),
      );
  }
}

/** A refund that went for approval says to whom: the people who can approve it, and where it waits for them. */
async function tellWhoApproves(shop: string, actor: string, result: IssueResult): Promise<IssueResult> {
  if (result.ok || result.code !== "AWAITING_APPROVAL") return result;
  return { ...result, message: `${result.message} ${approversInWords(await approversOf(db, shop, actor))}` };
}

/** GET /app/api/refunds/:id: the record, read-only, for the current shop only. */
export async function refundRecordJson(shop: string, id: string) {
  const record = await db.refundRecord.findFirst({ where: { id, shop } });
  if (!record) throw notFound("refund record");
  const op = record.refundRef ? (await verdictsByRef(shop, [record.refundRef])).get(record.refundRef) : undefined;
  return recordView(record, op ? { status: op.status, reason: op.reason } : null);
}
