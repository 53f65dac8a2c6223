import { randomUUID } from "node:crypto";
import type { Operation, Prisma, PrismaClient } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import type { Evaluation } from "../contracts/evaluate";
import { nextCheckAt } from "../contracts/timing";
import { toMinorUnits } from "../money/currency";
import { isUniqueViolation } from "../db/create-once";

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
  try {
    await db.operation.create({ data: newOperationData(contract, op, now, nextDueAt), select: { id: true } });
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
    data: { nextDueAt: now, claimedBy: null, claimedUntil: null, revision: { increment: 1 } },
  });
  return count;
}

/**
 * Claims due operations for one worker. Each claim is a single UPDATE that checks the revision
 * it read, so two workers never hold the same operation: the loser's update matches no row.
 */
export async function claimDue(db: PrismaClient, workerId: string, now: Date, leaseMs: number, limit: number): Promise<Operation[]> {
  const candidates = await db.operation.findMany({
    where: {
      status: "PENDING",
      nextDueAt: { lte: now },
      OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }],
    },
    orderBy: { nextDueAt: "asc" },
    take: limit,
  });
  const claimed: Operation[] = [];
  for (const candidate of candidates) {
    const claimedUntil = new Date(now.getTime() + leaseMs);
    const { count } = await db.operation.updateMany({
      where: { id: candidate.id, revision: candidate.revision },
      data: { claimedBy: workerId, claimedUntil, revision: candidate.revision + 1 },
    });
    if (count === 1) claimed.push({ ...candidate, claimedBy: workerId, claimedUntil, revision: candidate.revision + 1 });
  }
  return claimed;
}

/** Hands a claimed operation back untouched, due again at `dueAt` (the read was deferred, not made). */
export async function releaseClaim(db: PrismaClient, claimed: Operation, dueAt: Date): Promise<boolean> {
  const { count } = await db.operation.updateMany({
    where: { id: claimed.id, revision: claimed.revision, status: "PENDING" },
    data: { claimedBy: null, claimedUntil: null, nextDueAt: dueAt, revision: claimed.revision + 1 },
  });
  return count === 1;
}

export interface ObservationRecord {
  channel: string;
  observedAt: Date;
  ok: boolean;
  data?: unknown;
  error?: string;
  apiVersion?: string | null;
}

export class StaleClaimError extends Error {}

/** How the read-back of this evaluation counts. */
export interface ReadbackAccount {
  /**
   * counted: a read that used one of the contract's attempts; failed: an error (no attempt, a
   * back-off); not_evidence: Shopify did not show the refund yet inside the stale read window (no
   * attempt, no back-off: read again at `dueAt`).
   */
  kind: "counted" | "failed" | "not_evidence";
  retryAfterMs: number;
  /** Overrides the schedule: the end of the stale read window for a provisional verdict or a read not yet evidence. */
  dueAt?: Date;
  /** The verdict the evidence points to before the stale read window has passed (recorded as PENDING). */
  provisional?: string | null;
  orderName?: string;
  shopMoney?: { amount: string; currencyCode: string };
}

/** Versions among those that served the observations which the contract does not list, joined with what was already flagged. */
function versionsOutside(contract: LoadedContract, observations: ObservationRecord[], already: string | null): string | null {
  const allowed = new Set(contract.contract.provider_api_versions);
  const outside = new Set(already ? already.split(", ") : []);
  for (const o of observations) for (const version of o.apiVersion?.split(", ") ?? []) if (!allowed.has(version)) outside.add(version);
  return outside.size ? [...outside].sort().join(", ") : null;
}

/** The contradictions and rules that held, as rows: what the dashboard's filters and the retry guard ask for. */
function reasonRows(contract: LoadedContract, operation: Operation, result: Evaluation) {
  const classes = new Map(contract.contract.contradicted_when.map((c) => [c.id, c.class]));
  return result.conditions
    .filter((c) => c.status === "holds" && (c.group === "contradicted" || c.group === "rule"))
    .map((c) => ({
      operationId: operation.id,
      shop: operation.shop,
      reason: c.id,
      kind: c.group === "rule" ? "rule" : "contradiction",
      class: classes.get(c.id) ?? null,
    }));
}

/**
 * Writes one evaluation: the operation's new state, checked against the claim's revision, then
 * its observations and the engine's result. If anything else touched the operation meanwhile
 * (new evidence, a re-check, another worker after the lease ran out) nothing is written.
 */
