import type { PrismaClient } from "@prisma/client";
import type { Contract } from "../contracts/schema";
import { markDue } from "../verification/operations.server";
import { toRow } from "../dashboard/dashboard.server";

export type ReviewOutcome = { ok: true } | { ok: false; status: 404 | 409 | 422; message: string };

/**
 * Resolves an escalated refund with a note. The form carries the revision it was shown; if the
 * record moved on since (another person resolved it), nothing is overwritten: a conflict.
 */
export async function resolveReview(db: PrismaClient, shop: string, id: string, revision: number, note: string, actor: string, now: Date): Promise<ReviewOutcome> {
  const text = note.trim();
  if (!text) return { ok: false, status: 422, message: "Write a note that says how this refund was resolved." };
  if (text.length > 2000) return { ok: false, status: 422, message: "The note is longer than 2,000 characters." };
  const op = await db.operation.findFirst({ where: { id, shop }, select: { reviewState: true } });
  if (!op) return { ok: false, status: 404, message: "No such refund in this shop." };
  // One guarded statement decides (no transaction: see recordEvaluation); the audit row follows.
  const { count } = await db.operation.updateMany({
    where: { id, shop, revision, reviewState: "open" },
    data: { reviewState: "resolved", revision: { increment: 1 } },
  });
  if (count !== 1) {
    return { ok: false, status: 409, message: "Someone else changed this refund since you opened it (it may already be resolved). Reload to see its current state." };
  }
  await db.reviewEvent.create({ data: { operationId: id, shop, action: "resolved", note: text, actor, createdAt: now } });
  return { ok: true };
}

/**
 * Re-check now: a pending refund is read back on the worker's next pass. An UNVERIFIABLE one is
 * reopened (the timeout said only that no evidence came in time; evidence may have come since):
 * read again at once, and VERIFIED if it now holds, else UNVERIFIABLE again.
 */
export async function requestRecheck(db: PrismaClient, shop: string, id: string, actor: string, now: Date): Promise<ReviewOutcome> {
  const op = await db.operation.findFirst({ where: { id, shop }, select: { status: true, revision: true } });
  if (!op) return { ok: false, status: 404, message: "No such refund in this shop." };
  if (op.status === "UNVERIFIABLE") {
    const { count } = await db.operation.updateMany({
      where: { id, shop, revision: op.revision, status: "UNVERIFIABLE" },
      data: { status: "PENDING", nextDueAt: now, decidedAt: null, reviewState: "none", claimedBy: null, claimedUntil: null, revision: { increment: 1 } },
    });
    if (count !== 1) return { ok: false, status: 409, message: "Someone else changed this refund since you opened it. Reload to see its current state." };
  } else if (op.status !== "PENDING") {
    return { ok: false, status: 409, message: `This refund's verdict is final (${op.status}).` };
  }
  await markDue(db, { id, shop }, now);
  await db.reviewEvent.create({ data: { operationId: id, shop, action: "recheck", actor, createdAt: now } });
  return { ok: true };
}

/** Escalated refunds nobody has resolved yet, oldest decision first. */
export async function reviewQueue(db: PrismaClient, contract: Contract, shop: string) {
  const ops = await db.operation.findMany({ where: { shop, reviewState: "open" }, orderBy: [{ decidedAt: "asc" }, { startedAt: "asc" }, { id: "asc" }], take: 200 });
  return ops.map((op) => ({ ...toRow(contract, op), revision: op.revision, decidedAt: op.decidedAt?.toISOString() ?? null }));
}
