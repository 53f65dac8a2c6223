import { turnTaker } from "../lib/db/take-turns";
import type { Backfill, PrismaClient } from "@prisma/client";
import { parseStored, storedStrings } from "../lib/db/stored-json";

/** What the history holds, once verified: the dashboard's sentence and the CLI's last line. */
export interface BackfillSummary {
  days: number;
  /** Refunds created inside the window. */
  refunds: number;
  verified: number;
  contradicted: number;
  duplicates: number;
  wrongAmount: number;
  failed: number;
  unverifiable: number;
  pending: number;
  /** Of `refunds`: verified by a live channel (webhook, sweep, the app) rather than by this backfill. */
  alreadyWatched: number;
  /** Refunds on orders updated in the window but created before it (not verified). */
  outsideWindow: number;
  /** Lines of Shopify's result that could not be read. */
  badLines: number;
  /** Of `refunds`: not verified, because part of what Shopify wrote about them could not be read. */
  unreadable: number;
  /** Of `refunds`: not verified, because Shopify's whole record of them holds no transaction for the money it says was refunded. */
  withoutTransactions: number;
  readAt: string | null;
}

const CHUNK = 500;

/** The backfill's refunds: created from `since` until `until` (younger ones are the live channels'). */
export function inWindow(backfill: Pick<Backfill, "since" | "until">, createdAt: Date): boolean {
  return createdAt.getTime() >= backfill.since.getTime() && createdAt.getTime() < backfill.until.getTime();
}

/** Counts the verdicts of the window's refunds, from their operations (whichever channel opened them). */
export async function summarize(db: PrismaClient, backfill: Backfill): Promise<BackfillSummary> {
  const summary: BackfillSummary = {
    days: backfill.days,
    refunds: 0,
    verified: 0,
    contradicted: 0,
    duplicates: 0,
    wrongAmount: 0,
    failed: 0,
    unverifiable: 0,
    pending: 0,
    alreadyWatched: 0,
    outsideWindow: 0,
    badLines: backfill.badLines,
    unreadable: 0,
    withoutTransactions: backfill.withoutTransactions,
    readAt: backfill.readAt?.toISOString() ?? null,
  };
  const seen = new Set<string>();
  const takeTurn = turnTaker();
  for (let afterLine = -1; ; await takeTurn()) {
    const rows = await db.backfillLine.findMany({
      where: { backfillId: backfill.id, kind: "refund", line: { gt: afterLine } },
      orderBy: { line: "asc" },
      take: CHUNK,
      select: { line: true, refundGid: true, createdAt: true },
    });
    if (!rows.length) break;
    afterLine = rows[rows.length - 1].line;
    const refundsInWindow: string[] = [];
    for (const row of rows) {
      if (seen.has(row.refundGid!)) continue;
      seen.add(row.refundGid!);
      if (inWindow(backfill, row.createdAt!)) refundsInWindow.push(row.refundGid!);
      else summary.outsideWindow++;
    }
    const operations = await db.operation.findMany({
      where: { shop: backfill.shop, refundGid: { in: refundsInWindow } },
      select: { status: true, classes: true, origin: true },
    });
    summary.refunds += refundsInWindow.length;
    summary.unreadable += refundsInWindow.length - operations.length;
    for (const op of operations) {
      const classes = parseStored(storedStrings, op.classes, "Operation.classes");
      if (op.origin !== "backfill") summary.alreadyWatched++;
      if (op.status === "VERIFIED") summary.verified++;
      else if (op.status === "CONTRADICTED") summary.contradicted++;
      else if (op.status === "FAILED") summary.failed++;
      else if (op.status === "UNVERIFIABLE") summary.unverifiable++;
      else summary.pending++;
      if (classes.includes("duplicate side effect")) summary.duplicates++;
      if (classes.includes("wrong amount")) summary.wrongAmount++;
    }
  }
  // Those were skipped on purpose, not for lines that could not be read.
  summary.unreadable = Math.max(summary.unreadable - summary.withoutTransactions, 0);
  return summary;
}

/** "412 refunds in 60 days: 405 verified, 4 duplicates, 3 gateway failures". */
export function summarySentence(summary: BackfillSummary): string {
  const parts = [`${summary.verified} verified`];
  if (summary.duplicates) parts.push(`${summary.duplicates} ${summary.duplicates === 1 ? "duplicate" : "duplicates"}`);
  if (summary.wrongAmount) parts.push(`${summary.wrongAmount} with a wrong amount`);
  const otherContradictions = summary.contradicted - summary.duplicates - summary.wrongAmount;
  if (otherContradictions > 0) parts.push(`${otherContradictions} otherwise contradicted`);
  if (summary.failed) parts.push(`${summary.failed} ${summary.failed === 1 ? "gateway failure" : "gateway failures"}`);
  if (summary.unverifiable) parts.push(`${summary.unverifiable} unverifiable`);
  if (summary.pending) parts.push(`${summary.pending} still being verified`);
  if (summary.withoutTransactions)
    parts.push(`${summary.withoutTransactions} not verified (Shopify's record shows money refunded but no transaction that moved it)`);
  if (summary.unreadable) parts.push(`${summary.unreadable} not verified (Shopify's answer about them could not be read)`);
  return `${summary.refunds} ${summary.refunds === 1 ? "refund" : "refunds"} in ${summary.days} days: ${parts.join(", ")}`;
}
