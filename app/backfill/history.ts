import { z } from "zod";
import { sameMoney, toMinorUnits } from "../lib/money/currency";
import { agreementApp, type AgreementApp } from "../verdicts/made";

/** shopify.refund.history 1.0.0's window (its order_refunds_in_bulk_read); 1.1.0 takes app/verdicts/duplicates.ts's definition. */
const HISTORY_1_0_0_WINDOW_MS = 10 * 60_000;

const historyMoney = z.object({ amount: z.string(), currencyCode: z.string() });
export type HistoryMoney = z.infer<typeof historyMoney>;

/** An amount of no money (0.00, or an amount its currency cannot hold, taken as not zero). */
export const isZero = (money: HistoryMoney) => toMinorUnits(money.amount, money.currencyCode) === 0n;

/** A refund as the bulk query writes it inside its RefundAgreement's line (and as the backfill stages it). */
export const historyRefund = z.object({
  id: z.string(),
  createdAt: z.string().refine((text) => !Number.isNaN(Date.parse(text)), "not an instant"),
  order: z.object({ id: z.string(), name: z.string() }),
  totalRefundedSet: z.object({ shopMoney: historyMoney, presentmentMoney: historyMoney }),
});
export type HistoryRefund = z.infer<typeof historyRefund>;

/** The refund agreement's app, null when none did: where it was made (decision 031). */
export type HistoryAgreementApp = AgreementApp;

/**
 * A refund as the backfill stages it: the refund, and its agreement's app beside it (absent on a
 * line staged before the app read it: then where it was made is not said).
 */
export const stagedRefund = historyRefund.extend({ agreementApp: agreementApp.nullable().optional() });

const nullable = z
  .string()
  .nullish()
  .transform((text) => text ?? null);

/** A refund transaction as the bulk query writes it (and as the backfill stages it, without its `__parentId`). */
export const historyTransaction = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.string(),
  gateway: nullable,
  errorCode: nullable,
  processedAt: nullable,
  /** The Shopify POS device that processed it (decision 031); null off POS, and on lines staged before it was read. */
  device: z
    .object({ id: z.string() })
    .nullish()
    .transform((device) => device ?? null),
  amountSet: z.object({ presentmentMoney: historyMoney }),
});
export type HistoryTransaction = z.infer<typeof historyTransaction>;

/** What a line of the bulk result holds, once read. */
export type HistoryLine =
  | { kind: "refund"; agreementGid: string; orderGid: string; refund: HistoryRefund; app: HistoryAgreementApp | null }
  | { kind: "transaction"; agreementGid: string; transaction: HistoryTransaction }
  /** An order line, or an agreement that is not a refund's: nothing to stage. */
  | { kind: "other" }
  /** Not JSON, or not what the query asks for; `parentId` when the line still names its parent. */
  | { kind: "bad"; error: string; parentId?: string };

const isObject = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === "object" && !Array.isArray(value);

/**
 * Reads one JSONL line of the history's bulk result. Lines are joined by `__parentId` later (and
 * in any order: Shopify writes children after their parent, not next to it), so each line is
 * classified alone: a refund agreement with its refund (its parent is the order), or a refund
 * transaction (its parent is the agreement).
 */
export function readHistoryLine(text: string): HistoryLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const parentId = /"__parentId":"(gid:\/\/shopify\/[A-Za-z]+\/\d+)"/.exec(text)?.[1];
    return { kind: "bad", error: `not JSON: ${(error as Error).message}`, ...(parentId ? { parentId } : {}) };
  }
  if (!isObject(value) || typeof value.id !== "string") return { kind: "bad", error: "a line without an id" };
  const parent = typeof value.__parentId === "string" ? value.__parentId : null;
  if (value.id.startsWith("gid://shopify/OrderTransaction/")) {
    const transaction = historyTransaction.safeParse(value);
    if (!parent || !transaction.success) return { kind: "bad", error: `transaction ${value.id} is incomplete`, ...(parent ? { parentId: parent } : {}) };
    return { kind: "transaction", agreementGid: parent, transaction: transaction.data };
  }
  if (value.refund !== undefined) {
    const refund = historyRefund.safeParse(value.refund);
    const app = agreementApp.nullish().safeParse(value.app);
    if (!parent || !refund.success || !app.success) return { kind: "bad", error: `refund agreement ${value.id} is incomplete` };
    return { kind: "refund", agreementGid: value.id, orderGid: parent, refund: refund.data, app: app.data ?? null };
  }
  return { kind: "other" };
}

/** The refund in the shape of the http verifier's read-back (`{data: {refund}}`), its transactions a connection as the read-back's are. */
export function bulkReadback(refund: HistoryRefund, transactions: HistoryTransaction[]) {
  return { data: { refund: { ...refund, transactions: { nodes: transactions, pageInfo: { hasNextPage: false, endCursor: null } } } } };
}

/**
 * shopify.refund.history 1.0.0's order_refunds_in_bulk_read, for its operations still undecided
 * when 1.1.0 came: refunds of the order of this amount within the window either side, itself included.
 */
export function sameAmountNearby(refund: HistoryRefund, orderRefunds: HistoryRefund[], windowMs = HISTORY_1_0_0_WINDOW_MS) {
  const at = Date.parse(refund.createdAt);
  const near = orderRefunds.filter(
    (other) =>
      Math.abs(Date.parse(other.createdAt) - at) <= windowMs && sameMoney(other.totalRefundedSet.presentmentMoney, refund.totalRefundedSet.presentmentMoney),
  );
  return { count: near.length, refunds: near.map((r) => r.id) };
}
