import { randomUUID } from "node:crypto";
import type { RefundRecord } from "@prisma/client";
import { REFUND_CREATED } from "../contracts/registry.server";
import { parseInstant } from "../contracts/values";
import { approversInWords, approversOf } from "../guardrails/approvers.server";
import { httpStatus } from "../lib/http/status";
import { fromMinorUnits, toMinorUnits } from "../lib/money/currency";
import { refundAttempts, type RefundAttempts } from "../refunds/attempts.server";
import { parseRefundAction, safeBackPath, type RefundSource } from "../refunds/form";
import { issueRefund } from "../refunds/issue.server";
import { fail, ISSUE_STATUS, type IssueResult } from "../refunds/outcomes";
import { recentRefund, openAttemptOn } from "../refunds/pipeline.server";
import { presentmentCurrency, refundableMinor } from "../refunds/plan";
import { RevisionConflict } from "../refunds/records.server";
import { resendRefund, closeWithoutRefund } from "../refunds/recover.server";
import { orderRisks } from "../refunds/risk.server";
import { NOT_AN_ORDER_ADDRESS, orderGidInAddress } from "../shopify/ids";
import { loadOrderForRefund, type OrderForRefund } from "../shopify/admin/refunds.server";
import { DUPLICATE_REASONS } from "../verdicts/words";
import type { ScreenContext } from "./context.server";

/** The order the address names (Shopify's spelling of its number, or a 404 before anything is keyed on it). */
function orderOfAddress(context: ScreenContext): string {
  const orderGid = orderGidInAddress(context.params.orderId ?? "");
  if (!orderGid) throw new Response(NOT_AN_ORDER_ADDRESS, { status: 404 });
  return orderGid;
}

/** GET /app/orders/:orderId/refund/attempts: the card's records alone, read again while one is being checked. */
export async function attempts(context: ScreenContext): Promise<RefundAttempts> {
  return refundAttempts(context.db, context.shop, orderOfAddress(context), context.now());
}

/** Where the money goes: the order's payments Shopify can still refund, newest first (as allocate takes them). */
function sourcesOf(order: OrderForRefund, currency: string): RefundSource[] {
  return (order.suggestedRefund?.suggestedTransactions ?? [])
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
}

/** The order as the form shows it, in the currency the customer paid in. */
function orderView(order: OrderForRefund, legacyId: string) {
  const currency = presentmentCurrency(order);
  const received = order.totalReceivedSet.presentmentMoney;
  const paidMinor = received.currencyCode === currency ? toMinorUnits(received.amount, currency) : undefined;
  return {
    id: order.id,
    legacyId,
    name: order.name,
    currency,
    shopCurrency: order.currencyCode,
    refunded: fromMinorUnits(toMinorUnits(order.totalRefundedSet.presentmentMoney.amount, currency) ?? 0n, currency),
    // What the customer paid, for the warning when the amount typed takes the refunds past it; null (not judged) when Shopify says it in another currency.
    paid: paidMinor === undefined ? null : fromMinorUnits(paidMinor, currency),
    refundable: fromMinorUnits(refundableMinor(order), currency),
  };
}

/** The refund form's data: the order as Shopify has it now, the attempts made from the app, what to warn of, and the page's "Back" link (made safe). */
export async function load(context: ScreenContext) {
  const { db, shop, gateway } = context;
  const orderGid = orderOfAddress(context);
  const answer = await loadOrderForRefund(gateway, shop, orderGid);
  if (!answer.ok) throw new Response(`Shopify did not answer (${answer.message}). Try again in a moment.`, { status: 502 });
  const order = answer.data;
  if (!order) throw new Response("No such order in this shop", { status: 404 });
  const now = context.now();
  const [attemptsNow, openAttempt, recent, risks, timeZone, duplicate] = await Promise.all([
    refundAttempts(db, shop, order.id, now),
    openAttemptOn(db, shop, order.id),
    recentRefund(db, shop, order.id, now),
    orderRisks(db, gateway, shop, order, now),
    context.timeZone(),
    // Any verdict on the order in which a duplicate held, whatever its first reason was.
    db.operationReason.findFirst({ where: { shop, reason: { in: [...DUPLICATE_REASONS] }, operation: { orderGid: order.id } }, select: { id: true } }),
  ]);
  return {
    order: orderView(order, context.params.orderId ?? ""),
    ...attemptsNow,
    timeZone,
    openAttemptSysId: openAttempt?.sysId ?? null,
    // One per rendering of the form: submitting it twice (a double click, a retry) is one refund.
    formToken: randomUUID(),
    sources: sourcesOf(order, presentmentCurrency(order)),
    recentRefund: recent ? { message: recent.message, at: recent.at.toISOString() } : null,
    risks,
    duplicateOnOrder: Boolean(duplicate),
    back: safeBackPath(context.url.searchParams.get("back")),
  };
}

