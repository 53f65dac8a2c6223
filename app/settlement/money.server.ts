import type { PrismaClient } from "@prisma/client";
import { knownPaymentsAccess } from "../shops/payments.server";
import { money } from "../verdicts/words";
import { moneyView, type MoneyView } from "./view";
import { knowledgeOf, type MoneyKnowledge } from "./words";

/** What the evidence page, the CSV and alerts say about a refund's money: its settlement, or why there is none. */
export async function moneyKnowledge(
  db: PrismaClient,
  op: { id: string; shop: string; status: string; decidedAt: Date | null },
  now: Date,
): Promise<{ knowledge: MoneyKnowledge; settlement: Awaited<ReturnType<typeof settlementOf>> }> {
  const settlement = await settlementOf(db, op.id);
  const access = settlement || op.status !== "VERIFIED" ? null : await knownPaymentsAccess(db, op.shop);
  return { settlement, knowledge: knowledgeOf(settlement, op.status, access, now) };
}

function settlementOf(db: PrismaClient, operationId: string) {
  return db.settlement.findUnique({
    where: { operationId },
    select: {
      id: true,
      status: true,
      money: true,
      reason: true,
      arn: true,
      payoutGid: true,
      payoutStatus: true,
      processedAt: true,
      amount: true,
      currency: true,
      startedAt: true,
      decidedAt: true,
      nextDueAt: true,
      observedAt: true,
      contractId: true,
      contractVersion: true,
      contractHash: true,
      result: true,
    },
  });
}

/**
 * The evidence page's Money section: where the refund's money is (contract shopify.refund.settled),
 * or why the app does not follow it; the customer's sentence says what went back to the card (the
 * Shopify Payments part of a refund split with a gift card or another gateway), else the refund's
 * own amount as they paid it (`amount`, its presentment currency).
 */
export async function moneySection(
  db: PrismaClient,
  op: { id: string; shop: string; status: string; decidedAt: Date | null },
  amount: string | null,
  now: Date,
): Promise<MoneyView> {
  const followed = await moneyKnowledge(db, op, now);
  const sent = followed.settlement?.amount && followed.settlement.currency ? money(followed.settlement.amount, followed.settlement.currency) : null;
  return moneyView(followed.knowledge, followed.settlement, sent ?? amount);
}
