import type { Operation, Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";
import { parseStored, storedStrings } from "../lib/db/stored-json";
import type { Contract } from "../contracts/schema";
import { contractOf } from "../contracts/registry.server";
import { formatMoney, fromMinorUnits } from "../lib/money/currency";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { atRiskTwiceWhere, CLASSES, dateBounds, moneyLateWhere, type DashboardFilters } from "./filters";
import { withOrderNames } from "./order-names.server";
import { reasonInWords, type ReasonFacts } from "./words";
import { madeInOf } from "./made";
import { madeSentence, withMakers, type MadeColumns } from "./made.server";
import { numberOfGid } from "../shopify/ids";

/**
 * The read model of a refund: one row as the dashboard, the review queue, the evidence page,
 * alerts and the CSV show it, and the one query that pages through them.
 */
export interface RefundRow extends MadeColumns {
  id: string;
  orderName: string | null;
  orderId: string;
  amount: string | null;
  amountDisplay: string | null;
  currency: string | null;
  /** What Shopify recorded in the shop's currency, when it differs from the refund's. */
  shopAmount: string | null;
  shopCurrency: string | null;
  /** How the app learned of it (webhook, reconciliation, app, backfill): for Technical details; where it was made is `made`. */
  origin: string;
  status: string;
  reason: string | null;
  reasonText: string;
  classes: string[];
  startedAt: string;
  reviewState: string;
  /** resource_id, or fingerprint: matched by order and amount only. */
  correlation: string;
  /** Admin API versions outside the contract's that served the evidence, if any. */
  apiVersionsOutside: string | null;
  /** Shopify's refund id (the number in its admin), and what Shopify recorded once read back, in the shop's currency. */
  refundId: string;
  recordedAmount: string | null;
  recordedCurrency: string | null;
  decidedAt: string | null;
  /** The record's revision token, for a resolve that must not overwrite someone else's. */
  revision: number;
}

/** Filters that select rows: the same dates as the figures (the dashboard defaults to 30 days; the review queue and scripts to every date). */
export function rowFilter(shop: string, filters: DashboardFilters): Prisma.OperationWhereInput {
  const and: Prisma.OperationWhereInput[] = [{ shop }];
  if (filters.verdicts.length) and.push({ status: { in: filters.verdicts } });
  // Every contradiction and rule that held is a row: a refund that is both a duplicate and of a
  // wrong amount is found by either filter, not only by its first reason.
  // The shop inside the relation filter lets the database read the (shop, class) / (shop, reason)
  // index instead of every shop's reasons of that class.
  if (filters.classes.length) and.push({ reasonRows: { some: { shop, class: { in: filters.classes.map((key) => CLASSES[key]) } } } });
  if (filters.gatewayFailures) and.push({ reasonRows: { some: { shop, reason: "transaction_failed" } } });
  if (filters.origins.length) and.push({ origin: { in: filters.origins } });
  // Not known: what Shopify did not say, and refunds whose record was not read yet.
  if (filters.made.length) and.push({ OR: [{ madeIn: { in: filters.made } }, ...(filters.made.includes("unknown") ? [{ madeIn: null }] : [])] });
  if (filters.review) and.push({ reviewState: filters.review });
  if (filters.moneyLate) and.push(moneyLateWhere(shop, filters.moneyLate));
  if (filters.atRiskTwice) and.push(atRiskTwiceWhere(shop));
  const bounds = dateBounds(filters);
  if (bounds.gte) and.push({ startedAt: { gte: bounds.gte } });
  if (bounds.lt) and.push({ startedAt: { lt: bounds.lt } });
  if (filters.query) {
    const number = filters.query.replace(/^#/, "");
    and.push({
      OR: [
        { orderName: { contains: filters.query } },
        ...(/^\d+$/.test(number) ? [{ orderName: `#${number}` }, { orderGid: { endsWith: `/${number}` } }] : []),
      ],
    });
  }
  return { AND: and };
}

type SortKey = "startedAt" | "amountMinor";
/** An instant as `toISOString` writes it, and a whole number of minor units the BigInt column holds (18 digits stay inside 64 bits). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const isInstant = (v: string) => INSTANT.test(v) && !Number.isNaN(Date.parse(v)) && new Date(v).toISOString() === v;
const rowId = z.string().min(1).max(200);
/** A cursor names the sort it was made for: one from another sort, or one the app did not write, is no cursor (the first page). */
const cursorSchema = z.discriminatedUnion("k", [
  z.object({ k: z.literal("startedAt"), v: z.string().refine(isInstant), id: rowId }),
  z.object({ k: z.literal("amountMinor"), v: z.string().regex(/^-?\d{1,18}$/), id: rowId }),
]);
type Cursor = z.infer<typeof cursorSchema>;
const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString("base64url");
function decodeCursor(text: string | undefined, key: SortKey): Cursor | undefined {
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, "base64url").toString());
  } catch {
    return undefined;
  }
  const cursor = cursorSchema.safeParse(value);
  return cursor.success && cursor.data.k === key ? cursor.data : undefined;
}

