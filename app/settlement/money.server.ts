import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { knownPaymentsAccess } from "./access.server";
import type { MoneyState } from "./ledger";
import type { MoneyKnowledge } from "./words";

const DAY_MS = 24 * 3600_000;
const references = z.string().nullable();

/** What the evidence page, the CSV and alerts say about a refund's money: its settlement, or why there is none. */
export async function moneyKnowledge(
  db: PrismaClient,
  op: { id: string; shop: string; status: string; decidedAt: Date | null },
  now: Date,
): Promise<{ knowledge: MoneyKnowledge; settlement: Awaited<ReturnType<typeof settlementOf>> }> {
  const settlement = await settlementOf(db, op.id);
  if (settlement) {
    const arn = references.parse(settlement.arn);
    return {
      settlement,
      knowledge: {
        kind: "followed",
        state: settlement.money as MoneyState,
        verdict: settlement.status,
        references: arn ? arn.split(",") : [],
        payoutStatus: settlement.payoutStatus,
        waitingDays: Math.floor(((settlement.decidedAt ?? now).getTime() - settlement.startedAt.getTime()) / DAY_MS),
      },
    };
  }
  if (op.status !== "VERIFIED") return { settlement, knowledge: { kind: "not_verified" } };
  const access = await knownPaymentsAccess(db, op.shop);
  return { settlement, knowledge: { kind: access === "not_granted" ? "not_granted" : access === "none" ? "no_account" : "not_yet" } };
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
