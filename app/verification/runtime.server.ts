import type { Operation, PrismaClient } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import { contractByVersion } from "../contracts/registry.server";
import { judgeOperation, recordVerdicts, type EvaluationToRecord } from "./verdicts.server";
import type { Claimed } from "../work/claims.server";
import { outcome, runRowWork, type Helpers, type Outcomes, type RowHelpers, type ShopByShopWork } from "../work/runner.server";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { readOrdersShown } from "../shopify/admin/orders.server";
import { readRefunds, type ReadbackBody, type ReadbackOutcome } from "../shopify/admin/refund-readback.server";
import { observe, storedFacts, type StoredFacts } from "./observe.server";
import { config } from "../lib/config/env.server";
import { agreementOf, madeOf, type Made } from "../verdicts/made";

export interface RuntimeDeps extends Helpers {
  contract: LoadedContract;
  gateway: ShopifyGateway;
  /** How long a claim holds before another worker may take the operation over. */
  leaseMs?: number;
  /** Operations of one shop claimed at once. */
  batchLimit?: number;
  /** Called after each successful read-back (the worker wires refunds/ in: records follow their transactions). */
  afterReadback?: (op: Operation, body: ReadbackBody, now: Date) => Promise<void>;
}

/** Shops a pass decides at once: enough to keep several buckets draining, few enough for the database's pool (10 connections). */
const SHOPS_AT_ONCE = 16;
/** Shops a pass looks at; the rest wait for the next pass. */
const MAX_SHOPS_A_PASS = 100;
/** Operations of one shop claimed at once: about three seconds of a Plus shop's bucket (decision 024); under SQLite's 999 parameters a statement. */
const PER_SHOP = 250;

