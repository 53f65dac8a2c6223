import db from "../db.server";
import { REFUND_CREATED } from "../contracts/registry.server";
import { fromMinorUnits } from "../money/currency";
import { interactiveGraphql } from "../verification/worker.server";
import { issueRefund, loadOrderForRefund, refundableMinor, retryRefund, type IssueResult } from "./issue.server";
import { recordView } from "./records.server";

const notFound = (what: string) => new Response(`No such ${what} in this shop`, { status: 404 });
const orderGid = (orderId: string) => `gid://shopify/Order/${/^\d+$/.test(orderId) ? orderId : "0"}`;

async function verdictsByRef(shop: string, refs: string[]) {
  const ops = await db.operation.findMany({ where: { shop, refundGid: { in: refs } }, select: { id: true, refundGid: true, status: true, reason: true } });
  return new Map(ops.map((op) => [op.refundGid, op]));
}

/** The refund form's data: the order as Shopify has it now, and the attempts made from the app. */
export async function refundFormData(shop: string, orderId: string) {
  const order = await loadOrderForRefund(interactiveGraphql(shop), orderGid(orderId));
  if (!order) throw notFound("order");
  const records = await db.refundRecord.findMany({ where: { shop, orderId: order.id }, orderBy: { createdAt: "desc" } });
  const verdicts = await verdictsByRef(shop, records.flatMap((r) => (r.refundRef ? [r.refundRef] : [])));
  return {
    order: {
      id: order.id,
      legacyId: orderId,
      name: order.name,
      currency: order.currencyCode,
      refunded: order.totalRefundedSet.shopMoney.amount,
      refundable: fromMinorUnits(refundableMinor(order), order.currencyCode),
    },
    records: records.map((r) => {
      const op = r.refundRef ? verdicts.get(r.refundRef) : undefined;
      return { ...recordView(r, op ? { status: op.status, reason: op.reason } : null), operationId: op?.id ?? null, amount: fromMinorUnits(r.amountMinor, r.currency) };
    }),
    duplicateOnOrder: Boolean(await db.operation.findFirst({ where: { shop, orderGid: order.id, reason: "duplicate_refund_present" }, select: { id: true } })),
  };
}

export async function refundFormAction(shop: string, orderId: string, form: FormData, now: Date): Promise<IssueResult> {
  const graphql = interactiveGraphql(shop);
  if (form.get("intent") === "retry") {
    return retryRefund(db, REFUND_CREATED, graphql, shop, String(form.get("recordId") ?? ""), String(form.get("revision") ?? ""), now);
  }
  return issueRefund(db, REFUND_CREATED, graphql, { shop, orderId: orderGid(orderId), amount: String(form.get("amount") ?? ""), note: String(form.get("note") ?? ""), notify: form.get("notify") === "on" }, now);
}

/** GET /app/api/refunds/:id: the record, read-only, for the current shop only. */
export async function refundRecordJson(shop: string, id: string) {
  const record = await db.refundRecord.findFirst({ where: { id, shop } });
  if (!record) throw notFound("refund record");
  const op = record.refundRef ? (await verdictsByRef(shop, [record.refundRef])).get(record.refundRef) : undefined;
  return recordView(record, op ? { status: op.status, reason: op.reason } : null);
}

