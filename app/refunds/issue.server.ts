import type { PrismaClient, RefundRecord } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import { compareDecimalValues, parseInstant, wholeSecond } from "../contracts/values";
import { fromMinorUnits, toMinorUnits } from "../money/currency";
import { markDue, openOperation } from "../verification/operations.server";
import type { ShopGraphql } from "../verification/readback.server";
import { mintRecord, RevisionConflict, updateRecord } from "./records.server";
import { ORDER_FOR_REFUND_QUERY, ORDER_REFUNDS_QUERY, REFUND_CREATE_MUTATION, type OrderForRefund } from "./shopify-queries";

/** Requested cost of ORDER_REFUNDS_QUERY by Shopify's rules: the order, and 30 refunds with a money bag each. */
export const ORDER_REFUNDS_COST = 91;

/** The seed's bound: at most 64 refund attempts on one order. */
export const MAX_ATTEMPTS_PER_ORDER = 64;

export type IssueCode = "INVALID_AMOUNT" | "ATTEMPT_LIMIT" | "ORDER_NOT_FOUND" | "OVER_TENDERED" | "SHOPIFY_UNAVAILABLE" | "USER_ERRORS" | "OUTCOME_UNKNOWN" | "CONFLICT" | "DO_NOT_RETRY" | "NOT_RETRYABLE";
export type IssueResult = { ok: true; record: RefundRecord } | { ok: false; status: number; code: IssueCode; message: string; record?: RefundRecord };

type IssueFailure = Extract<IssueResult, { ok: false }>;
const fail = (status: number, code: IssueCode, message: string, record?: RefundRecord): IssueFailure => ({ ok: false, status, code, message, record });

export async function loadOrderForRefund(graphql: ShopGraphql, orderId: string): Promise<OrderForRefund | null> {
  const body = await graphql(ORDER_FOR_REFUND_QUERY, { id: orderId });
  return ((body.data as { order?: OrderForRefund | null } | undefined)?.order ?? null) as OrderForRefund | null;
}

export function refundableMinor(order: OrderForRefund): bigint {
  const amount = order.suggestedRefund?.maximumRefundableSet.shopMoney.amount;
  return (amount && toMinorUnits(amount, order.currencyCode)) || 0n;
}

/** Newest captured money first (LIFO), each transaction up to what Shopify says it can still refund. */
function allocate(order: OrderForRefund, amountMinor: bigint) {
  const candidates = (order.suggestedRefund?.suggestedTransactions ?? [])
    .filter((t) => t.parentTransaction)
    .sort((a, b) => (parseInstant(b.parentTransaction!.createdAt) ?? 0) - (parseInstant(a.parentTransaction!.createdAt) ?? 0));
  const transactions: { orderId: string; parentId: string; amount: string; gateway: string; kind: "REFUND" }[] = [];
  let left = amountMinor;
  for (const candidate of candidates) {
    if (left <= 0n) break;
    const cap = toMinorUnits(candidate.maximumRefundableSet?.shopMoney.amount ?? "0", order.currencyCode) ?? 0n;
    const take = cap < left ? cap : left;
    if (take <= 0n) continue;
    transactions.push({ orderId: order.id, parentId: candidate.parentTransaction!.id, amount: fromMinorUnits(take, order.currencyCode), gateway: candidate.gateway ?? candidate.parentTransaction!.gateway ?? "manual", kind: "REFUND" });
    left -= take;
  }
  return { transactions, unallocated: left };
}

type RefundPlan = { ok: true; order: OrderForRefund; amountMinor: bigint; transactions: ReturnType<typeof allocate>["transactions"] } | IssueFailure;

