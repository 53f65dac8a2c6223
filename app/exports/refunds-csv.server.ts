import type { PrismaClient } from "@prisma/client";
import type { Contract } from "../contracts/schema";
import { listRefunds, type RefundRow } from "../verdicts/rows.server";
import { classLabel, ORIGIN_LABELS, REVIEW_LABELS, VERDICT_LABELS } from "../verdicts/words";
import { localTimestamp } from "../lib/time/format";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { resolutions, type Resolution } from "../review/review.server";
import type { DashboardFilters } from "../verdicts/filters";
import { knownPaymentsAccess } from "../shops/payments.server";
import { moneyHeadline, type MoneyKnowledge } from "../settlement/words";
import { knowledgeOf, payoutNumber, payoutStatusLabel, referencesOf, type SettlementFacts } from "../settlement/words";
import { EXPOSURE_FACTS, exposureReasons, moneyAtRiskTwiceInWords, type ExposureCells } from "./exposure-cells";
import { limitsAuditOf, type LimitsAudit } from "../guardrails/audit.server";
import type { ApprovalState } from "../guardrails/requests.server";

/**
 * What a row's cells may say besides the row: its resolution, its settlement (where its money is) and what the app knows of that, its exposure (money at
 * risk twice), and refund limits (the request it waited on, or the limit it went over, made outside the app).
 */
interface RowFacts {
  resolution: Resolution | undefined;
  settlement: SettlementFacts | undefined;
  money: MoneyKnowledge;
  exposure: ExposureCells | undefined;
  limits: LimitsAudit | undefined;
}
type Column = [header: string, value: (row: RefundRow, facts: RowFacts) => unknown];

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
  ["settlement_status", (_, { settlement }) => settlement?.status],
  ["money", (_, { settlement }) => settlement?.money],
  ["arn", (_, { settlement }) => settlement?.arn],
  ["payout_id", (_, { settlement }) => payoutNumber(settlement?.payoutGid ?? null)],
  ["payout_status", (_, { settlement }) => settlement?.payoutStatus],
  ["exposure_status", (_, { exposure }) => exposure?.status],
  ["exposure_reasons", (_, { exposure }) => exposureReasons(exposure)],
  ["at_risk_amount", (_, { exposure }) => exposure?.atRisk],
  ["at_risk_currency", (_, { exposure }) => exposure?.currency],
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
    ["Money", (_, { money }) => moneyHeadline(money).title],
    // "ARN 7445…": 23 digits alone would be read as a number by a spreadsheet, and rounded.
    [
      "Card reference (ARN)",
      (_, { settlement }) =>
        referencesOf(settlement?.arn ?? null)
          .map((arn) => `ARN ${arn}`)
          .join("; "),
    ],
    ["Payout", (_, { settlement }) => settlement?.payoutGid],
    ["Payout status", (_, { settlement }) => payoutStatusLabel(settlement?.payoutStatus ?? null)],
    ["Money at risk twice", (_, { exposure }) => moneyAtRiskTwiceInWords(exposure)],
    ["Amount in shop currency", (r) => r.shopAmount],
    ["Shop currency", (r) => r.shopCurrency],
    ["Amount Shopify recorded", (r) => r.recordedAmount],
    ["Currency Shopify recorded", (r) => r.recordedCurrency],
    ["Matched by", (r) => matchedBy(r)],
    ["Order ID", (r) => `gid://shopify/Order/${r.orderId}`],
    ["Refund ID", (r) => `gid://shopify/Refund/${r.refundId}`],
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

const SETTLEMENT_FACTS = {
  operationId: true,
  status: true,
  money: true,
  arn: true,
  payoutGid: true,
  payoutStatus: true,
  processedAt: true,
  startedAt: true,
  decidedAt: true,
} as const;

/**
 * The filtered list as CSV, streamed a page at a time; amounts are exact decimals. For people it
 * starts with a byte order mark, so that Excel reads it as UTF-8 (€, names with accents). Each
 * page's settlements and exposures are read in one query each, its refund limits' audit in a few, and
 * the shop's access to its payouts once.
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
  let started = false;
  let access: Awaited<ReturnType<typeof knownPaymentsAccess>> = null;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        access = await knownPaymentsAccess(db, shop);
        controller.enqueue(encoder.encode(`${format === "people" ? "\uFEFF" : ""}${columns.map(([header]) => csvCell(header)).join(",")}\r\n`));
      }
      const page = await listRefunds(db, contract, shop, { ...filters, after, before: undefined, pageSize: 500 }, gateway);
      const ids = page.rows.map((r) => r.id);
      const [resolved, settlements, exposures, limits] = await Promise.all([
        resolutions(
          db,
          shop,
          page.rows.filter((r) => r.reviewState === "resolved").map((r) => r.id),
        ),
        db.settlement.findMany({ where: { shop, operationId: { in: ids } }, select: SETTLEMENT_FACTS }),
        db.exposure.findMany({ where: { shop, operationId: { in: ids } }, select: EXPOSURE_FACTS }),
        limitsAuditOf(
          db,
          shop,
          page.rows.map((r) => ({ id: r.id, refundGid: `gid://shopify/Refund/${r.refundId}` })),
          now,
        ),
      ]);
      const settlementOf = new Map(settlements.map((s) => [s.operationId, s]));
      const exposureOf = new Map(exposures.map((e) => [e.operationId, e]));
      const lines = page.rows.map((r) => {
        const settlement = settlementOf.get(r.id);
        const facts: RowFacts = {
          resolution: resolved.get(r.id),
          settlement,
          money: knowledgeOf(settlement, r.status, access, now),
          exposure: exposureOf.get(r.id),
          limits: limits.get(r.id),
        };
        return columns.map(([, value]) => csvCell(value(r, facts))).join(",");
      });
      if (lines.length) controller.enqueue(encoder.encode(`${lines.join("\r\n")}\r\n`));
      if (!page.pageInfo.hasNext) controller.close();
      else after = page.pageInfo.endCursor ?? undefined;
    },
  });
}