/** A refund that went for approval says to whom: the people who can approve it, and where it waits for them. */
async function tellWhoApproves(context: ScreenContext, result: IssueResult): Promise<IssueResult> {
  if (result.ok || result.code !== "AWAITING_APPROVAL") return result;
  return { ...result, message: `${result.message} ${approversInWords(await approversOf(context.db, context.shop, context.staff.userId))}` };
}

/** The form's issue, re-send or settle, for the staff member asking. */
async function runRefundAction(context: ScreenContext, orderGid: string): Promise<IssueResult> {
  const parsed = parseRefundAction(await context.form());
  if (!parsed.ok) return fail(parsed.fieldErrors.amount ? "INVALID_AMOUNT" : "INVALID_FORM", parsed.message, undefined, parsed.fieldErrors);
  const { db, shop, gateway, staff } = context;
  const input = parsed.data;
  switch (input.intent) {
    case "resend":
      return resendRefund({ db, contract: REFUND_CREATED, gateway, now: context.now() }, { shop, recordId: input.recordId, revision: input.revision });
    case "settle":
      return closeWithoutRefund(db, { shop, recordId: input.recordId, revision: input.revision, actor: staff.userId }, context.now());
    case "issue": {
      const { amount, note, notify, confirmAnother, confirmRisk, formToken } = input;
      const request = { shop, orderId: orderGid, amount, note, notify, confirmAnother, confirmRisk, formToken, actor: staff.userId };
      return tellWhoApproves(context, await issueRefund({ db, contract: REFUND_CREATED, gateway, now: context.now() }, request));
    }
  }
}

/** The form's action; another writer that moved the record meanwhile (the worker settling it, another tab) is a 409, not a 500. */
async function refundFormAction(context: ScreenContext): Promise<IssueResult> {
  // Before the form, and before anything is keyed on the order: its lock, attempts and recent refunds go by this spelling.
  const orderGid = orderGidInAddress(context.params.orderId ?? "");
  if (!orderGid) return fail("ORDER_NOT_FOUND", NOT_AN_ORDER_ADDRESS);
  try {
    return await runRefundAction(context, orderGid);
  } catch (error) {
    if (error instanceof RevisionConflict) return fail("CONFLICT", `${error.message} Reload to see what happened to it.`);
    throw error;
  }
}

function successMessage(record: RefundRecord): string {
  // The verdict is the app's own check, seconds later: the page shows it beside the refund when it comes.
  if (record.shopifyOutcome === "created")
    return `${record.sysId}: Shopify accepted the refund. The app is checking that Shopify recorded it as asked; the result appears beside it.`;
  return `${record.sysId} is settled: no refund was made for it. The order is open to refunds again.`;
}

/**
 * The form's answer, with the order's attempts as they are after it: the card shows the attempt it
 * recorded (sent, held for approval, declined, or without Shopify's answer) with the answer itself,
 * not once the page's reload has read the order from Shopify again. The answer is given whatever
 * the read of the attempts does: the page's own reload reads them again.
 */
export async function act(context: ScreenContext) {
  const intent = String((await context.form())?.get("intent") ?? "");
  const result = await refundFormAction(context);
  const orderGid = orderGidInAddress(context.params.orderId ?? "");
  const attemptsNow = orderGid
    ? await refundAttempts(context.db, context.shop, orderGid, context.now()).catch((error: unknown) => {
        context.logger.error({ err: error }, "the order's attempts could not be read after the refund form's action");
        return null;
      })
    : null;
  const status = httpStatus(result, ISSUE_STATUS);
  if (result.ok) return { ok: true as const, status, intent, sysId: result.record.sysId, message: successMessage(result.record), attempts: attemptsNow };
  return {
    ok: false as const,
    status,
    intent,
    code: result.code,
    message: result.message,
    ...(result.fieldErrors ? { fieldErrors: result.fieldErrors } : {}),
    ...(result.risks ? { risks: result.risks } : {}),
    attempts: attemptsNow,
  };
}
