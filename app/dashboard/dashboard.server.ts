import type { PrismaClient } from "@prisma/client";
import { formatMoney, fromMinorUnits } from "../money/currency";
import { figureLink, period, VERDICTS, type DashboardFilters } from "../verdicts/filters";
import { rowFilter } from "../verdicts/rows.server";
import { periodTotals } from "./rollups.server";

export interface Figures {
  from: string;
  to: string;
  counts: Record<string, number>;
  /** Each count's table: the same dates, that verdict (its count is the table's). */
  links: Record<string, string>;
  waitingForReview: number;
  /** Refunds of the period whose evidence an API version outside their contract served. */
  outsideContractVersions: number;
  money: { status: string; currency: string; amount: string; display: string }[];
}

/** Counts per verdict and money per currency for the period (from the rollup), and the review queue's length. */
export async function figures(db: PrismaClient, shop: string, filters: DashboardFilters): Promise<Figures> {
  const { from, to } = period(filters);
  const [totals, waitingForReview] = await Promise.all([periodTotals(db, shop, from, to), db.operation.count({ where: { shop, reviewState: "open" } })]);
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0]));
  for (const row of totals) counts[row.status] = (counts[row.status] ?? 0) + row.refunds;
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    counts,
    links: Object.fromEntries(VERDICTS.map((v) => [v, figureLink(filters, v)])),
    waitingForReview,
    outsideContractVersions: totals.reduce((sum, row) => sum + row.outsideVersions, 0),
    money: totals
      .filter((row) => row.currency && row.withAmount > 0)
      .map((row) => ({
        status: row.status,
        currency: row.currency,
        amount: fromMinorUnits(row.amountMinor, row.currency),
        display: formatMoney(row.amountMinor, row.currency),
      }))
      .sort((a, b) => a.currency.localeCompare(b.currency) || VERDICTS.indexOf(a.status as never) - VERDICTS.indexOf(b.status as never)),
  };
}

/**
 * How many rows the filters select. Verdicts and dates alone are answered from the rollup (a
 * count of a million rows takes longer than the page itself); any other filter is counted on the rows.
 */
export async function countRows(db: PrismaClient, shop: string, filters: DashboardFilters): Promise<number> {
  const rollupAnswers = !filters.classes.length && !filters.gatewayFailures && !filters.origins.length && !filters.review && !filters.query;
  if (!rollupAnswers) return db.operation.count({ where: rowFilter(shop, filters) });
  const { from, to } = period(filters);
  const totals = await periodTotals(db, shop, from, to);
  return totals.filter((row) => !filters.verdicts.length || filters.verdicts.includes(row.status as never)).reduce((sum, row) => sum + row.refunds, 0);
}
