import type { Backfill, BackfillLine, Operation, Prisma, PrismaClient } from "@prisma/client";
import { contractByVersion, REFUND_CREATED, REFUND_HISTORY, REFUND_HISTORY_1_0_0 } from "../contracts/registry.server";
import { isUniqueViolation } from "../lib/db/create-once";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { BulkDownloadError, bulkOperationState, bulkResultLines, startBulkQuery } from "../shopify/admin/bulk.server";
import { historyBulkQuery } from "../shopify/admin/documents";
import { statedAmount } from "../verification/stated-amount";
import { openIfDelivered } from "../verification/intake.server";
import { newOperationData } from "../verification/operations.server";
import { judgeOperation, recordVerdicts, writeEvidence } from "../verification/verdicts.server";
import { earlierDuplicates } from "../verdicts/duplicates";
import { unclaimedAt, type Claimed } from "../work/claims.server";
import { outcome, runRowWork, type Helpers, type InOrderWork, type Outcome, type RowHelpers } from "../work/runner.server";
import { config } from "../lib/config/env.server";
import {
  bulkReadback,
  historyTransaction,
  isZero,
  readHistoryLine,
  sameAmountNearby,
  stagedRefund,
  type HistoryAgreementApp,
  type HistoryRefund,
  type HistoryTransaction,
} from "./history";
import { madeOf } from "../verdicts/made";
import { parseStored } from "../lib/db/stored-json";
import { turnTaker } from "../lib/db/take-turns";
import { inWindow, summarize } from "./summary.server";

export interface BackfillOptions {
  gateway: ShopifyGateway;
  /** How often a running bulk operation is asked how it stands (bulk_operations/finish usually comes first). */
  pollMs?: number;
  leaseMs?: number;
  /** JSONL lines staged per statement. */
  chunkLines?: number;
  /** Refunds verified per page (then the progress is stored). */
  pageRefunds?: number;
  /** Called after each chunk staged and each page verified (the CLI's progress line). */
  onProgress?: (backfill: Backfill) => void;
}

/** What a pass needs: the runner's helpers, the backfill's options, and (the CLI) one shop. */
export type BackfillDeps = Helpers & BackfillOptions & { shop?: string };

/** A result URL that expired (or a bulk operation Shopify no longer knows) is read again this many times in all. */
const MAX_BULK_RUNS = 2;
/** Errors in a row (Shopify refusing or failing, our own step failing) before a backfill stops for good. */
const MAX_ERRORS = 10;
/** Staged lines removed per statement once a backfill is done. */
const DROP_LINES = 2_000;
/** A result file that ended before Shopify's count of its objects is downloaded again (from where it ended) after this long. */
const SHORT_FILE_RETRY_MS = 10_000;

type Step = Outcome<"backfills">;

/**
 * A backfill this worker holds, as its last write left it: every write goes through the runner's
 * guarded save (the claim and the revision checked, the lease renewed), and the runner renews the
 * lease while a step works on without writing (a slow download, lines already staged).
 */
class Held {
  constructor(
    private readonly deps: BackfillDeps,
    private readonly helpers: RowHelpers<"backfills">,
    public backfill: Claimed<"backfills">,
  ) {}

  async save(data: Prisma.BackfillUncheckedUpdateManyInput): Promise<void> {
    this.backfill = await this.helpers.save(this.backfill, data);
    this.deps.onProgress?.(this.backfill);
  }
}

/** Handed back, due again at `dueAt` (null: finished); a step that went as it should clears the run of errors. */
function handBack(data: Prisma.BackfillUncheckedUpdateManyInput, dueAt: Date | null): Step {
  return dueAt ? { kind: "due", at: dueAt, data: { errors: 0, ...data } } : { kind: "done", data: { errors: 0, ...data } };
}

/** Shopify did not answer as it should, or the step failed: try again later, and give up (saying why) after MAX_ERRORS in a row. */
function retryOrGiveUp(deps: BackfillDeps, backfill: Backfill, message: string, ms: number): Step {
  const errors = backfill.errors + 1;
  if (errors >= MAX_ERRORS) return giveUp(deps, `${message} (${errors} times in a row). Nothing more was done; ask for the backfill again.`);
  return { kind: "retry", failures: errors, askedMs: ms, data: { errors, message } };
}

function giveUp(deps: BackfillDeps, message: string): Step {
  return { kind: "failed", reason: message, data: { errors: 0, state: "failed", activeShop: null, finishedAt: deps.now(), message } };
}

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};
const later = (deps: BackfillDeps, ms: number) => new Date(deps.now().getTime() + ms);

