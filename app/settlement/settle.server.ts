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
    const shopResult = await whileRenewing(deps.db, "settlements", rows, { now: deps.now, leaseMs: deps.leaseMs }, () => settleShop(deps, shop, rows));
    result.read += shopResult.read;
    result.decided += shopResult.decided;
  }
  return result;
}

async function settleShop(deps: SettleDeps, shop: string, rows: Row[]): Promise<{ read: number; decided: number }> {
  const { db, gateway } = deps;
  const log = deps.logger.child({ shop });
  const later = (ms: number) => new Date(deps.now().getTime() + ms);
  const access = await paymentsAccess(db, gateway, shop, deps.now());
  if (access !== "active") {
    // Nothing to read until the shop grants the scope or opens an account; no attempt is spent.
    await release(db, "settlements", rows, {}, later(SHOP_UNAVAILABLE_MS));
    return { read: 0, decided: 0 };
  }
  const transactions = await readSettlementTransactions(gateway, shop, rows.flatMap(transactionGidsOf));
  const read = [...transactions.values()].flatMap((t) => ("transaction" in t ? [t.transaction] : []));
  const deferred = [...transactions.values()].find((t) => !("transaction" in t) && t.kind === "deferred");
  if (!read.length) {
    // Nothing read (the shop's bucket is short, or Shopify failed): the ledger would be read for
    // nothing. Waiting for the bucket is no failed read.
    if (deferred && !("transaction" in deferred)) {
      await release(db, "settlements", rows, {}, later(deferred.retryAfterMs));
      return { read: 0, decided: 0 };
    }
    const failure = [...transactions.values()].find((t): t is Failed => !("transaction" in t));
    if (failure) return failAll(deps, rows, failure, log);
  }
  const processed = read.filter(isShopifyPaymentsRefund).flatMap((t) => (t.processedAt ? [Date.parse(t.processedAt)] : []));
  const since = new Date(Math.min(...processed, ...rows.map((r) => r.startedAt.getTime())) - LEDGER_SLACK_MS);
  const wanted = new Set(read.filter(isShopifyPaymentsRefund).map((t) => legacyId(t.id)));
  const ledger = await readPaymentsLedger(gateway, shop, since, wanted);
  if (!ledger.ok || !ledger.account) {
    if (!ledger.ok && !isAccessDenied(ledger)) return failAll(deps, rows, ledger, log);
    // The scope was withdrawn, or the account closed, since the shop was last asked.
    await recordPaymentsAccess(db, shop, ledger.ok ? "none" : "not_granted", deps.now());
    await release(db, "settlements", rows, {}, later(SHOP_UNAVAILABLE_MS));
    return { read: 0, decided: 0 };
  }
  let decided = 0;
  const inLedger = new Set(ledger.entries.map((e) => String(e.sourceOrderTransactionId)));
  for (const row of rows) {
    const own = transactionsFor(row, transactions);
    if ("failed" in own && own.failed.kind === "deferred") {
      await release(db, "settlements", [row], {}, later(own.failed.retryAfterMs));
      continue;
    }
    if ("failed" in own) {
      await retryLater(
        db,
        "settlements",
        [row],
        { now: deps.now(), failures: row.readFailures + 1, askedMs: own.failed.retryAfterMs },
        { readFailures: { increment: 1 } },
      );
      continue;
    }
    const timedOut = deps.now().getTime() >= row.startedAt.getTime() + deps.contract.contract.timing.timeout_ms;
    if (!timedOut && !ledgerCovers(ledger, own.transactions, inLedger)) {
      // Beyond the pages read: not known to be missing. Read again at once, from a later date
      // (the refunds before it are judged now), spending no attempt.
      await release(db, "settlements", [row], {}, deps.now());
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

async function failAll(deps: SettleDeps, rows: Row[], failure: Failed, log: Logger) {
  log.warn({ code: failure.code, error: failure.message }, "settlement read failed; it is read again later");
  for (const row of rows)
    await retryLater(
      deps.db,
      "settlements",
      [row],
      { now: deps.now(), failures: row.readFailures + 1, askedMs: failure.retryAfterMs },
      {
        readFailures: { increment: 1 },
      },
    );
  return { read: 0, decided: 0 };
}

/**
 * Judges one settlement by its contract, and writes what the read showed. A final verdict stays
 * final: a VERIFIED refund on a Shopify Plus store is read on, on the contract's schedule until its
 * timeout, only for the card network's reference that comes after the payout.
 */
async function judge(deps: SettleDeps, row: Row, transactions: SettlementTransaction[], entries: BalanceEntry[]) {
  const now = deps.now();
  const loaded = contractByVersion(row.contractId, row.contractVersion) ?? deps.contract;
  const ledger = paymentsLedger(transactions, entries);
  const observed = { refund_transactions: { data: { transactions } }, payments_ledger: ledger };
  const evaluation: Evaluation = evaluate(loaded, {
    input: { refund_id: row.refundGid },
    action: { result: null },
    operation: { created_at: row.startedAt.toISOString() },
    observed,
    now: now.toISOString(),
  });
  const final = row.status !== "PENDING";
  const attempts = row.attempts + 1;
  const verdict = final ? row.status : evaluation.verdict;
  const references = acquirerReferences(transactions);
  const timing = loaded.contract.timing;
  const awaitingReference = verdict === "VERIFIED" && !references.length && referencesShown(transactions);
  const next = nextCheckAt(timing, row.startedAt.getTime(), attempts);
  const dueAt =
    verdict === "PENDING" || (awaitingReference && next.kind === "poll" && next.atMs < row.startedAt.getTime() + timing.timeout_ms)
      ? new Date(next.atMs)
      : null;
  const paid = ledger.entries.find((e) => e.payout_id);
  const processedAt = transactions.find((t) => t.processedAt)?.processedAt;
  const currencies = new Set(ledger.entries.map((e) => e.currency));
  const decision = final
    ? {}
    : {
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
