import type { PrismaClient } from "@prisma/client";
import type { Contract } from "../contracts/schema";
import { EXPOSURE_CELLS } from "../exposure/cells";
import type { FollowUpCells } from "../follow-ups/follow-up";
import { limitsAuditOf, type LimitsAudit } from "../guardrails/audit.server";
import type { ApprovalState } from "../guardrails/requests.server";
import { readInSlices } from "../lib/db/slices";
import { localTimestamp } from "../lib/time/format";
import { resolutions, type Resolution } from "../review/review.server";
import { SETTLEMENT_CELLS } from "../settlement/cells";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { shopifyGid } from "../shopify/ids";
import type { DashboardFilters } from "../verdicts/filters";
import { listRefunds, type RefundRow } from "../verdicts/rows.server";
import { classLabel, ORIGIN_LABELS, REVIEW_LABELS, VERDICT_LABELS } from "../verdicts/words";

/** What a row's cells may say besides the row: its resolution, and refund limits (the request it waited on, or the limit it went over, made outside the app). */
interface RowFacts {
  resolution: Resolution | undefined;
  limits: LimitsAudit | undefined;
  /** Each follow-up's cells of the row, in FOLLOW_UP_CELLS's order. */
  followUps: unknown[][];
}
type Column = [header: string, value: (row: RefundRow, facts: RowFacts) => unknown];

/**
 * The follow-ups of a verified refund whose columns the file carries, in their order: where its
 * money went (contract shopify.refund.settled), money at risk twice (shopify.refund.exposure).
 * A new follow-up's cells are one more entry here.
 */
const FOLLOW_UP_CELLS = [listed(SETTLEMENT_CELLS), listed(EXPOSURE_CELLS)];

/** One follow-up's cells in the list: each reads only the rows and the file facts its own `rows` and `file` gave it. */
function listed<Row extends { operationId: string }, File>(cells: FollowUpCells<Row, File>) {
  return cells as unknown as FollowUpCells<{ operationId: string }, unknown>;
}

/** The follow-ups' columns of one kind, each cell read from the facts its follow-up read of the row. */
const followUpColumns = (kind: "raw" | "people"): Column[] =>
  FOLLOW_UP_CELLS.flatMap((cells, i) => cells[kind].map((_, j): Column => [cells[kind][j][0], (_row, facts) => facts.followUps[i][j]]));

/** For scripts (`?format=raw`): the engine's names and values, UTC instants; new columns only ever at the end. */
const RAW: Column[] = [
  ["order", (r) => r.orderName],
  ["order_id", (r) => r.orderId],
  ["amount", (r) => r.amount],
  ["currency", (r) => r.currency],
  ["shop_amount", (r) => r.shopAmount],
  ["shop_currency", (r) => r.shopCurrency],
  ["verdict", (r) => r.status],
  ["reason", (r) => r.reason],
  ["reason_text", (r) => r.reasonText],
  ["classes", (r) => r.classes.join("; ")],
  ["origin", (r) => r.origin],
  ["started_at", (r) => r.startedAt],
  ["review", (r) => r.reviewState],
  ["matched_by", (r) => matchedBy(r)],
  ["api_versions_outside_contract", (r) => r.apiVersionsOutside],
  ["refund_id", (r) => r.refundId],
  ["recorded_amount", (r) => r.recordedAmount],
  ["recorded_currency", (r) => r.recordedCurrency],
  ["resolution_note", (_, { resolution }) => resolution?.note],
  ["resolved_by", (_, { resolution }) => resolution?.by],
  ...followUpColumns("raw"),
  ["asked_by", (_, { limits }) => limits?.approval?.askedBy],
  ["approval", (_, { limits }) => limits?.approval?.state],
  ["approved_or_declined_by", (_, { limits }) => limits?.approval?.decidedBy],
  ["decided_at", (_, { limits }) => limits?.approval?.decidedAt],
  ["approval_note", (_, { limits }) => limits?.approval?.note],
  ["limits", (_, { limits }) => limits?.approval?.over],
  ["over_limit", (_, { limits }) => limits?.overLimit?.sentence],
  // Where the refund was made, as Shopify records it (decision 031): this_app, admin, pos, app, unknown; empty before it was read.
  ["made_in", (r) => r.madeIn],
  ["made_by_user_id", (r) => r.madeByStaff],
  ["made_by_app", (r) => r.madeByApp],
];

/** A request for approval's state for people, in the screens' words (the raw file has the state itself). */
const APPROVAL_LABELS: Record<ApprovalState, string> = { waiting: "Waiting for approval", approved: "Approved", declined: "Declined", expired: "Expired" };

const matchedBy = (r: RefundRow) => (r.correlation === "fingerprint" ? "order and amount only" : "refund id");

/**
 * For people (the default): words for headers and values, times in the shop's zone with their
 * offset, and Shopify's ids in their gid form, which a spreadsheet keeps as text (a 16-digit id
 * read as a number loses its last digits: 15 significant digits).
 */
