import db from "../db.server";
import { contractOf, REFUND_CREATED } from "../contracts/registry.server";
import { countRows, figures } from "./dashboard.server";
import { listRefunds, reasonFacts, toRow } from "../verdicts/rows.server";
import { DUPLICATE_REASONS, reasonInWords } from "../verdicts/words";
import type { OrderRefundsResponse } from "../verdicts/order-block";
import { DEFAULT_DASHBOARD_RANGE, parseFilters } from "../verdicts/filters";
import { exportCsv } from "../exports/refunds-csv.server";
import { shopTimeZone } from "../shops/profile.server";
import { interactiveGateway } from "../shopify/admin/interactive.server";
import { loadBackfillCard } from "../backfill/page.server";
import { config } from "../config/env.server";

/** How often the worker sweeps for lost webhooks, and how far back a shop's first sweep reads. */
export function sweepSchedule() {
  return {
    intervalMs: config().VERIFIER_SWEEP_INTERVAL_MS,
    firstLookBackMs: config().VERIFIER_FIRST_SWEEP_LOOKBACK_MS,
  };
}

/** The dashboard's data for one shop: figures for the period, one page of rows, and the filters as understood, in the shop's time zone. */
export async function loadDashboard(shop: string, params: URLSearchParams, now: Date) {
  const timeZone = await shopTimeZone(db, shop, { gateway: interactiveGateway(), now });
  const filters = parseFilters(params, { now, timeZone, defaultRange: DEFAULT_DASHBOARD_RANGE });
  const [figureData, page, total, state, any, history] = await Promise.all([
    figures(db, shop, filters, now),
    listRefunds(db, REFUND_CREATED.contract, shop, filters, interactiveGateway()),
    countRows(db, shop, filters),
    db.shopState.findUnique({ where: { shop }, select: { sweepCompletedAt: true, sweepStartedAt: true } }),
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

export async function csvExportResponse(shop: string, params: URLSearchParams, now: Date): Promise<Response> {
  const timeZone = await shopTimeZone(db, shop, { gateway: interactiveGateway(), now });
  // `format=raw`: the engine's names, for scripts; anything else is the people's file.
  const format = params.get("format") === "raw" ? "raw" : "people";
  return new Response(
    exportCsv(
      db,
      interactiveGateway(),
      REFUND_CREATED.contract,
      shop,
      parseFilters(params, { now, timeZone, defaultRange: DEFAULT_DASHBOARD_RANGE }),
      format,
      now,
    ),
    {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="refunds-${format === "raw" ? "raw-" : ""}${now.toISOString().slice(0, 10)}.csv"`,
        "Cache-Control": "no-store",
      },
    },
  );
}

/** One order's refunds and verdicts, for the order-page block; an unknown or foreign order has none. */
export async function orderRefunds(shop: string, orderId: string): Promise<OrderRefundsResponse> {
  const order = `gid://shopify/Order/${/^\d+$/.test(orderId) ? orderId : "0"}`;
  const operations = await db.operation.findMany({ where: { shop, orderGid: order }, orderBy: { startedAt: "asc" }, take: 64, include: { reasonRows: true } });
  const contract = REFUND_CREATED.contract;
  return {
    order,
    refunds: operations.map((op) => {
      const row = toRow(contract, op);
      // Every contradiction and rule that held, in words, not only the first.
      const texts = op.reasonRows.map((r) => reasonInWords(contractOf(contract, op), op.status, r.reason, reasonFacts(op)));
      return {
        id: row.id,
        amount: row.amount,
        currency: row.currency,
        status: row.status,
        reasonText: texts.length ? texts.join(" ") : row.reasonText,
        reviewState: row.reviewState,
        correlation: row.correlation,
      };
    }),
    doNotRetry: operations.some((op) => op.reasonRows.some((r) => DUPLICATE_REASONS.includes(r.reason))),
  };
}