/** The order as Shopify has it now, the amount in its currency, and the refund transactions; or why it cannot be refunded. */
async function prepareRefund(graphql: ShopGraphql, orderId: string, amount: string | bigint): Promise<RefundPlan> {
  let order: OrderForRefund | null;
  try {
    order = await loadOrderForRefund(graphql, orderId);
  } catch (error) {
    return fail(502, "SHOPIFY_UNAVAILABLE", `Shopify did not answer (${(error as Error).message}). Nothing was refunded; try again in a moment.`);
  }
  if (!order) return fail(404, "ORDER_NOT_FOUND", "Shopify does not show this order.");
  const amountMinor = typeof amount === "bigint" ? amount : toMinorUnits(amount.trim(), order.currencyCode);
  if (amountMinor === undefined || amountMinor <= 0n) return fail(422, "INVALID_AMOUNT", `Enter a positive amount in ${order.currencyCode}, such as 25.00.`);
  const capacity = refundableMinor(order);
  const { transactions, unallocated } = allocate(order, amountMinor);
  if (amountMinor > capacity || unallocated > 0n) {
    return fail(409, "OVER_TENDERED", `OVER_TENDERED: ${fromMinorUnits(amountMinor, order.currencyCode)} ${order.currencyCode} is more than the ${fromMinorUnits(capacity, order.currencyCode)} ${order.currencyCode} Shopify can still refund on ${order.name}.`);
  }
  return { ok: true, order, amountMinor, transactions };
}

interface RefundCreateBody {
  refundCreate: { refund: { id: string } | null; userErrors: { field: string[] | null; message: string }[] } | null;
}

/**
 * Issues a refund a person asked for: the order's capacity is checked with Shopify first and an
 * over-refund refused before any mutation; the record is minted (status created) before Shopify is
 * called; refundCreate is called once. API 2025-07 has no idempotency key, so nothing here ever
 * retries the mutation by itself (see docs/decisions/006).
 */
export async function issueRefund(
  db: PrismaClient,
  contract: LoadedContract,
  graphql: ShopGraphql,
  request: { shop: string; orderId: string; amount: string; note?: string | null; notify: boolean },
  now: Date,
): Promise<IssueResult> {
  if ((await db.refundRecord.count({ where: { shop: request.shop, orderId: request.orderId } })) >= MAX_ATTEMPTS_PER_ORDER) {
    return fail(409, "ATTEMPT_LIMIT", `This order already has ${MAX_ATTEMPTS_PER_ORDER} refund attempts, the most the app allows on one order.`);
  }
  const plan = await prepareRefund(graphql, request.orderId, request.amount);
  if (!plan.ok) return plan;
  const { order, amountMinor, transactions } = plan;
  const parent = transactions[0]?.parentId ?? null;
  const record = await mintRecord(
    db,
    {
      shop: request.shop,
      caption: `Refund of ${fromMinorUnits(amountMinor, order.currencyCode)} ${order.currencyCode} on ${order.name}`,
      orderId: order.id,
      parentId: parent,
      amountMinor,
      currency: order.currencyCode,
      note: request.note?.trim() || null,
      notify: request.notify,
      refCaptions: JSON.stringify([{ id: order.id, caption: order.name }, ...(parent ? [{ id: parent, caption: `${transactions[0].gateway} payment` }] : [])]),
    },
    now,
  );
  return callRefundCreate(db, contract, graphql, record, { orderId: order.id, note: record.note, notify: record.notify, transactions }, now);
}

