import db from "../db.server";
import { REFUND_CREATED } from "../contracts/registry.server";
import { figures, listRefunds, rowFilter } from "./dashboard.server";
import { parseFilters } from "./filters";
import { exportCsv } from "./export.server";

/** The dashboard's data for one shop: figures for the period, one page of rows, and the filters as understood. */
export async function loadDashboard(shop: string, params: URLSearchParams, now: Date) {
  const filters = parseFilters(params);
  const [figureData, page, total] = await Promise.all([
    figures(db, shop, filters, now),
    listRefunds(db, REFUND_CREATED.contract, shop, filters),
    db.operation.count({ where: rowFilter(shop, filters) }),
  ]);
  return { figures: figureData, ...page, total, filters, now: now.toISOString() };
}

export function csvExportResponse(shop: string, params: URLSearchParams, now: Date): Response {
  return new Response(exportCsv(db, REFUND_CREATED.contract, shop, parseFilters(params)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="refunds-${now.toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
