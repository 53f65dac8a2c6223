import type { PrismaClient } from "@prisma/client";
import type { Contract } from "../contracts/schema";
import { listRefunds } from "../verdicts/rows.server";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { resolutions } from "../review/review.server";
import type { DashboardFilters } from "../verdicts/filters";

const HEADER = [
  "order",
  "order_id",
  "amount",
  "currency",
  "shop_amount",
  "shop_currency",
  "verdict",
  "reason",
  "reason_text",
  "classes",
  "origin",
  "started_at",
  "review",
  "matched_by",
  "api_versions_outside_contract",
  "refund_id",
  "recorded_amount",
  "recorded_currency",
  "resolution_note",
  "resolved_by",
];

/** Where a spreadsheet may start a cell: the text's start, and after a `;` (a semicolon locale), a tab (a paste) or a `|`. */
const CELL_STARTS = /(^|[;\t|])(\s*)([=+\-@\t\r])/g;
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * One CSV cell: always quoted (RFC 4180, quotes doubled), and text a spreadsheet would run as a
 * formula (= + - @, a tab or a carriage return where a cell may start) led by a ' so it stays
 * text, wherever that spreadsheet splits it. A number (-12.50) stays a number.
 */
export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  const neutral = NUMBER.test(text) ? text : text.replace(CELL_STARTS, (_, before: string, blank: string, lead: string) => `${before}${blank}'${lead}`);
  return `"${neutral.replace(/"/g, '""')}"`;
}

/** The filtered list as CSV, streamed a page at a time; amounts are exact decimals. */
export function exportCsv(db: PrismaClient, gateway: ShopifyGateway, contract: Contract, shop: string, filters: DashboardFilters): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: string | undefined;
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`${HEADER.map(csvCell).join(",")}\r\n`));
      }
      const page = await listRefunds(db, contract, shop, { ...filters, after, before: undefined, pageSize: 500 }, gateway);
      const resolved = await resolutions(
        db,
        shop,
        page.rows.filter((r) => r.reviewState === "resolved").map((r) => r.id),
      );
      const lines = page.rows.map((r) => {
        const resolution = resolved.get(r.id);
        // The new columns come last, so spreadsheets built on the old ones keep working.
        return [
          r.orderName,
          r.orderId,
          r.amount,
          r.currency,
          r.shopAmount,
          r.shopCurrency,
          r.status,
          r.reason,
          r.reasonText,
          r.classes.join("; "),
          r.origin,
          r.startedAt,
          r.reviewState,
          r.correlation === "fingerprint" ? "order and amount only" : "refund id",
          r.apiVersionsOutside,
          r.refundId,
          r.recordedAmount,
          r.recordedCurrency,
          resolution?.note,
          resolution?.by,
        ]
          .map(csvCell)
          .join(",");
      });
      if (lines.length) controller.enqueue(encoder.encode(`${lines.join("\r\n")}\r\n`));
      if (!page.pageInfo.hasNext) controller.close();
      else after = page.pageInfo.endCursor ?? undefined;
    },
  });
}