async function callRefundCreate(db: PrismaClient, contract: LoadedContract, graphql: ShopGraphql, record: RefundRecord, input: Record<string, unknown>, now: Date): Promise<IssueResult> {
  const revision = await updateRecord(db, record, { calls: { increment: 1 }, failureReason: null }, now);
  let body: { data?: unknown };
  try {
    body = await graphql(REFUND_CREATE_MUTATION, { input });
  } catch (error) {
    // Shopify may or may not have created it. The record stays `created`; recovery looks for it.
    const current = await db.refundRecord.findUniqueOrThrow({ where: { id: record.id } });
    return fail(502, "OUTCOME_UNKNOWN", `Shopify did not confirm the refund (${(error as Error).message}). The app checks the order for it before anything else; do not refund again.`, current);
  }
  const result = (body.data as RefundCreateBody | undefined)?.refundCreate;
  const current = { id: record.id, revision };
  if (!result || result.userErrors.length || !result.refund) {
    const message = result?.userErrors.map((e) => e.message).join("; ") || "Shopify returned no refund.";
    await updateRecord(db, current, { status: "failed", failureReason: message, actionResult: JSON.stringify(body.data ?? null) }, now);
    return fail(422, "USER_ERRORS", message, await db.refundRecord.findUniqueOrThrow({ where: { id: record.id } }));
  }
  await stampRefund(db, contract, current, result.refund.id, body.data, now);
  return { ok: true, record: await db.refundRecord.findUniqueOrThrow({ where: { id: record.id } }) };
}

/**
 * Records Shopify's refund id on the record and puts the refund under the contract, with the
 * person's request as `$input`, the mutation's answer as `$action.result` and the record's mint
 * time as `$operation.created_at`. If its webhook already opened an operation, that one is taken over.
 */
export async function stampRefund(db: PrismaClient, contract: LoadedContract, record: { id: string; revision: string }, refundGid: string, actionResult: unknown, now: Date): Promise<void> {
  await updateRecord(db, record, { refundRef: refundGid, actionResult: JSON.stringify(actionResult), failureReason: null }, now);
  const stamped = await db.refundRecord.findUniqueOrThrow({ where: { id: record.id } });
  const facts = {
    shop: stamped.shop,
    refundGid,
    orderGid: stamped.orderId,
    origin: "app" as const,
    amount: fromMinorUnits(stamped.amountMinor, stamped.currency),
    currency: stamped.currency,
    startedAt: stamped.createdAt,
    actionResult,
    orderName: (JSON.parse(stamped.refCaptions) as { caption: string }[])[0]?.caption ?? null,
  };
  if (await openOperation(db, contract, facts, now)) return;
  await db.operation.updateMany({
    where: { shop: stamped.shop, refundGid, status: "PENDING" },
    data: { origin: "app", amount: facts.amount, currency: facts.currency, amountMinor: stamped.amountMinor, startedAt: stamped.createdAt, actionResult: JSON.stringify(actionResult) },
  });
  await markDue(db, { shop: stamped.shop, refundGid }, now);
}

/**
 * A record still `created` with no refund id (the process died between minting and stamping, or
 * the call timed out): adopt the refund Shopify did create on the order since the record was
 * minted with the same amount (the contract's weak fingerprint correlation), if no other record
 * holds it. If Shopify shows none, the record says so, and only a person may try again.
 */
export async function recoverRecord(db: PrismaClient, contract: LoadedContract, graphql: ShopGraphql, record: RefundRecord, now: Date): Promise<"adopted" | "none" | "error"> {
  let refunds: { id: string; createdAt: string | null; totalRefundedSet: { shopMoney: { amount: string } } }[];
  try {
    const body = await graphql(ORDER_REFUNDS_QUERY, { id: record.orderId });
    refunds = (body.data as { order?: { refunds: typeof refunds } | null } | undefined)?.order?.refunds ?? [];
  } catch {
    return "error";
  }
  const amount = fromMinorUnits(record.amountMinor, record.currency);
  const fromSecond = wholeSecond(record.createdAt.getTime());
  const taken = new Set((await db.refundRecord.findMany({ where: { shop: record.shop, orderId: record.orderId, refundRef: { not: null } }, select: { refundRef: true } })).map((r) => r.refundRef));
  const match = refunds
    .map((refund) => ({ refund, createdAt: parseInstant(refund.createdAt) }))
    .filter(({ refund, createdAt }) => createdAt !== undefined && wholeSecond(createdAt) >= fromSecond && !taken.has(refund.id))
    .filter(({ refund }) => compareDecimalValues(refund.totalRefundedSet.shopMoney.amount, amount) === 0)
    .sort((a, b) => a.createdAt! - b.createdAt!)[0]?.refund;
  if (match) {
    await stampRefund(db, contract, record, match.id, { refundCreate: { refund: { id: match.id }, userErrors: [], adoptedBy: "fingerprint" } }, now);
    return "adopted";
  }
  await updateRecord(db, record, { failureReason: "Shopify shows no refund for this attempt. A person may try again." }, now);
  return "none";
}

