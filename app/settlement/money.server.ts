import type { PrismaClient } from "@prisma/client";
import { knownPaymentsAccess } from "../shops/payments.server";
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
