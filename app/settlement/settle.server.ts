import type { PrismaClient } from "@prisma/client";
import type { Logger } from "pino";
import { evaluate, type Evaluation } from "../contracts/evaluate";
import type { LoadedContract } from "../contracts/load";
import { contractByVersion } from "../contracts/registry.server";
import { nextCheckAt } from "../contracts/timing";
import { sumDecimals } from "../money/decimal";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { isAccessDenied, readPaymentsLedger, readSettlementTransactions, type Failed } from "../shopify/admin/settlement-reads.server";
import { claim, readyShops, release, retryLater, whileRenewing, type Claimed } from "../worker/claims.server";
import { recordPaymentsAccess, paymentsAccess } from "./access.server";
import {
  acquirerReferences,
  isShopifyPaymentsRefund,
  legacyId,
  moneyState,
  paymentsLedger,
  referencesShown,
  type BalanceEntry,
  type SettlementTransaction,
} from "./ledger";

export interface SettleDeps {
  db: PrismaClient;
  gateway: ShopifyGateway;
  contract: LoadedContract;
  now: () => Date;
  workerId: string;
  leaseMs?: number;
  logger: Logger;
}

/** Settlements of one shop read at once: one ledger read serves them all. */
const PER_SHOP = 200;
const MAX_SHOPS_A_PASS = 50;
/** A shop that cannot be read now (no account, scope withdrawn) is looked at again this much later. */
const SHOP_UNAVAILABLE_MS = 6 * 3600_000;
/**
 * The ledger is read from a second before the earliest refund transaction (Shopify stamps whole
 * seconds; a balance transaction is not dated before the refund it records), and a refund counts
 * as covered by pages that reach a second past it.
 */
const LEDGER_SLACK_MS = 1_000;

type Row = Claimed<"settlements">;
type TransactionReads = Awaited<ReturnType<typeof readSettlementTransactions>>;

/** One pass: every shop with settlements due reads its refunds' transactions and its ledger once, and each settlement is judged. */
export async function settleDue(deps: SettleDeps): Promise<{ read: number; decided: number }> {
  const result = { read: 0, decided: 0 };
  for (const shop of await readyShops(deps.db, "settlements", deps.now(), MAX_SHOPS_A_PASS)) {
    const rows = await claim(deps.db, "settlements", { workerId: deps.workerId, now: deps.now(), limit: PER_SHOP, shop, leaseMs: deps.leaseMs });
    // Another worker took them between the look and the claim.
    if (!rows.length) continue;
    // One shop's surprise (an answer no schema foresaw) never stops the others: its rows are
    // taken over when their lease runs out.
    const shopResult = await whileRenewing(deps.db, "settlements", rows, { now: deps.now, leaseMs: deps.leaseMs }, () => settleShop(deps, shop, rows)).catch(
      (error: unknown) => {
        deps.logger.child({ shop }).error({ err: error }, "settling the shop failed; its settlements are read again when their lease runs out");
        return { read: 0, decided: 0 };
      },
    );
    result.read += shopResult.read;
    result.decided += shopResult.decided;
  }
  return result;
}