async function startReading(deps: BackfillDeps, held: Held): Promise<Step> {
  const { backfill } = held;
  const started = await startBulkQuery(deps.gateway, backfill.shop, historyBulkQuery(backfill.since));
  if (started.ok) {
    return handBack(
      { state: "reading", bulkOperationGid: started.id, bulkRuns: backfill.bulkRuns + 1, objectCount: 0, linesRead: 0, bytesRead: 0n, message: null },
      later(deps, 0),
    );
  }
  if (started.refused) {
    if (!started.busy) return giveUp(deps, `Shopify refused the history query: ${started.message}`);
    return handBack({ message: "Shopify is running other bulk queries for this shop; the backfill starts when one ends." }, later(deps, 60_000));
  }
  return retryOrGiveUp(deps, held.backfill, `Waiting for Shopify: ${started.message}`, Math.max(started.retryAfterMs, 30_000));
}

/** The result is gone (expired, or Shopify no longer knows the operation): read the history again, once. */
async function readAgain(deps: BackfillDeps, held: Held, reason: string): Promise<Step> {
  if (held.backfill.bulkRuns >= MAX_BULK_RUNS) return giveUp(deps, `${reason}, again. Nothing more was read; ask for the backfill again.`);
  await deps.db.backfillLine.deleteMany({ where: { backfillId: held.backfill.id } });
  return handBack(
    { state: "queued", bulkOperationGid: null, linesRead: 0, bytesRead: 0n, badLines: 0, message: `${reason}; reading the history again.` },
    deps.now(),
  );
}

function stagedRow(backfillId: string, line: number, text: string): { row?: Prisma.BackfillLineCreateManyInput; bad: boolean } {
  const read = readHistoryLine(text);
  // A line that does not parse but names its parent marks that refund as not wholly read.
  if (read.kind === "bad")
    return { bad: true, row: read.parentId ? { backfillId, line, kind: "unreadable", agreementGid: read.parentId, data: "" } : undefined };
  if (read.kind === "other") return { bad: false };
  if (read.kind === "transaction") {
    return { bad: false, row: { backfillId, line, kind: "transaction", agreementGid: read.agreementGid, data: JSON.stringify(read.transaction) } };
  }
  const { refund } = read;
  return {
    bad: false,
    row: {
      backfillId,
      line,
      kind: "refund",
      agreementGid: read.agreementGid,
      orderGid: read.orderGid,
      refundGid: refund.id,
      createdAt: new Date(refund.createdAt),
      data: JSON.stringify({ ...refund, agreementApp: read.app }),
    },
  };
}

/**
 * Streams the result into BackfillLine, a chunk per statement, and stores after each chunk how
 * far it got (line and byte): a restart, another worker after the lease, or a re-download of a
 * file that ended early reads on from there. Lines past that point from a chunk whose progress
 * was not stored are removed first, so no line is staged twice. A last line the file ended in the
 * middle of, that is not JSON, was cut: it is left for the next download.
 */
async function stage(deps: BackfillDeps, held: Held, url: string): Promise<void> {
  const { db } = deps;
  const chunkLines = deps.chunkLines ?? 200;
  const id = held.backfill.id;
  await db.backfillLine.deleteMany({ where: { backfillId: id, line: { gte: held.backfill.linesRead } } });
  let rows: Prisma.BackfillLineCreateManyInput[] = [];
  let bad = 0;
  let reached = { line: held.backfill.linesRead, byte: Number(held.backfill.bytesRead) };
  const flush = async () => {
    if (rows.length) await db.backfillLine.createMany({ data: rows });
    await held.save({ linesRead: reached.line, bytesRead: BigInt(reached.byte), badLines: held.backfill.badLines + bad });
    rows = [];
    bad = 0;
  };
  for await (const { line, text, next, terminated } of bulkResultLines(url, reached)) {
    if (!terminated && !isJson(text)) break;
    const staged = stagedRow(id, line, text);
    if (staged.row) rows.push(staged.row);
    if (staged.bad) bad++;
    reached = next;
    if (line - held.backfill.linesRead >= chunkLines - 1) await flush();
  }
  await flush();
}