export function sortOf(filters: DashboardFilters): { key: SortKey; descending: boolean } {
  return {
    key: filters.sort.startsWith("amount") ? "amountMinor" : "startedAt",
    descending: filters.sort === "newest" || filters.sort === "amount_desc",
  };
}

const cursorValue = (cursor: Cursor) => (cursor.k === "startedAt" ? new Date(cursor.v) : BigInt(cursor.v));

/**
 * Keyset pagination on (sort key, id): a page costs the same on page 1 and page 4,000. With a
 * gateway, rows whose order has no name yet are named from Shopify first (one batched read).
 */
export async function listRefunds(db: PrismaClient, contract: Contract, shop: string, filters: DashboardFilters, gateway?: ShopifyGateway) {
  const { key, descending } = sortOf(filters);
  const after = decodeCursor(filters.after, key);
  const before = filters.after ? undefined : decodeCursor(filters.before, key);
  const backwards = Boolean(before);
  const cursor = before ?? after;
  const forwardDescending = backwards ? !descending : descending;
  const where: Prisma.OperationWhereInput[] = [rowFilter(shop, filters)];
  if (key === "amountMinor") where.push({ amountMinor: { not: null } });
  if (cursor) {
    const value = cursorValue(cursor);
    const beyond = forwardDescending ? "lt" : "gt";
    where.push({ OR: [{ [key]: { [beyond]: value } }, { [key]: value, id: { [beyond]: cursor.id } }] });
  }
  const direction = forwardDescending ? "desc" : "asc";
  const found = await db.operation.findMany({
    where: { AND: where },
    orderBy: [{ [key]: direction }, { id: direction }],
    take: filters.pageSize + 1,
  });
  const more = found.length > filters.pageSize;
  const page = found.slice(0, filters.pageSize);
  if (backwards) page.reverse();
  const rows = page.map((op) => toRow(contract, op));
  const cursorOf = (op: Operation) =>
    encodeCursor(key === "startedAt" ? { k: key, v: op.startedAt.toISOString(), id: op.id } : { k: key, v: String(op.amountMinor), id: op.id });
  const named = await withMakers(db, shop, rows);
  return {
    rows: gateway ? await withOrderNames(db, gateway, shop, named) : named,
    pageInfo: {
      hasNext: backwards ? Boolean(cursor) : more,
      hasPrevious: backwards ? more : Boolean(cursor),
      endCursor: page.length ? cursorOf(page[page.length - 1]) : null,
      startCursor: page.length ? cursorOf(page[0]) : null,
    },
  };
}

/** What a row's reason may say: what was asked, and what Shopify recorded when it is in the same currency. */
export function reasonFacts(op: Pick<Operation, "amount" | "amountMinor" | "currency" | "shopAmount" | "shopCurrency">): ReasonFacts {
  return {
    requested: { amount: op.amountMinor !== null && op.currency ? fromMinorUnits(op.amountMinor, op.currency) : op.amount, currency: op.currency },
    recorded: op.shopCurrency && op.shopCurrency === op.currency ? { amount: op.shopAmount, currency: op.shopCurrency } : null,
  };
}

export function toRow(contract: Contract, op: Operation): RefundRow {
  const facts = reasonFacts(op);
  const made = { madeIn: madeInOf(op.madeIn), madeByStaff: op.madeByStaff, madeByApp: op.madeByApp };
  return {
    ...made,
    // Named by withMakers where Shopify gave the app the person's name.
    made: madeSentence(made),
    id: op.id,
    orderName: op.orderName,
    orderId: numberOfGid(op.orderGid),
    amount: facts.requested.amount,
    amountDisplay: op.amountMinor !== null && op.currency ? formatMoney(op.amountMinor, op.currency) : op.amount,
    currency: op.currency,
    shopAmount: op.shopCurrency && op.shopCurrency !== op.currency ? op.shopAmount : null,
    shopCurrency: op.shopCurrency && op.shopCurrency !== op.currency ? op.shopCurrency : null,
    origin: op.origin,
    status: op.status,
    reason: op.reason,
    reasonText: reasonInWords(contractOf(contract, op), op.status, op.reason, facts),
    classes: parseStored(storedStrings, op.classes, "Operation.classes"),
    startedAt: op.startedAt.toISOString(),
    reviewState: op.reviewState,
    correlation: op.correlation,
    apiVersionsOutside: op.apiVersionsOutside,
    refundId: numberOfGid(op.refundGid),
    recordedAmount: op.shopAmount,
    recordedCurrency: op.shopCurrency,
    decidedAt: op.decidedAt?.toISOString() ?? null,
    revision: op.revision,
  };
}

/** The answer to an address that names no refund of this shop (another shop's, or none): the same 404 either way. */
export const noSuchRefund = () => new Response("No such refund in this shop", { status: 404 });
