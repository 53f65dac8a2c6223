import { z } from "zod";
import { DEFAULT_BACKFILL_DAYS, MAX_BACKFILL_DAYS, requestBackfill } from "../backfill/request.server";
import { backfillCard, loadBackfillCard } from "../backfill/card.server";
import { REFUND_CREATED } from "../contracts/registry.server";
import { countRows, figures } from "../dashboard/dashboard.server";
import { config } from "../lib/config/env.server";
import { readForm } from "../lib/forms/read-form";
import { storedPayoutSchedule } from "../shops/payments.server";
import { DEFAULT_DASHBOARD_RANGE, parseFilters } from "../verdicts/filters";
import { listRefunds } from "../verdicts/rows.server";
import type { ScreenContext } from "./context.server";

/** How often the worker sweeps for lost webhooks, and how far back a shop's first sweep reads. */
function sweepSchedule() {
  return {
    intervalMs: config().VERIFIER_SWEEP_INTERVAL_MS,
    firstLookBackMs: config().VERIFIER_FIRST_SWEEP_LOOKBACK_MS,
  };
}

/** The dashboard's data for one shop: figures for the period, one page of rows, and the filters as understood, in the shop's time zone. */
export async function load({ db, shop, gateway, url, now: clock, timeZone: zone }: ScreenContext) {
  const now = clock();
  // One read of the shop's state: its payout schedule (for late money) and its sweep's times.
  const [timeZone, state] = await Promise.all([
    zone(),
    db.shopState.findUnique({ where: { shop }, select: { payoutSchedule: true, sweepCompletedAt: true, sweepStartedAt: true } }),
  ]);
  const payouts = storedPayoutSchedule(state?.payoutSchedule);
  const filters = parseFilters(url.searchParams, { now, timeZone, defaultRange: DEFAULT_DASHBOARD_RANGE, payouts });
  const [figureData, page, total, any, history] = await Promise.all([
    figures(db, shop, filters, now, payouts),
    listRefunds(db, REFUND_CREATED.contract, shop, filters, gateway),
    countRows(db, shop, filters),
    db.operation.findFirst({ where: { shop }, select: { id: true } }),
    loadBackfillCard(db, shop),
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

const backfillForm = z.object({
  intent: z.literal("backfill"),
  days: z.coerce
    .number({ invalid_type_error: "Choose how many days to read." })
    .int("Choose a whole number of days.")
    .min(1, "Read at least 1 day.")
    .max(MAX_BACKFILL_DAYS, `Shopify keeps at most ${MAX_BACKFILL_DAYS} days here.`)
    .default(DEFAULT_BACKFILL_DAYS),
});

/** "Verify history": starts a backfill of the shop's refunds, or shows the one running. */
export async function act(context: ScreenContext) {
  const form = readForm(await context.form(), backfillForm, "form");
  if (!form.ok) {
    const errors = form.fieldErrors;
    return { ok: false as const, status: 422, fieldErrors: { days: errors.days ?? errors.intent ?? "This form could not be read." } };
  }
  const request = await requestBackfill(context.db, context.shop, form.data.days, "dashboard", context.now());
  return { ok: true as const, status: 200, created: request.created, notice: request.notice ?? null, backfill: backfillCard(request.backfill) };
}
