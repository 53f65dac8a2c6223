import type { PrismaClient } from "@prisma/client";
import { formatMoney, fromMinorUnits, toMinorUnits } from "../lib/money/currency";
import {
  AT_RISK_TWICE_LINK,
  figureLink,
  MONEY_LATE_LINK,
  moneyLate,
  moneyLateWhere,
  period,
  VERDICTS,
  type DashboardFilters,
  type MoneyLate,
} from "../verdicts/filters";
import type { PayoutSchedule } from "../shops/payout-schedule";
import { rowFilter } from "../verdicts/rows.server";
import { knownPaymentsAccess } from "../shops/payments.server";
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
  /**
   * The shop's refunds (every date) whose money has not arrived in the time the shop's payout
   * schedule allows (or 7 days, the schedule not known; or waiting for a manual payout), in words,
   * and the table that lists them; `shown` when the shop's refunds can be followed to the payout (or some are late).
   */
  moneyLate: { count: number; by: MoneyLate["by"]; words: string; link: string; shown: boolean };
  /** Refunds (every date) whose money is at risk of being paid twice now, the money per currency, and the table that lists them. */
  atRiskTwice: { count: number; amounts: string[]; link: string };
}

/** Counts per verdict and money per currency for the period (from the rollup), the review queue's length, and the refunds whose money is late. */
export async function figures(
  db: PrismaClient,
  shop: string,
  filters: DashboardFilters,
  now = new Date(),
  payouts: PayoutSchedule | null = null,
): Promise<Figures> {
  const { from, to } = period(filters);
  // The same rule as the table the figure opens (`money=late`, parsed with the same schedule).
  const late = moneyLate(now, null, { schedule: payouts, timeZone: filters.timeZone });
  const [totals, waitingForReview, lateCount, access, atRisk] = await Promise.all([
    periodTotals(db, shop, from, to),
    db.operation.count({ where: { shop, reviewState: "open" } }),
    db.operation.count({ where: { shop, ...moneyLateWhere(shop, late) } }),
    knownPaymentsAccess(db, shop),
    db.exposure.findMany({ where: { shop, status: "CONTRADICTED" }, select: { atRisk: true, currency: true } }),
  ]);
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
    // Shown once the shop granted the payments scopes, before Shopify has said whether it has an account
    // (a figure that appeared on a live refresh would move the rows under the person), until it says none.
    moneyLate: {
      count: lateCount,
      by: late.by,
      words: late.words,
      link: MONEY_LATE_LINK,
      shown: (access !== "not_granted" && access !== "none") || lateCount > 0,
    },
    atRiskTwice: { count: atRisk.length, amounts: sumsByCurrency(atRisk), link: AT_RISK_TWICE_LINK },
  };
}

/**
 * How many rows the filters select. Verdicts and dates alone are answered from the rollup (a
 * count of a million rows takes longer than the page itself); any other filter is counted on the rows.
 */
export async function countRows(db: PrismaClient, shop: string, filters: DashboardFilters): Promise<number> {
  const rollupAnswers =
    !filters.classes.length &&
    !filters.gatewayFailures &&
    !filters.origins.length &&
    !filters.made.length &&
    !filters.review &&
    !filters.query &&
    !filters.moneyLate &&
    !filters.atRiskTwice;
  if (!rollupAnswers) return db.operation.count({ where: rowFilter(shop, filters) });
  const { from, to } = period(filters);
  const totals = await periodTotals(db, shop, from, to);
  return totals.filter((row) => !filters.verdicts.length || filters.verdicts.includes(row.status as never)).reduce((sum, row) => sum + row.refunds, 0);
}

/** "$140.00", "€20.00": the money at risk per currency, never summed across currencies. */
function sumsByCurrency(rows: { atRisk: string | null; currency: string | null }[]): string[] {
  const byCurrency = new Map<string, bigint>();
  for (const { atRisk, currency } of rows) {
    const minor = atRisk && currency ? toMinorUnits(atRisk, currency) : undefined;
    if (minor !== undefined) byCurrency.set(currency!, (byCurrency.get(currency!) ?? 0n) + minor);
  }
  return [...byCurrency].sort(([a], [b]) => a.localeCompare(b)).map(([currency, minor]) => formatMoney(minor, currency));
}
