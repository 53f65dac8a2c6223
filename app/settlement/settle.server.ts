import { nextCheckAt } from "../contracts/timing";
import { contractOfRow, evaluateRow, timeoutOf, verdictColumns, type FollowUp, type FollowUpOptions } from "../follow-ups/follow-up";
import { sumDecimals } from "../lib/money/decimal";
import { numberOfGid } from "../shopify/ids";
import { readPaymentsLedger, readSettlementTransactions, type Failed } from "./reads.server";
import { isAccessDenied } from "../shops/payments-reads.server";
import type { Claimed } from "../work/claims.server";
import { outcome, type Outcomes, type RowHelpers } from "../work/runner.server";
import { recordPaymentsAccess, paymentsAccess } from "../shops/payments.server";
import {
  acquirerReferences,
  isShopifyPaymentsRefund,
  moneyState,
  paymentsLedger,
  referencesShown,
  type BalanceEntry,
  type SettlementTransaction,
} from "./ledger";

/** The settlement follow-up (./follow-up.server.ts SETTLEMENT) and Shopify: what judging a shop's rows needs. */
interface Settling {
  followUp: FollowUp<"settlements">;
  gateway: FollowUpOptions["gateway"];
}

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
type Settled = Outcomes<"settlements">;

/**
 * A shop's settlements due, judged (the follow-up's judging): the refunds' transactions and the
 * shop's ledger are read once for them all, and each settlement is judged; a shop at a time
 * (money moves in hours, and one shop's surprise is kept to its rows).
 */
export function judgeSettlements(
  followUp: FollowUp<"settlements">,
  rows: Row[],
  helpers: RowHelpers<"settlements">,
  options: FollowUpOptions,
): Promise<Settled> {
  return settleShop({ followUp, gateway: options.gateway }, helpers, rows);
}

async function settleShop(options: Settling, helpers: RowHelpers<"settlements">, rows: Row[]): Promise<Settled> {
  const { db } = helpers;
  const { gateway } = options;
  const shop = helpers.shop!;
  const now = helpers.now();
  const access = await paymentsAccess(db, gateway, shop, now);
  // Nothing to read until the shop grants the scopes or opens an account; no attempt is spent.
  if (access !== "active") return waitOrEnd(options, now, rows, { wait: { ms: SHOP_UNAVAILABLE_MS } });
  const transactions = await readSettlementTransactions(gateway, shop, rows.flatMap(transactionGidsOf));
  // A VERIFIED refund still read for its card network reference needs its transactions only.
  const [open, final] = partition(rows, (row) => row.status === "PENDING");
  const outcomes: Settled = final.flatMap((row) => recordReference(options, now, row, transactions));
  const read = open.flatMap((row) => {
    const own = transactionsFor(row, transactions);
    return "transactions" in own ? own.transactions.filter(isShopifyPaymentsRefund) : [];
  });
  // Nothing of the open refunds was read (the bucket is short, or Shopify failed): the ledger would be read for nothing.
  if (!read.length) return [...outcomes, ...open.flatMap((row) => afterFailedRead(options, now, row, transactionsFor(row, transactions)))];
  const processed = read.flatMap((t) => (t.processedAt ? [Date.parse(t.processedAt)] : []));
  const since = new Date(Math.min(...processed, ...open.map((r) => r.startedAt.getTime())) - LEDGER_SLACK_MS);
  const ledger = await readPaymentsLedger(gateway, shop, since, new Set(read.map((t) => numberOfGid(t.id))));
  if (!ledger.ok || !ledger.account) {
    if (!ledger.ok && !isAccessDenied(ledger)) {
      helpers.logger.warn({ code: ledger.code, error: ledger.message }, "the ledger read failed; it is read again later");
      return [...outcomes, ...waitOrEnd(options, now, open, ledger.kind === "deferred" ? { wait: { ms: ledger.retryAfterMs } } : { failure: ledger })];
    }
    // The scopes were withdrawn, or the account closed, since the shop was last asked.
    await recordPaymentsAccess(db, shop, ledger.ok ? "none" : "not_granted", now);
    return [...outcomes, ...waitOrEnd(options, now, open, { wait: { ms: SHOP_UNAVAILABLE_MS } })];
  }
  const inLedger = new Set(ledger.entries.map((e) => String(e.sourceOrderTransactionId)));
  for (const row of open) {
    const own = transactionsFor(row, transactions);
    if (!("transactions" in own)) {
      outcomes.push(...afterFailedRead(options, now, row, own));
    } else if (!ledgerCovers(ledger, own.transactions, inLedger)) {
      // Beyond the pages read: not known to be missing, not even at the timeout. Read again at
      // once, from its own date (the refunds before it are judged now), spending no attempt. One
      // read from its own date that still could not reach it (thousands of refunds in its second)
      // ends it at the timeout as not followed, never as missing.
      const fromOwnDate = own.transactions.some((t) => t.processedAt !== null && Date.parse(t.processedAt) - LEDGER_SLACK_MS <= since.getTime());
      outcomes.push(...(fromOwnDate ? waitOrEnd(options, now, [row], { wait: { ms: 0 } }) : outcome<"settlements">([row], { kind: "due", at: now })));
    } else {
      outcomes.push(...judgeSettlement(options, now, row, own.transactions, ledger.entries));
    }
  }
  return outcomes;
}

