import { randomUUID } from "node:crypto";
import type { PrismaClient, RefundApproval } from "@prisma/client";
import { parseStored } from "../lib/db/stored-json";
import { storedBreaches, type Breach } from "./limits";

/** A request nobody approved or declined in a day expires: the person asks again, with the order as it is then. */
export const APPROVAL_TTL_MS = 24 * 3_600_000;

export type ApprovalState = "waiting" | "approved" | "declined" | "expired";

export async function askForApproval(
  db: PrismaClient,
  ask: { shop: string; recordId: string; askedBy: string; breaches: Breach[]; limitsRevision: number; orderRefundedMinor: bigint },
  now: Date,
): Promise<RefundApproval> {
  return db.refundApproval.create({
    data: {
      id: randomUUID(),
      shop: ask.shop,
      recordId: ask.recordId,
      askedBy: ask.askedBy,
      askedAt: now,
      expiresAt: new Date(now.getTime() + APPROVAL_TTL_MS),
      limits: JSON.stringify(ask.breaches),
      limitsRevision: ask.limitsRevision,
      orderRefundedMinor: ask.orderRefundedMinor,
    },
  });
}

export const breachesOf = (request: Pick<RefundApproval, "id" | "limits">) =>
  parseStored(storedBreaches, request.limits, `RefundApproval.limits:${request.id}`);
export const decidedBreachesOf = (request: Pick<RefundApproval, "id" | "decidedLimits">) =>
  request.decidedLimits ? parseStored(storedBreaches, request.decidedLimits, `RefundApproval.decidedLimits:${request.id}`) : null;

/** One shop's request by its id: another shop's id is no request of this one. */
export const requestOf = (db: PrismaClient, shop: string, id: string) => db.refundApproval.findFirst({ where: { id, shop } });

export const isExpired = (request: Pick<RefundApproval, "expiresAt">, now: Date) => request.expiresAt.getTime() <= now.getTime();

/**
 * The decision, in one guarded statement: only a request still waiting, and (to approve or
 * decline) not yet expired, moves; of two deciders at the same instant exactly one does. False
 * when it had already moved.
 */
export async function decide(
  db: PrismaClient,
  request: Pick<RefundApproval, "id">,
  decision: { state: Exclude<ApprovalState, "waiting">; decidedBy: string | null; note: string | null; limits: Breach[] | null },
  now: Date,
): Promise<boolean> {
  const { count } = await db.refundApproval.updateMany({
    where: { id: request.id, state: "waiting", ...(decision.state === "expired" ? { expiresAt: { lte: now } } : { expiresAt: { gt: now } }) },
    data: {
      state: decision.state,
      decidedBy: decision.decidedBy,
      decidedAt: now,
      decisionNote: decision.note,
      decidedLimits: decision.limits ? JSON.stringify(decision.limits) : null,
    },
  });
  return count === 1;
}