async function settleShop(deps: SettleDeps, shop: string, rows: Row[]): Promise<{ read: number; decided: number }> {
  const { db, gateway } = deps;
  const log = deps.logger.child({ shop });
  const access = await paymentsAccess(db, gateway, shop, deps.now());
  if (access !== "active") {
    // Nothing to read until the shop grants the scopes or opens an account; no attempt is spent.
    await waitOrEnd(deps, rows, { wait: { ms: SHOP_UNAVAILABLE_MS } });
    return { read: 0, decided: 0 };
  }
  const transactions = await readSettlementTransactions(gateway, shop, rows.flatMap(transactionGidsOf));
  // A VERIFIED refund still read for its card network reference needs its transactions only.
  const [open, final] = partition(rows, (row) => row.status === "PENDING");
  for (const row of final) await recordReference(deps, row, transactions);
  const read = open.flatMap((row) => {
    const own = transactionsFor(row, transactions);
    return "transactions" in own ? own.transactions.filter(isShopifyPaymentsRefund) : [];
  });
  if (!read.length) {
    // Nothing of the open refunds was read (the bucket is short, or Shopify failed): the ledger
    // would be read for nothing.
    for (const row of open) await afterFailedRead(deps, row, transactionsFor(row, transactions));
    return { read: 0, decided: 0 };
  }
  const processed = read.flatMap((t) => (t.processedAt ? [Date.parse(t.processedAt)] : []));
  const since = new Date(Math.min(...processed, ...open.map((r) => r.startedAt.getTime())) - LEDGER_SLACK_MS);
  const ledger = await readPaymentsLedger(gateway, shop, since, new Set(read.map((t) => legacyId(t.id))));
  if (!ledger.ok || !ledger.account) {
    if (!ledger.ok && !isAccessDenied(ledger)) {
      log.warn({ code: ledger.code, error: ledger.message }, "the ledger read failed; it is read again later");
      await waitOrEnd(deps, open, ledger.kind === "deferred" ? { wait: { ms: ledger.retryAfterMs } } : { failure: ledger });
      return { read: 0, decided: 0 };
    }
    // The scopes were withdrawn, or the account closed, since the shop was last asked.
    await recordPaymentsAccess(db, shop, ledger.ok ? "none" : "not_granted", deps.now());
    await waitOrEnd(deps, open, { wait: { ms: SHOP_UNAVAILABLE_MS } });
    return { read: 0, decided: 0 };
  }
  let decided = 0;
  const inLedger = new Set(ledger.entries.map((e) => String(e.sourceOrderTransactionId)));
  for (const row of open) {
    const own = transactionsFor(row, transactions);
    if (!("transactions" in own)) {
      await afterFailedRead(deps, row, own);
      continue;
    }
    if (!ledgerCovers(ledger, own.transactions, inLedger)) {
      // Beyond the pages read: not known to be missing, not even at the timeout. Read again at
      // once, from its own date (the refunds before it are judged now), spending no attempt. One
      // read from its own date that still could not reach it (thousands of refunds in its second)
      // ends it at the timeout as not followed, never as missing.
      const fromOwnDate = own.transactions.some((t) => t.processedAt !== null && Date.parse(t.processedAt) - LEDGER_SLACK_MS <= since.getTime());
      if (fromOwnDate) await waitOrEnd(deps, [row], { wait: { ms: 0 } });
      else await release(db, "settlements", [row], {}, deps.now());
      continue;
    }
    const verdict = await judge(deps, row, own.transactions, ledger.entries);
    if (verdict && verdict !== "PENDING") {
      decided++;
      log.info({ settlement: row.id, refund: row.refundGid, verdict }, "settlement verdict");
    }
  }
  return { read: rows.length, decided };
}

const timeoutOf = (deps: SettleDeps, row: Row) => row.startedAt.getTime() + contractOf(deps, row).contract.timing.timeout_ms;
const contractOf = (deps: SettleDeps, row: Row) => contractByVersion(row.contractId, row.contractVersion) ?? deps.contract;

/**
 * Rows that could not be read now: they wait (for the bucket, for the shop) or are retried after
 * a failed read; past their timeout, an open one that cannot be read ends NOT_FOLLOWED, which
 * alerts nobody (the app, not the money, is what failed), and a final one stops being read.
 */
async function waitOrEnd(deps: SettleDeps, rows: Row[], why: { wait: { ms: number } } | { failure: Failed }) {
  const now = deps.now();
  for (const row of rows) {
    if (now.getTime() >= timeoutOf(deps, row)) {
      await release(
        deps.db,
        "settlements",
        [row],
        row.status === "PENDING" ? { status: "NOT_FOLLOWED", reason: "not_readable_before_timeout", decidedAt: now } : {},
        null,
      );
    } else if ("wait" in why) {
      await release(deps.db, "settlements", [row], {}, new Date(now.getTime() + why.wait.ms));
    } else {
      const retry = { now, failures: row.readFailures + 1, askedMs: why.failure.retryAfterMs };
      await retryLater(deps.db, "settlements", [row], retry, { readFailures: { increment: 1 } });
    }
  }
}

/** A row whose transactions were not read: the bucket's wait is no failed read. */
function afterFailedRead(deps: SettleDeps, row: Row, own: ReturnType<typeof transactionsFor>) {
  const failure = "failed" in own ? own.failed : null;
  if (!failure) return release(deps.db, "settlements", [row], {}, deps.now());
  return waitOrEnd(deps, [row], failure.kind === "deferred" ? { wait: { ms: failure.retryAfterMs } } : { failure });
}

/** A VERIFIED refund read on for its card network reference: the reference, when it came; its verdict and money stay. */
async function recordReference(deps: SettleDeps, row: Row, reads: TransactionReads) {
  const own = transactionsFor(row, reads);
  if (!("transactions" in own)) return afterFailedRead(deps, row, own);
  const references = acquirerReferences(own.transactions);
  const attempts = row.attempts + 1;
  const dueAt = references.length ? null : nextPoll(deps, row, attempts);
  await release(deps.db, "settlements", [row], { attempts, readFailures: 0, ...(references.length ? { arn: references.join(",") } : {}) }, dueAt);
}

