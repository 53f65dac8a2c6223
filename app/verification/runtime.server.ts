import type { Operation, PrismaClient } from "@prisma/client";
import { evaluate } from "../contracts/evaluate";
import type { LoadedContract } from "../contracts/load";
import { buildBindings } from "./bindings";
import { contractByVersion } from "../contracts/registry.server";
import { claimDue, recordEvaluation, releaseClaim, StaleClaimError } from "./operations.server";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { readRefunds, type ReadbackBody } from "../shopify/admin/refund-readback.server";
import { observe } from "./observe.server";

export interface RuntimeDeps {
  db: PrismaClient;
  contract: LoadedContract;
  gateway: ShopifyGateway;
  now: () => Date;
  workerId: string;
  /** How long a claim holds before another worker may take the operation over. */
  leaseMs?: number;
  /** Operations claimed per pass. */
  batchLimit?: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
  /** Called after each successful read-back (the worker wires refunds/ in: records follow their transactions). */
  afterReadback?: (op: Operation, body: ReadbackBody, now: Date) => Promise<void>;
}

export interface PassResult {
  claimed: number;
  decided: number;
  stale: number;
  /** Claimed, then handed back unread to wait for the shop's rate limit. */
  deferred: number;
}

/** The contract's stale read window of an operation: open until `operation.created_at + stale_read_window_ms`. */
function staleWindow(loaded: LoadedContract, op: Pick<Operation, "startedAt">, now: Date): { open: boolean; end: Date } {
  const end = new Date(op.startedAt.getTime() + loaded.contract.timing.stale_read_window_ms);
  return { open: now.getTime() < end.getTime(), end };
}

/**
 * What the read-back tells about the refund beyond the verdict: the shop-money amount, and the
 * name of the operation's order when the refund is on it. A refund Shopify recorded on another
 * order names that order, not this one: the rows would call the refund's order by the wrong name.
 */
function readbackFacts(body: ReadbackBody, orderGid: string) {
  const refund = body.data.refund;
  return { orderName: refund?.order.id === orderGid ? refund.order.name : undefined, shopMoney: refund?.totalRefundedSet.shopMoney };
}

/**
 * One pass of the worker: claim what is due, read it back per shop in batches, gather the
 * webhook evidence, evaluate against the contract and record the result. Errors from Shopify
 * become failed observations and a back-off, never evidence.
 */
export async function processDue(deps: RuntimeDeps): Promise<PassResult> {
  const { db, contract, gateway } = deps;
  const claimed = await claimDue(db, deps.workerId, deps.now(), deps.leaseMs ?? 30_000, deps.batchLimit ?? 1000);
  const byShop = Map.groupBy(claimed, (op) => op.shop);
  const result: PassResult = { claimed: claimed.length, decided: 0, stale: 0, deferred: 0 };

  for (const [shop, operations] of byShop) {
    const readbacks = await readRefunds(
      gateway,
      shop,
      operations.map((op) => op.refundGid),
    );
    for (const op of operations) {
      const observedAt = deps.now();
      const readback = readbacks.get(op.refundGid)!;
      if (!readback.ok && readback.deferred) {
        await releaseClaim(db, op, new Date(observedAt.getTime() + readback.retryAfterMs));
        result.deferred++;
        continue;
      }
      // An operation is judged to its end by the contract version it was opened under.
      const opContract = contractByVersion(op.contractId, op.contractVersion) ?? contract;
      const window = staleWindow(opContract, op, observedAt);
      // Shopify's reads lag its writes: inside the window, "no such refund" is no evidence at all.
      const notYetVisible = readback.ok && !readback.body.data.refund && window.open;
      const { observed, observations } = await observe(db, opContract, op, readback, { observedAt, windowEnd: window.end, windowOpen: window.open });
      const facts = { ...op, actionResult: op.actionResult ? JSON.parse(op.actionResult) : null };
      const evaluation = evaluate(opContract, buildBindings(opContract, facts, observed, observedAt));
      // Nothing is final before the window has passed: a read inside it may be stale, and another
      // refund on the order may still show up. The verdict is read once more at the window's end.
      const provisional = window.open && evaluation.verdict !== "PENDING" && evaluation.verdict !== "UNVERIFIABLE" ? evaluation.verdict : null;
      const recorded = provisional ? { ...evaluation, verdict: "PENDING" as const, escalate: false } : evaluation;
      try {
        await recordEvaluation(db, opContract, op, observations, recorded, deps.now(), {
          kind: !readback.ok ? "failed" : notYetVisible ? "not_evidence" : "counted",
          retryAfterMs: readback.ok ? 0 : readback.retryAfterMs,
          dueAt: provisional ? window.end : notYetVisible ? new Date(observedAt.getTime() + opContract.contract.timing.poll_interval_ms) : undefined,
          provisional,
          ...(readback.ok ? readbackFacts(readback.body, op.orderGid) : {}),
        });
        if (readback.ok) await deps.afterReadback?.(op, readback.body, deps.now());
        if (recorded.verdict !== "PENDING") {
          result.decided++;
          deps.log?.("verdict", { shop, refund: op.refundGid, verdict: evaluation.verdict, reason: evaluation.reason });
        }
      } catch (error) {
        if (!(error instanceof StaleClaimError)) throw error;
        result.stale++;
      }
    }
  }
  return result;
}

/** The earliest time anything is due, for the loop to sleep until. */
export async function nextDueTime(db: PrismaClient): Promise<Date | null> {
  const next = await db.operation.findFirst({
    where: { status: "PENDING", nextDueAt: { not: null } },
    orderBy: { nextDueAt: "asc" },
    select: { nextDueAt: true },
  });
  return next?.nextDueAt ?? null;
}