export async function recordEvaluation(
  db: PrismaClient,
  contract: LoadedContract,
  claimed: Operation,
  observations: ObservationRecord[],
  result: Evaluation,
  now: Date,
  readback: ReadbackAccount,
): Promise<void> {
  const final = result.verdict !== "PENDING";
  const counted = readback.kind === "counted";
  const attempts = claimed.attempts + (counted ? 1 : 0);
  const readFailures = readback.kind === "failed" ? claimed.readFailures + 1 : 0;
  const timing = contract.contract.timing;
  let nextDueAt: Date | null = null;
  if (final) {
    nextDueAt = null;
  } else if (readback.dueAt) {
    nextDueAt = new Date(Math.max(readback.dueAt.getTime(), now.getTime()));
  } else if (counted) {
    nextDueAt = new Date(Math.max(nextCheckAt(timing, claimed.startedAt.getTime(), attempts).atMs, now.getTime()));
  } else {
    // A failed read is no attempt: back off (1 s doubling to 60 s, or what Shopify asked); before
    // the timeout, never past it.
    const backoff = Math.max(readback.retryAfterMs, Math.min(1000 * 2 ** (readFailures - 1), 60_000));
    const timeoutAt = claimed.startedAt.getTime() + timing.timeout_ms;
    const retryAt = now.getTime() + backoff;
    nextDueAt = new Date(now.getTime() < timeoutAt ? Math.min(retryAt, timeoutAt) : retryAt);
  }
  // No transaction: on SQLite, Prisma's single connection would let concurrent writes (a webhook
  // arriving now) join it and vanish in a rollback. The guarded update is one atomic statement and
  // decides alone; the evidence rows follow it (a crash in between leaves a verdict without its rows).
  const { count } = await db.operation.updateMany({
    where: { id: claimed.id, revision: claimed.revision, status: "PENDING" },
    data: {
      status: result.verdict,
      reason: result.reason,
      reasons: JSON.stringify(result.reasons),
      classes: JSON.stringify(result.classes),
      escalate: result.escalate,
      attempts,
      readFailures,
      nextDueAt,
      claimedBy: null,
      claimedUntil: null,
      revision: claimed.revision + 1,
      provisionalVerdict: final ? null : (readback.provisional ?? null),
      apiVersionsOutside: versionsOutside(contract, observations, claimed.apiVersionsOutside),
      ...(final ? { decidedAt: now, reviewState: result.escalate ? "open" : "none" } : {}),
      ...(readback.orderName ? { orderName: readback.orderName } : {}),
      ...(readback.shopMoney ? { shopAmount: readback.shopMoney.amount, shopCurrency: readback.shopMoney.currencyCode } : {}),
    },
  });
  if (count !== 1) throw new StaleClaimError(`operation ${claimed.id} changed while it was being evaluated`);
  await writeEvidence(db, contract, { ...claimed, revision: claimed.revision + 1 }, observations, result, now, attempts);
}

/**
 * The rows that explain an evaluation: the reasons of a final verdict, the observations, the
 * engine's result. Written after the verdict itself; a verdict whose writer died before them
 * gets them from whoever decides it again from the same evidence (the history backfill does).
 * `operation` is the row as the verdict left it: its revision names the evaluation.
 */
export async function writeEvidence(
  db: PrismaClient,
  contract: LoadedContract,
  operation: Operation,
  observations: ObservationRecord[],
  result: Evaluation,
  now: Date,
  attempt: number,
): Promise<void> {
  if (result.verdict !== "PENDING") {
    await db.operationReason.deleteMany({ where: { operationId: operation.id } });
    const rows = reasonRows(contract, operation, result);
    if (rows.length) await db.operationReason.createMany({ data: rows });
  }
  const ids = observations.map(() => randomUUID());
  await db.observation.createMany({
    data: observations.map((observation, i) => ({
      id: ids[i],
      operationId: operation.id,
      channel: observation.channel,
      observedAt: observation.observedAt,
      ok: observation.ok,
      data: observation.ok ? JSON.stringify(observation.data) : null,
      error: observation.error ?? null,
      apiVersion: observation.apiVersion ?? null,
    })),
  });
  // The evaluation's id is the operation's revision it recorded: a second writer of the same
  // verdict (a worker that lost its backfill's lease, repairing what it took for a crash) finds it
  // taken and takes back its copy of the observations, so a verdict has one evaluation.
  try {
    await db.evaluation.create({
      data: {
        id: `${operation.id}:${operation.revision}`,
        operationId: operation.id,
        evaluatedAt: now,
        attempt,
        verdict: result.verdict,
        result: JSON.stringify(result),
        observationIds: JSON.stringify(ids),
      },
      select: { id: true },
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await db.observation.deleteMany({ where: { id: { in: ids } } });
  }
}