/** Records to recover: minted, never stamped, older than any call could still be in flight, not yet checked. */
export async function unstampedRecords(db: PrismaClient, now: Date, graceMs = 30_000) {
  return db.refundRecord.findMany({ where: { status: "created", refundRef: null, failureReason: null, createdAt: { lt: new Date(now.getTime() - graceMs) } }, orderBy: { createdAt: "asc" }, take: 50 });
}

/** A person chose to try again: only after Shopify showed no refund, never on an order flagged for a duplicate. */
export async function retryRefund(db: PrismaClient, contract: LoadedContract, graphql: ShopGraphql, shop: string, recordId: string, revision: string, now: Date): Promise<IssueResult> {
  const record = await db.refundRecord.findFirst({ where: { id: recordId, shop } });
  if (!record) return fail(404, "ORDER_NOT_FOUND", "No such refund record in this shop.");
  if (record.revision !== revision) return fail(409, "CONFLICT", new RevisionConflict().message + " Reload to see its current state.", record);
  const duplicate = await db.operation.findFirst({ where: { shop, orderGid: record.orderId, reason: "duplicate_refund_present" } });
  if (duplicate) return fail(409, "DO_NOT_RETRY", "Shopify created more than one refund on this order. Do not retry.", record);
  if (record.status !== "created" || record.refundRef || !record.failureReason) {
    return fail(409, "NOT_RETRYABLE", "Only an attempt that Shopify shows no refund for can be tried again.", record);
  }
  const check = await recoverRecord(db, contract, graphql, { ...record }, now);
  if (check === "adopted") return { ok: true, record: await db.refundRecord.findUniqueOrThrow({ where: { id: record.id } }) };
  if (check === "error") return fail(502, "SHOPIFY_UNAVAILABLE", "Shopify did not answer, so the app cannot tell whether the refund exists. Nothing was sent.", record);
  const fresh = await db.refundRecord.findUniqueOrThrow({ where: { id: record.id } });
  const plan = await prepareRefund(graphql, record.orderId, record.amountMinor);
  if (!plan.ok) return { ...plan, record: fresh };
  const { order, transactions } = plan;
  return callRefundCreate(db, contract, graphql, fresh, { orderId: order.id, note: fresh.note, notify: fresh.notify, transactions }, now);
}

/**
 * What the verification path saw of the refund's transaction moves the record: SUCCESS →
 * succeeded, FAILURE/ERROR → failed. Says whether it moved the record.
 */
export async function syncRecordStatus(db: PrismaClient, shop: string, refundGid: string, readbackBody: unknown, now: Date): Promise<boolean> {
  const transaction = (readbackBody as { data?: { refund?: { transactions?: { nodes?: { status?: string; errorCode?: string | null }[] } } } })?.data?.refund?.transactions?.nodes?.[0];
  const next = transaction?.status === "SUCCESS" ? "succeeded" : transaction?.status === "FAILURE" || transaction?.status === "ERROR" ? "failed" : null;
  if (!next) return false;
  const record = await db.refundRecord.findFirst({ where: { shop, refundRef: refundGid, status: "created" } });
  if (!record) return false;
  const failureReason = next === "failed" ? `The gateway reported ${transaction!.status}${transaction!.errorCode ? ` (${transaction!.errorCode})` : ""}.` : null;
  try {
    await updateRecord(db, record, { status: next, failureReason }, now);
    return true;
  } catch (error) {
    if (!(error instanceof RevisionConflict)) throw error;
    return false;
  }
}
