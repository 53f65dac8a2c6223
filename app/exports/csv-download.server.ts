import db from "../db.server";
import { REFUND_CREATED } from "../contracts/registry.server";
import { DEFAULT_DASHBOARD_RANGE, parseFilters } from "../verdicts/filters";
import { shopTimeZone } from "../shops/profile.server";
import { knownPayoutSchedule } from "../shops/payments.server";
import { interactiveGateway } from "../shopify.server";
import { exportCsv } from "./refunds-csv.server";

/** The CSV download of the dashboard's refunds under its filters, in the shop's time zone: the people's file, or `format=raw` for scripts. */
export async function csvExportResponse(shop: string, params: URLSearchParams, now: Date): Promise<Response> {
  const [timeZone, payouts] = await Promise.all([shopTimeZone(db, shop, { gateway: interactiveGateway(), now }), knownPayoutSchedule(db, shop)]);
  // `format=raw`: the engine's names, for scripts; anything else is the people's file.
  const format = params.get("format") === "raw" ? "raw" : "people";
  return new Response(
    exportCsv(
      db,
      interactiveGateway(),
      REFUND_CREATED.contract,
      shop,
      parseFilters(params, { now, timeZone, defaultRange: DEFAULT_DASHBOARD_RANGE, payouts }),
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