/** The contract's next poll after `attempts` reads, or null once polls are spent or the timeout is reached. */
function nextPoll(deps: SettleDeps, row: Row, attempts: number): Date | null {
  const next = nextCheckAt(contractOf(deps, row).contract.timing, row.startedAt.getTime(), attempts);
  return next.kind === "poll" && next.atMs < timeoutOf(deps, row) ? new Date(next.atMs) : null;
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}

/** Whether the ledger read tells about every Shopify Payments transaction of a refund: found, or processed before the pages read end. */
function ledgerCovers(ledger: { complete: boolean; coveredUntil: Date | null }, transactions: SettlementTransaction[], inLedger: Set<string>): boolean {
  if (ledger.complete) return true;
  const until = ledger.coveredUntil?.getTime() ?? -Infinity;
  return transactions
    .filter(isShopifyPaymentsRefund)
    .every((t) => inLedger.has(legacyId(t.id)) || (t.processedAt !== null && Date.parse(t.processedAt) + LEDGER_SLACK_MS <= until));
}

const transactionGidsOf = (row: Pick<Row, "transactionGids">) => row.transactionGids.split(",").filter(Boolean);

function transactionsFor(row: Row, reads: TransactionReads): { transactions: SettlementTransaction[] } | { failed: Failed } {
  const transactions: SettlementTransaction[] = [];
  for (const gid of transactionGidsOf(row)) {
    const read = reads.get(gid);
    if (!read) continue;
    if (!("transaction" in read)) return { failed: read };
    transactions.push(read.transaction);
  }
  return { transactions };
}

/**
 * Judges one open settlement by its contract, and writes what the read showed. A VERIFIED refund
 * on a Shopify Plus store without its card network reference yet is read on (`recordReference`).
 */
async function judge(deps: SettleDeps, row: Row, transactions: SettlementTransaction[], entries: BalanceEntry[]) {
  const now = deps.now();
  const loaded = contractOf(deps, row);
  const ledger = paymentsLedger(transactions, entries);
  const observed = { refund_transactions: { data: { transactions } }, payments_ledger: ledger };
  const evaluation: Evaluation = evaluate(loaded, {
    input: { refund_id: row.refundGid },
    action: { result: null },
    operation: { created_at: row.startedAt.toISOString() },
    observed,
    now: now.toISOString(),
  });
  const attempts = row.attempts + 1;
  const verdict = evaluation.verdict;
  const references = acquirerReferences(transactions);
  const awaitingReference = verdict === "VERIFIED" && !references.length && referencesShown(transactions);
  // PENDING: the next poll, or the timeout once polls are spent (the timeout decides it).
  const dueAt =
    verdict === "PENDING"
      ? new Date(nextCheckAt(loaded.contract.timing, row.startedAt.getTime(), attempts).atMs)
      : awaitingReference
        ? nextPoll(deps, row, attempts)
        : null;
  const paid = ledger.entries.find((e) => e.payout_id);
  const processedAt = transactions.find((t) => t.processedAt)?.processedAt;
  const currencies = new Set(ledger.entries.map((e) => e.currency));
  const decision = {
    status: evaluation.verdict,
    reason: evaluation.reason,
    reasons: JSON.stringify(evaluation.reasons),
    classes: JSON.stringify(evaluation.classes),
    escalate: evaluation.escalate,
    decidedAt: evaluation.verdict === "PENDING" ? null : now,
    result: JSON.stringify(evaluation),
  };
  const written = await release(
    deps.db,
    "settlements",
    [row],
    {
      ...decision,
      money: moneyState(ledger, transactions),
      attempts,
      readFailures: 0,
      arn: references.length ? references.join(",") : row.arn,
      payoutGid: paid?.payout_id ?? row.payoutGid,
      payoutStatus: paid?.payout_status ?? row.payoutStatus,
      processedAt: processedAt ? new Date(processedAt) : row.processedAt,
      // What went back through Shopify Payments, in the currency the customer paid in.
      ...(currencies.size === 1 ? { amount: totalOf(ledger.entries.map((e) => e.amount)), currency: [...currencies][0] } : {}),
      observed: JSON.stringify(observed),
      observedAt: now,
    },
    dueAt,
  );
  return written ? verdict : null;
}

/** The sum of Shopify's decimal strings, or undefined (left as it was) for one that is not a decimal. */
function totalOf(amounts: string[]): string | undefined {
  try {
    return sumDecimals(amounts);
  } catch {
    return undefined;
  }
}
