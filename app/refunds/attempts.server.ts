import type { PrismaClient } from "@prisma/client";
import { approvalsOfRecords } from "../guardrails/audit.server";
import { fromMinorUnits } from "../lib/money/currency";
import { recordView } from "./records.server";

export async function verdictsByRef(db: PrismaClient, shop: string, refs: string[]) {
  const ops = await db.operation.findMany({ where: { shop, refundGid: { in: refs } }, select: { id: true, refundGid: true, status: true, reason: true } });
  return new Map(ops.map((op) => [op.refundGid, op]));
}

/**
 * The refunds issued from the app on one order, as the database has them (no Shopify read): each
 * record with what Shopify answered, its verdict and its request for approval, newest first, and
 * when they were read. The form's side card shows them; the page's data, the action's answer and
 * the light read while one is checked (the attempts route) each carry them, and the newest read wins.
 */
export async function refundAttempts(db: PrismaClient, shop: string, orderGid: string, now: Date) {
  const readAt = now.toISOString();
  const records = await db.refundRecord.findMany({ where: { shop, orderId: orderGid }, orderBy: { createdAt: "desc" } });
  const [verdicts, approvals] = await Promise.all([
    verdictsByRef(
      db,
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