/**
 * Rows that could not be read now: they wait (for the bucket, for the shop) or are retried after
 * a failed read; past their timeout, an open one that cannot be read ends NOT_FOLLOWED, which
 * alerts nobody (the app, not the money, is what failed), and a final one stops being read.
 */
function waitOrEnd(options: Settling, now: Date, rows: Row[], why: { wait: { ms: number } } | { failure: Failed }): Settled {
  return rows.flatMap((row): Settled => {
    if (now.getTime() >= timeoutOf(options.followUp, row)) {
      const notFollowed = { status: "NOT_FOLLOWED", reason: "not_readable_before_timeout", decidedAt: now };
      return outcome([row], { kind: "done", data: row.status === "PENDING" ? notFollowed : {} });
    }
    if ("wait" in why) return outcome([row], { kind: "due", at: new Date(now.getTime() + why.wait.ms) });
    const failures = row.readFailures + 1;
    return outcome([row], { kind: "retry", failures, askedMs: why.failure.retryAfterMs, data: { readFailures: failures } });
  });
}

/** A row whose transactions were not read: the bucket's wait is no failed read. */
function afterFailedRead(options: Settling, now: Date, row: Row, own: ReturnType<typeof transactionsFor>): Settled {
  const failure = "failed" in own ? own.failed : null;
  if (!failure) return outcome([row], { kind: "due", at: now });
  return waitOrEnd(options, now, [row], failure.kind === "deferred" ? { wait: { ms: failure.retryAfterMs } } : { failure });
}

/** A VERIFIED refund read on for its card network reference: the reference, when it came; its verdict and money stay. */
function recordReference(options: Settling, now: Date, row: Row, reads: TransactionReads): Settled {
  const own = transactionsFor(row, reads);
  if (!("transactions" in own)) return afterFailedRead(options, now, row, own);
  const references = acquirerReferences(own.transactions);
  const attempts = row.attempts + 1;
  const data = { attempts, readFailures: 0, ...(references.length ? { arn: references.join(",") } : {}) };
  const dueAt = references.length ? null : nextPoll(options, row, attempts);
  return outcome([row], dueAt ? { kind: "due", at: dueAt, data } : { kind: "done", data });
}

/** The contract's next poll after `attempts` reads, or null once polls are spent or the timeout is reached. */
function nextPoll(options: Settling, row: Row, attempts: number): Date | null {
  const next = nextCheckAt(contractOfRow(options.followUp, row).contract.timing, row.startedAt.getTime(), attempts);
  return next.kind === "poll" && next.atMs < timeoutOf(options.followUp, row) ? new Date(next.atMs) : null;
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
    .every((t) => inLedger.has(numberOfGid(t.id)) || (t.processedAt !== null && Date.parse(t.processedAt) + LEDGER_SLACK_MS <= until));
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
function judgeSettlement(options: Settling, now: Date, row: Row, transactions: SettlementTransaction[], entries: BalanceEntry[]): Settled {
  const loaded = contractOfRow(options.followUp, row);
  const ledger = paymentsLedger(transactions, entries);
  const observed = { refund_transactions: { data: { transactions } }, payments_ledger: ledger };
  const evaluation = evaluateRow(loaded, row, observed, now);
  const attempts = row.attempts + 1;
  const verdict = evaluation.verdict;
  const references = acquirerReferences(transactions);
  const awaitingReference = verdict === "VERIFIED" && !references.length && referencesShown(transactions);
  // PENDING: the next poll, or the timeout once polls are spent (the timeout decides it).
  const dueAt =
    verdict === "PENDING"
      ? new Date(nextCheckAt(loaded.contract.timing, row.startedAt.getTime(), attempts).atMs)
      : awaitingReference
        ? nextPoll(options, row, attempts)
        : null;
  const paid = ledger.entries.find((e) => e.payout_id);
  const processedAt = transactions.find((t) => t.processedAt)?.processedAt;
  const currencies = new Set(ledger.entries.map((e) => e.currency));
  const data = {
    ...verdictColumns(evaluation),
    decidedAt: evaluation.verdict === "PENDING" ? null : now,
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
  };
  const note = verdict === "PENDING" ? undefined : { refund: row.refundGid, verdict };
  return outcome([row], dueAt ? { kind: "due", at: dueAt, data, note } : { kind: "done", data, note });
}

/** The sum of Shopify's decimal strings, or undefined (left as it was) for one that is not a decimal. */
function totalOf(amounts: string[]): string | undefined {
  try {
    return sumDecimals(amounts);
  } catch {
    return undefined;
  }
}
