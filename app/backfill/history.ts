import { sameMoney, toMinorUnits } from "../money/currency";

/** shopify.refund.history 1.0.0's window (its order_refunds_in_bulk_read); 1.1.0 takes app/verdicts/duplicates.ts's definition. */
const HISTORY_1_0_0_WINDOW_MS = 10 * 60_000;

export interface HistoryMoney {
  amount: string;
  currencyCode: string;
}

/** An amount of no money (0.00, or an amount its currency cannot hold, taken as not zero). */
export const isZero = (money: HistoryMoney) => toMinorUnits(money.amount, money.currencyCode) === 0n;

/** A refund as the bulk query wrote it inside its RefundAgreement's line. */
export interface HistoryRefund {
  id: string;
  createdAt: string;
  order: { id: string; name: string };
  totalRefundedSet: { shopMoney: HistoryMoney; presentmentMoney: HistoryMoney };
}

export interface HistoryTransaction {
  id: string;
  kind: string;
  status: string;
  gateway: string | null;
  errorCode: string | null;
  processedAt: string | null;
  amountSet: { presentmentMoney: HistoryMoney };
}

/** What a line of the bulk result holds, once read. */
export type HistoryLine =
  | { kind: "refund"; agreementGid: string; orderGid: string; refund: HistoryRefund }
  | { kind: "transaction"; agreementGid: string; transaction: HistoryTransaction }
  /** An order line, or an agreement that is not a refund's: nothing to stage. */
  | { kind: "other" }
  /** Not JSON, or not what the query asks for; `parentId` when the line still names its parent. */
  | { kind: "bad"; error: string; parentId?: string };

const isObject = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === "object" && !Array.isArray(value);

function isHistoryRefund(value: unknown): value is HistoryRefund {
  if (!isObject(value) || typeof value.id !== "string" || typeof value.createdAt !== "string" || Number.isNaN(Date.parse(value.createdAt))) return false;
  const money = isObject(value.totalRefundedSet) ? value.totalRefundedSet.presentmentMoney : undefined;
  return isObject(value.order) && typeof value.order.id === "string" && isObject(money) && typeof money.amount === "string";
}

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
    const money = isObject(value.amountSet) ? value.amountSet.presentmentMoney : undefined;
    if (!parent || typeof value.status !== "string" || typeof value.kind !== "string" || !isObject(money) || typeof money.amount !== "string")
      return { kind: "bad", error: `transaction ${value.id} is incomplete`, ...(parent ? { parentId: parent } : {}) };
    const { __parentId: _parent, ...transaction } = value;
    return { kind: "transaction", agreementGid: parent, transaction: transaction as unknown as HistoryTransaction };
  }
  if (value.refund !== undefined) {
    if (!parent || !isHistoryRefund(value.refund)) return { kind: "bad", error: `refund agreement ${value.id} is incomplete` };
    return { kind: "refund", agreementGid: value.id, orderGid: parent, refund: value.refund };
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