export interface ReadbackPassResult {
  claimed: number;
  decided: number;
  /** Evaluated, but changed meanwhile (new evidence, a re-check): nothing written. */
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
 * Where the refund was made (decision 031), from its payload (who, and a POS device) and, once
 * Shopify shows the refund, its agreement's app. A refund issued in this app keeps what its record
 * said; one Shopify does not show yet is said from its payload only while nothing else was said.
 */
function madeFacts(op: Operation, stored: StoredFacts, readback: Read): Made | undefined {
  if (op.madeIn === "this_app") return undefined;
  const refund = readback.ok ? readback.body.data.refund : null;
  const made = madeOf({
    ownApiKey: config().SHOPIFY_API_KEY,
    delivery: stored.webhooks(op).made,
    agreement: refund ? agreementOf(refund.order.agreements, op.refundGid) : undefined,
  });
  return made && (refund || op.madeIn === null) ? made : undefined;
}

type ReadbackOptions = Pick<RuntimeDeps, "contract" | "gateway" | "leaseMs" | "batchLimit" | "afterReadback">;

/**
 * The read-back, as work for the runner: what is due is claimed shop by shop (each shop has its
 * own bucket at Shopify, and one waiting for it must not hold up the others, nor one shop's
 * backlog fill a whole pass), read back in batches, judged against the contract with the webhook
 * evidence, and recorded in one write a shop. Errors from Shopify become failed observations and
 * a back-off, never evidence.
 */
export function readbackWork(options: ReadbackOptions): ShopByShopWork<"operations"> {
  return {
    name: "readback",
    queue: "operations",
    perShop: true,
    maxShops: MAX_SHOPS_A_PASS,
    concurrency: SHOPS_AT_ONCE,
    batch: options.batchLimit ?? PER_SHOP,
    leaseMs: options.leaseMs,
    handle: (rows, helpers) => decideShop(options, helpers, rows),
  };
}

/** One pass of the read-back (the worker's loop, the bench and tests that drive verification alone). */
export async function processDue(deps: RuntimeDeps): Promise<ReadbackPassResult> {
  const pass = await runRowWork(readbackWork(deps), deps);
  const { written, due } = pass.outcomes;
  // A written outcome carries a note when it is a verdict.
  return { claimed: pass.claimed, decided: pass.notes.length, stale: pass.claimed - written - due, deferred: due };
}

async function decideShop(options: ReadbackOptions, helpers: RowHelpers<"operations">, operations: Claimed<"operations">[]): Promise<Outcomes<"operations">> {
  const { db } = helpers;
  const readbacks = await readRefunds(
    options.gateway,
    helpers.shop!,
    operations.map((op) => op.refundGid),
  );
  // Waiting for the shop's rate limit: handed back unread, due when Shopify will have the points.
  const deferredFor = (op: Operation) => {
    const readback = readbacks.get(op.refundGid)!;
    return !readback.ok && readback.deferred ? readback.retryAfterMs : null;
  };
  const [deferred, read] = partition(operations, (op) => deferredFor(op) !== null);
  const outcomes: Outcomes<"operations"> = [];
  for (const [retryAfterMs, group] of Map.groupBy(deferred, (op) => deferredFor(op)!)) {
    outcomes.push(...outcome(group, { kind: "due", at: new Date(helpers.now().getTime() + retryAfterMs) }));
  }
  await readOrdersOfRefundsNotShown(options, helpers, read, readbacks);
  const stored = await storedFacts(db, helpers.shop!, read);
  const evaluations: EvaluationToRecord[] = [];
  for (const op of read) evaluations.push(await evaluateOne(options, helpers, stored, op, readbacks.get(op.refundGid) as Read));
  const written = await recordVerdicts(db, evaluations, helpers.now());
  for (const { claimed: op, result, readback } of evaluations) {
    if (!written.has(op.id)) continue;
    const answer = readbacks.get(op.refundGid)!;
    if (answer.ok) await options.afterReadback?.(op, answer.body, helpers.now());
    const note = result.verdict === "PENDING" ? undefined : { refund: op.refundGid, verdict: result.verdict, reason: result.reason, read: readback.kind };
    outcomes.push(...outcome([op as Claimed<"operations">], { kind: "written", note }));
  }
  return outcomes;
}

type Read = Exclude<ReadbackOutcome, { deferred: true }>;

/** The contract an operation is judged by to its end: the version it was opened under. */
const judgedBy = (options: Pick<ReadbackOptions, "contract">, op: Operation) => contractByVersion(op.contractId, op.contractVersion) ?? options.contract;

/**
 * For each refund Shopify answered without after its stale read window, whether Shopify shows its
 * order to this shop, kept in the read-back as `data.order` ({id}, or null for no such order):
 * a refund of an order the shop does not have was named under the wrong shop, or its order is
 * gone (contract 1.3.0, order_not_in_shop). One nodes(ids:) request for the batch; an order the
 * request could not read stays unknown.
 */
async function readOrdersOfRefundsNotShown(
  options: ReadbackOptions,
  helpers: RowHelpers<"operations">,
  operations: Operation[],
  readbacks: Map<string, ReadbackOutcome>,
) {
  const now = helpers.now();
  const notShown = operations.filter((op) => {
    const readback = readbacks.get(op.refundGid)!;
    return readback.ok && !readback.body.data.refund && !staleWindow(judgedBy(options, op), op, now).open;
  });
  if (notShown.length === 0) return;
  const shown = await readOrdersShown(
    options.gateway,
    helpers.shop!,
    notShown.map((op) => op.orderGid),
  );
  for (const op of notShown) {
    if (!shown.has(op.orderGid)) continue;
    const readback = readbacks.get(op.refundGid) as Extract<ReadbackOutcome, { ok: true }>;
    readback.body.data.order = shown.get(op.orderGid) === null ? null : { id: op.orderGid };
  }
}

/** One operation's judgement from its read-back and what the database holds of the shop: pure but for the rare read of earlier observations. */
async function evaluateOne(deps: ReadbackOptions, helpers: Helpers, stored: StoredFacts, op: Operation, readback: Read): Promise<EvaluationToRecord> {
  const observedAt = helpers.now();
  const contract = judgedBy(deps, op);
  const window = staleWindow(contract, op, observedAt);
  // Shopify's reads lag its writes: inside the window, "no such refund" is no evidence at all.
  const notYetVisible = readback.ok && !readback.body.data.refund && window.open;
  const { observed, observations } = await observe(stored, contract, op, readback, {
    observedAt,
    windowEnd: window.end,
    windowOpen: window.open,
  });
  const account = {
    kind: !readback.ok ? "failed" : notYetVisible ? "not_evidence" : "counted",
    retryAfterMs: readback.ok ? 0 : readback.retryAfterMs,
    dueAt: notYetVisible ? new Date(observedAt.getTime() + contract.contract.timing.poll_interval_ms) : undefined,
    ...(readback.ok ? readbackFacts(readback.body, op.orderGid) : {}),
    made: madeFacts(op, stored, readback),
  } as const;
  return judgeOperation({ contract, operation: op, observed, observations, readback: account, window }, observedAt);
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
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