async function read(deps: BackfillDeps, held: Held): Promise<Step> {
  const { backfill } = held;
  const answer = await bulkOperationState(deps.gateway, backfill.shop, backfill.bulkOperationGid!);
  if (!answer.ok) return retryOrGiveUp(deps, held.backfill, `Waiting for Shopify: ${answer.message}`, Math.max(answer.retryAfterMs, 10_000));
  const state = answer.state;
  if (!state) return readAgain(deps, held, "Shopify no longer knows the bulk read of the history");
  switch (state.status) {
    case "CREATED":
    case "RUNNING":
    case "CANCELING":
      return handBack({ objectCount: state.objectCount, message: null }, later(deps, deps.pollMs ?? 10_000));
    case "FAILED":
      return giveUp(
        deps,
        `Shopify's bulk read of the history failed (${state.errorCode ?? "no error code"}). Nothing was verified from it; ask for the backfill again.`,
      );
    case "CANCELED":
      return giveUp(deps, "The bulk read of the history was canceled in Shopify. Nothing was verified from it.");
    case "EXPIRED":
      return readAgain(deps, held, "Shopify's result of the history read had expired");
    case "COMPLETED":
      break;
    default:
      return handBack({ message: `Shopify says the bulk read is ${state.status}` }, later(deps, deps.pollMs ?? 10_000));
  }
  // A completed query that matched nothing has no file; one that read something must have one.
  if (!state.url && state.objectCount > 0)
    return retryOrGiveUp(deps, held.backfill, "Shopify completed the bulk read but gave no address for its result", 30_000);
  await held.save({ objectCount: state.objectCount, readAt: state.completedAt ? new Date(state.completedAt) : deps.now() });
  if (state.url) {
    const url = state.url;
    try {
      await stage(deps, held, url);
    } catch (error) {
      if (!(error instanceof BulkDownloadError)) throw error;
      if (error.status === 404 || error.status === 403) return readAgain(deps, held, "Shopify's result of the history read had expired (its URL answered 404)");
      return retryOrGiveUp(deps, held.backfill, `Reading Shopify's result: ${error.message}`, 30_000);
    }
  }
  // Shopify counted the objects it wrote: a file that ended before them is read on, never decided short.
  if (held.backfill.linesRead < state.objectCount) {
    const { linesRead } = held.backfill;
    return retryOrGiveUp(
      deps,
      held.backfill,
      `Shopify's result file ended after ${linesRead} of its ${state.objectCount} lines; reading the rest`,
      SHORT_FILE_RETRY_MS,
    );
  }
  const found = await deps.db.backfillLine.count({
    where: { backfillId: backfill.id, kind: "refund", createdAt: { gte: backfill.since, lt: backfill.until } },
  });
  await held.save({ state: "verifying", refundsFound: found, message: null });
  return verify(deps, held);
}

/**
 * Opens the history operation of a refund. After a restart it may exist already: undecided (the
 * backfill died before deciding it: decide it now), or decided without its evidence rows (died
 * between the two writes: write them, from the same bulk read). Null when another channel has it,
 * or it is complete.
 */
