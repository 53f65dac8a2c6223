import { REFUND_CREATED } from "../contracts/registry.server";
import { exportCsv } from "../exports/refunds-csv.server";
import { knownPayoutSchedule } from "../shops/payments.server";
import { DEFAULT_DASHBOARD_RANGE, parseFilters } from "../verdicts/filters";
import type { ScreenContext } from "./context.server";

/** GET /app/refunds.csv: the dashboard's refunds under its filters, in the shop's time zone: the people's file, or `format=raw` for scripts. */
export async function load(context: ScreenContext): Promise<Response> {
  const { db, shop, gateway, url } = context;
  const now = context.now();
  const [timeZone, payouts] = await Promise.all([context.timeZone(), knownPayoutSchedule(db, shop)]);
  // `format=raw`: the engine's names, for scripts; anything else is the people's file.
  const format = url.searchParams.get("format") === "raw" ? "raw" : "people";
  const filters = parseFilters(url.searchParams, { now, timeZone, defaultRange: DEFAULT_DASHBOARD_RANGE, payouts });
  return new Response(exportCsv(db, gateway, REFUND_CREATED.contract, { shop, filters, format, now }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="refunds-${format === "raw" ? "raw-" : ""}${now.toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
