import db from "../db.server";
import { REFUND_CREATED } from "../contracts/registry.server";
import { countRows, figures } from "./dashboard.server";
import { listRefunds } from "../verdicts/rows.server";
import { DEFAULT_DASHBOARD_RANGE, parseFilters } from "../verdicts/filters";
import { shopTimeZone } from "../shops/profile.server";
import { storedPayoutSchedule } from "../shops/payments.server";
import { interactiveGateway } from "../shopify.server";
import { loadBackfillCard } from "../backfill/page.server";
import { config } from "../lib/config/env.server";

/** How often the worker sweeps for lost webhooks, and how far back a shop's first sweep reads. */
export function sweepSchedule() {
  return {
    intervalMs: config().VERIFIER_SWEEP_INTERVAL_MS,
    firstLookBackMs: config().VERIFIER_FIRST_SWEEP_LOOKBACK_MS,
  };
}

/** The dashboard's data for one shop: figures for the period, one page of rows, and the filters as understood, in the shop's time zone. */
export async function loadDashboard(shop: string, params: URLSearchParams, now: Date) {
  // One read of the shop's state: its payout schedule (for late money) and its sweep's times.
  const [timeZone, state] = await Promise.all([
    shopTimeZone(db, shop, { gateway: interactiveGateway(), now }),
    db.shopState.findUnique({ where: { shop }, select: { payoutSchedule: true, sweepCompletedAt: true, sweepStartedAt: true } }),
  ]);
  const payouts = storedPayoutSchedule(state?.payoutSchedule);
  const filters = parseFilters(params, { now, timeZone, defaultRange: DEFAULT_DASHBOARD_RANGE, payouts });
  const [figureData, page, total, any, history] = await Promise.all([
    figures(db, shop, filters, now, payouts),
    listRefunds(db, REFUND_CREATED.contract, shop, filters, interactiveGateway()),
    countRows(db, shop, filters),
    db.operation.findFirst({ where: { shop }, select: { id: true } }),
    loadBackfillCard(shop),
  ]);
  const sweep = {
    lastCompletedAt: state?.sweepCompletedAt?.toISOString() ?? null,
    runningSince: state?.sweepStartedAt?.toISOString() ?? null,
    ...sweepSchedule(),
  };
  // A shop with no refund at all yet sees what the app does and will do, not an empty table.
  const firstRun = !any;
  return {
    figures: figureData,
    ...page,
    total,
    filters,
    sweep,
    firstRun,
    backfill: history.backfill,
    historyMaxDays: history.maxDays,
    timeZone,
    now: now.toISOString(),
  };
}