async function historyOperation(deps: BackfillDeps, facts: Parameters<typeof newOperationData>[1]): Promise<{ op: Operation; decided: boolean } | null> {
  const find = () =>
    deps.db.operation.findUnique({
      where: { shop_refundGid: { shop: facts.shop, refundGid: facts.refundGid } },
      include: { _count: { select: { evaluations: true } } },
    });
  let existing = await find();
  if (!existing) {
    if (await openIfDelivered(deps.db, REFUND_CREATED, facts.shop, facts.refundGid, deps.now())) return null;
    try {
      return { op: await deps.db.operation.create({ data: newOperationData(REFUND_HISTORY, facts, deps.now(), null) }), decided: false };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    existing = await find();
  }
  if (!existing || existing.origin !== "backfill" || existing.contractId !== REFUND_HISTORY.contract.id) return null;
  if (existing.status === "PENDING") return { op: existing, decided: false };
  return existing._count.evaluations === 0 ? { op: existing, decided: true } : null;
}

/** One refund of the history as the bulk read staged it: its line, the refund, its transactions, its order's refunds and its agreement's app. */
interface StagedRefund {
  row: BackfillLine;
  refund: HistoryRefund;
  transactions: HistoryTransaction[];
  orderRefunds: HistoryRefund[];
  agreementApp: HistoryAgreementApp | null | undefined;
}

/** Opens (or finds) a refund's history operation and decides it from the bulk read, or writes the evidence of a verdict whose rows died with their writer. */
async function decide(deps: BackfillDeps, backfill: Backfill, staged: StagedRefund) {
  const { row, refund, transactions, orderRefunds, agreementApp } = staged;
  // $input: the order the read listed it under, and what its REFUND transactions add up to (as for a refund the sweep finds).
  const refunded = statedAmount(transactions, true);
  // Where it was made (decision 031): its agreement's app, a POS device; no payload names a person in the history.
  const made = madeOf({
    ownApiKey: config().SHOPIFY_API_KEY,
    posDevice: transactions.some((t) => t.device !== null),
    agreement: agreementApp === undefined ? undefined : { app: agreementApp },
  });
  const found = await historyOperation(deps, {
    shop: backfill.shop,
    refundGid: refund.id,
    orderGid: row.orderGid!,
    orderName: refund.order.name,
    origin: "backfill",
    amount: refunded.amount,
    currency: refunded.currency,
    startedAt: new Date(refund.createdAt),
    made,
  });
  if (!found) return;
  const { op } = found;
  const readAt = backfill.readAt ?? deps.now();
  // A history operation opened under 1.0.0 (before the upgrade, resumed after it) keeps its version's channel.
  const contract = contractByVersion(op.contractId, op.contractVersion) ?? REFUND_HISTORY;
  const duplicates = contract === REFUND_HISTORY_1_0_0 ? sameAmountNearby(refund, orderRefunds) : earlierDuplicates(refund, orderRefunds);
  const duplicateChannel = contract === REFUND_HISTORY_1_0_0 ? "order_refunds_in_bulk_read" : "earlier_duplicates_in_bulk_read";
  const observed = { refund_bulk_read: bulkReadback(refund, transactions), [duplicateChannel]: duplicates };
  const observations = [
    { channel: "refund_bulk_read", observedAt: readAt, ok: true, data: observed.refund_bulk_read },
    { channel: duplicateChannel, observedAt: readAt, ok: true, data: duplicates },
  ];
  const now = deps.now();
  const readback = {
    kind: "counted",
    retryAfterMs: 0,
    orderName: refund.order.name,
    shopMoney: refund.totalRefundedSet.shopMoney,
    ...(made ? { made } : {}),
  } as const;
  const judged = judgeOperation({ contract, operation: op, observed, observations, readback }, now);
  if (found.decided)
    return writeEvidence(deps.db, { contract, operation: op, observations, result: judged.result, evaluatedAt: op.decidedAt ?? now, attempt: op.attempts });
  const written = await recordVerdicts(deps.db, [judged], now);
  // Another writer decided it meanwhile (a worker that took the backfill over): this step is tried again.
  if (!written.has(op.id)) throw new Error(`operation ${op.id} changed while it was being judged`);
}

/** The lines a finished backfill staged, removed a stretch at a time: one statement for a long history would hold SQLite (and the process) for its whole length. */
async function dropStagedLines(db: PrismaClient, backfill: Backfill): Promise<void> {
  const takeTurn = turnTaker();
  for (let from = 0; from < backfill.linesRead; from += DROP_LINES) {
    await db.backfillLine.deleteMany({ where: { backfillId: backfill.id, line: { gte: from, lt: from + DROP_LINES } } });
    await takeTurn();
  }
  await db.backfillLine.deleteMany({ where: { backfillId: backfill.id } });
}

/** The staged refunds of the next orders after `cursor`, every refund of the last order included. */
async function nextPage(db: PrismaClient, backfillId: string, cursor: string | null, size: number): Promise<BackfillLine[]> {
  const page = await db.backfillLine.findMany({
    where: { backfillId, kind: "refund", ...(cursor ? { orderGid: { gt: cursor } } : {}) },
    orderBy: [{ orderGid: "asc" }, { line: "asc" }],
    take: size,
  });
  if (page.length < size) return page;
  const last = page[page.length - 1];
  const rest = await db.backfillLine.findMany({
    where: { backfillId, kind: "refund", orderGid: last.orderGid, line: { gt: last.line } },
    orderBy: { line: "asc" },
  });
  return [...page, ...rest];
}

/**
 * Verifies the staged history order by order (an order's refunds together: a duplicate is two
 * refunds of one order), storing after each page the last order done. A refund that already has
 * an operation (a webhook, the sweep, the app, or this backfill before a restart) is not opened again.
 */
async function verify(deps: BackfillDeps, held: Held): Promise<Step> {
  const { db } = deps;
  const id = held.backfill.id;
  // Lines that did not parse and name no parent may have been any refund's transactions: then a
  // refund read without any transaction is not taken as one that has none.
  const attributed = await db.backfillLine.count({ where: { backfillId: id, kind: "unreadable" } });
  const unattributed = held.backfill.badLines > attributed;
  const takeTurn = turnTaker();
  for (;;) {
    const backfill = held.backfill;
    if (backfill.summary) break;
    const page = await nextPage(db, id, backfill.verifyCursor, deps.pageRefunds ?? 500);
    if (!page.length) break;
    const children = await db.backfillLine.findMany({
      where: { backfillId: id, kind: { in: ["transaction", "unreadable"] }, agreementGid: { in: page.map((row) => row.agreementGid) } },
    });
    const byAgreement = Map.groupBy(children, (row) => row.agreementGid);
    const refunds = page.map((row) => {
      const { agreementApp, ...refund } = parseStored(stagedRefund, row.data, "BackfillLine.data (a refund)");
      return { row, refund, agreementApp };
    });
    // A refund line the file repeats is one refund of its order (a duplicate of itself is none).
    const byOrder = Map.groupBy([...new Map(refunds.map((r) => [r.refund.id, r])).values()], ({ row }) => row.orderGid!);
    let verified = 0;
    let withoutTransactions = 0;
    const seen = new Set<string>();
    for (const { row, refund, agreementApp } of refunds) {
      if (!inWindow(backfill, row.createdAt!) || seen.has(refund.id)) continue;
      seen.add(refund.id);
      verified++;
      const lines = byAgreement.get(row.agreementGid) ?? [];
      // Part of what Shopify wrote about this refund could not be read: no verdict on half the evidence.
      if (lines.some((line) => line.kind === "unreadable") || (unattributed && lines.length === 0)) continue;
      // A line the file repeats is one transaction, not two.
      const staged = lines.map((line) => parseStored(historyTransaction, line.data, "BackfillLine.data (a transaction)"));
      const transactions = [...new Map(staged.map((t) => [t.id, t])).values()];
      // Money Shopify says moved with no transaction that moved it: nothing to verify it by.
      if (!transactions.length && !isZero(refund.totalRefundedSet.presentmentMoney)) {
        withoutTransactions++;
        continue;
      }
      await decide(deps, backfill, { row, refund, transactions, orderRefunds: byOrder.get(row.orderGid!)!.map((r) => r.refund), agreementApp });
      // Other requests of this process get their turn between refunds (SQLite blocks while a statement runs).
      await takeTurn();
    }
    await held.save({
      verifyCursor: page[page.length - 1].orderGid,
      refundsVerified: backfill.refundsVerified + verified,
      withoutTransactions: backfill.withoutTransactions + withoutTransactions,
    });
  }
  if (!held.backfill.summary) await held.save({ summary: JSON.stringify(await summarize(db, held.backfill)) });
  await dropStagedLines(db, held.backfill);
  deps.logger.child({ shop: held.backfill.shop, backfill: held.backfill.id }).info({ refunds: held.backfill.refundsFound }, "history backfill done");
  return handBack({ state: "done", activeShop: null, finishedAt: deps.now(), message: null }, null);
}

async function advance(deps: BackfillDeps, held: Held): Promise<Step> {
  const shopState = await deps.db.shopState.findUnique({ where: { shop: held.backfill.shop }, select: { uninstalledAt: true } });
  if (shopState?.uninstalledAt) return giveUp(deps, "Stopped: the app was uninstalled.");
  if (held.backfill.state === "queued") return startReading(deps, held);
  if (held.backfill.state === "reading") return read(deps, held);
  return verify(deps, held);
}

/**
 * The history backfill, as work for the runner: every due backfill moves on as far as it can
 * (reading a whole result, verifying every page). One at a time: each claim's lease starts when
 * it is taken, not when a long history before it began; and each backfill moves on once a pass.
 */
export function backfillWork(deps: BackfillDeps): InOrderWork<"backfills"> {
  return {
    name: "backfill",
    queue: "backfills",
    perShop: false,
    batch: 1,
    batches: 10,
    oncePerPass: true,
    leaseMs: deps.leaseMs,
    handle: async ([backfill], helpers) => outcome([backfill], await advance(deps, new Held(deps, helpers, backfill))),
    // The person watching sees a sentence and a retry; the log has the error.
    onError: ([backfill]) => outcome([backfill], retryOrGiveUp(deps, backfill, "An error interrupted the backfill; it goes on in a minute", 60_000)),
  };
}

/** One backfill pass (the worker's loop, the CLI following one shop's); how many backfills moved on. */
export async function runBackfillPass(deps: BackfillDeps): Promise<number> {
  const pass = await runRowWork(backfillWork({ ...deps, pollMs: deps.pollMs ?? config().BACKFILL_POLL_MS }), deps, { shop: deps.shop });
  return pass.claimed - pass.failures - pass.lost;
}

/** bulk_operations/finish: the backfill reading that operation is due now (unless a worker holds it already). */
export async function bulkOperationFinished(db: PrismaClient, shop: string, bulkOperationGid: string, now: Date): Promise<number> {
  const { count } = await db.backfill.updateMany({
    where: { shop, bulkOperationGid, state: "reading", ...unclaimedAt(now) },
    data: { nextDueAt: now },
  });
  return count;
}
