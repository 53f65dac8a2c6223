import type { Prisma, PrismaClient } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import { nextCheckAt } from "../contracts/timing";
import { toMinorUnits } from "../lib/money/currency";
import { isUniqueViolation } from "../lib/db/create-once";
import { UNCLAIMED } from "../work/claims.server";
import type { Made } from "../verdicts/made";

/**
 * An operation is the verification of one refund: opened once, whichever channel saw the refund
 * first, and made due again by new evidence. Its verdict is written by verdicts.server.ts.
 */
export type Origin = "webhook" | "reconciliation" | "app" | "backfill";

export interface NewOperation {
  shop: string;
  refundGid: string;
  orderGid: string;
  origin: Origin;
  amount: string | null;
  currency: string | null;
  startedAt: Date;
  actionResult?: unknown;
  orderName?: string | null;
  /** How the refund is bound to the operation; fingerprint when adopted by order and amount only. */
  correlation?: "resource_id" | "fingerprint";
  /** Where the refund was made, when its opener knows (a refund issued in this app; decision 031). */
  made?: Made | null;
}

/** The row of a new operation; due at the contract's first check unless `nextDueAt` says otherwise (null: no poll, its opener decides it). */
export function newOperationData(contract: LoadedContract, op: NewOperation, now: Date, nextDueAt?: Date | null) {
  const firstCheck = nextCheckAt(contract.contract.timing, op.startedAt.getTime(), 0).atMs;
  return {
    shop: op.shop,
    refundGid: op.refundGid,
    orderGid: op.orderGid,
    orderName: op.orderName ?? null,
    origin: op.origin,
    amount: op.amount,
    currency: op.currency,
    amountMinor: op.amount && op.currency ? (toMinorUnits(op.amount, op.currency) ?? null) : null,
    startedAt: op.startedAt,
    actionResult: op.actionResult === undefined ? null : JSON.stringify(op.actionResult),
    correlation: op.correlation ?? "resource_id",
    madeIn: op.made?.in ?? null,
    madeByStaff: op.made?.staffUserId ?? null,
    madeByApp: op.made?.app ?? null,
    contractId: contract.contract.id,
    contractVersion: contract.contract.version,
    contractHash: contract.computedHash,
    contractDeclaredHash: contract.declaredHash,
    nextDueAt: nextDueAt === undefined ? new Date(Math.max(firstCheck, now.getTime())) : nextDueAt,
  };
}

/**
 * Opens the operation for a refund unless one exists: a refund is verified once, whichever
 * channel (webhook, reconciliation, the app, the history backfill) saw it first. Returns whether it was created.
 */
export async function openOperation(
  db: PrismaClient | Prisma.TransactionClient,
  contract: LoadedContract,
  op: NewOperation,
  now: Date,
  nextDueAt?: Date | null,
): Promise<boolean> {
  // One statement on the hot path: the unique (shop, refundGid) index says whether it existed.
  const data = newOperationData(contract, op, now, nextDueAt);
  try {
    await db.operation.create({ data, select: { id: true } });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** New evidence arrived: the pending operations it concerns are due now (and any claim on them is void). */
export async function markDue(db: PrismaClient | Prisma.TransactionClient, where: Prisma.OperationWhereInput, now: Date): Promise<number> {
  const { count } = await db.operation.updateMany({
    where: { ...where, status: "PENDING" },
    data: { nextDueAt: now, ...UNCLAIMED, revision: { increment: 1 } },
  });
  return count;
}