function peopleColumns(timeZone: string): Column[] {
  return [
    ["Order", (r) => r.orderName],
    ["Amount", (r) => r.amount],
    ["Currency", (r) => r.currency],
    ["Verdict", (r) => VERDICT_LABELS[r.status] ?? r.status],
    ["Problem", (r) => r.classes.map(classLabel).join("; ")],
    ["Why", (r) => r.reasonText],
    ["Refund made", (r) => localTimestamp(r.startedAt, timeZone)],
    ["Decided", (r) => (r.decidedAt ? localTimestamp(r.decidedAt, timeZone) : "")],
    ["Source", (r) => ORIGIN_LABELS[r.origin] ?? r.origin],
    ["Review", (r) => REVIEW_LABELS[r.reviewState] ?? ""],
    ["Resolution note", (_, { resolution }) => resolution?.note],
    ["Resolved by", (_, { resolution }) => resolution?.by],
    ...followUpColumns("people"),
    ["Amount in shop currency", (r) => r.shopAmount],
    ["Shop currency", (r) => r.shopCurrency],
    ["Amount Shopify recorded", (r) => r.recordedAmount],
    ["Currency Shopify recorded", (r) => r.recordedCurrency],
    ["Matched by", (r) => matchedBy(r)],
    ["Order ID", (r) => shopifyGid("Order", r.orderId)],
    ["Refund ID", (r) => shopifyGid("Refund", r.refundId)],
    ["Asked for approval by", (_, { limits }) => limits?.approval?.askedBy],
    ["Approval", (_, { limits }) => (limits?.approval ? APPROVAL_LABELS[limits.approval.state] : "")],
    ["Approved or declined by", (_, { limits }) => limits?.approval?.decidedBy],
    ["Approval decided", (_, { limits }) => (limits?.approval?.decidedAt ? localTimestamp(limits.approval.decidedAt, timeZone) : "")],
    ["Approval note", (_, { limits }) => limits?.approval?.note],
    ["Limits it went over", (_, { limits }) => limits?.approval?.over],
    ["Over a limit", (_, { limits }) => limits?.overLimit?.sentence],
    ["Where it was made", (r) => r.made],
  ];
}

export type CsvFormat = "people" | "raw";

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

/** Each follow-up's cells of a page's rows (one query a follow-up and slice), in FOLLOW_UP_CELLS's order, kind by kind. */
async function followUpCellsOf(db: PrismaClient, shop: string, page: RefundRow[], files: object[], kind: CsvFormat): Promise<Map<string, unknown[][]>> {
  const ids = page.map((r) => r.id);
  const reads = await Promise.all(
    FOLLOW_UP_CELLS.map(async (cells) => new Map((await readInSlices(ids, (slice) => cells.rows(db, shop, slice))).map((r) => [r.operationId, r]))),
  );
  const file = (i: number) => files[i] as { now: Date };
  return new Map(page.map((row) => [row.id, FOLLOW_UP_CELLS.map((cells, i) => cells[kind].map(([, value]) => value(reads[i].get(row.id), row, file(i))))]));
}

/**
 * The filtered list as CSV, streamed a page at a time; amounts are exact decimals. For people it
 * starts with a byte order mark, so that Excel reads it as UTF-8 (€, names with accents). Each
 * page's follow-ups are read in one query each, its refund limits' audit in a few, and what the
 * follow-ups need of the shop (its access to its payouts) once.
 */
export function exportCsv(
  db: PrismaClient,
  gateway: ShopifyGateway,
  contract: Contract,
  request: { shop: string; filters: DashboardFilters; format: CsvFormat; now: Date },
): ReadableStream<Uint8Array> {
  const { shop, filters, format, now } = request;
  const columns = format === "raw" ? RAW : peopleColumns(filters.timeZone);
  const encoder = new TextEncoder();
  let after: string | undefined;
  let files: Promise<object[]> | undefined;
  return new ReadableStream({
    async pull(controller) {
      if (!files) controller.enqueue(encoder.encode(`${format === "people" ? "\uFEFF" : ""}${columns.map(([header]) => csvCell(header)).join(",")}\r\n`));
      files ??= Promise.all(FOLLOW_UP_CELLS.map(async (cells) => ({ ...((await cells.file?.(db, shop)) as object | undefined), now })));
      const page = await listRefunds(db, contract, shop, { ...filters, after, before: undefined, pageSize: 500 }, gateway);
      const [resolved, followUps, limits] = await Promise.all([
        resolutions(
          db,
          shop,
          page.rows.filter((r) => r.reviewState === "resolved").map((r) => r.id),
        ),
        followUpCellsOf(db, shop, page.rows, await files, format),
        limitsAuditOf(
          db,
          shop,
          page.rows.map((r) => ({ id: r.id, refundGid: shopifyGid("Refund", r.refundId) })),
          now,
        ),
      ]);
      const lines = page.rows.map((r) => {
        const facts: RowFacts = { resolution: resolved.get(r.id), limits: limits.get(r.id), followUps: followUps.get(r.id) ?? [] };
        return columns.map(([, value]) => csvCell(value(r, facts))).join(",");
      });
      if (lines.length) controller.enqueue(encoder.encode(`${lines.join("\r\n")}\r\n`));
      if (!page.pageInfo.hasNext) controller.close();
      else after = page.pageInfo.endCursor ?? undefined;
    },
  });
}
