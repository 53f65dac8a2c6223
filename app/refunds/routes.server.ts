import db from "../db.server";
import { REFUND_CREATED } from "../contracts/registry.server";
import { fromMinorUnits } from "../money/currency";
import { loadOrderForRefund } from "../shopify/admin/refunds.server";
import { interactiveGateway } from "../verification/worker.server";
import { issueRefund, unsettledRecord, type IssueResult } from "./issue.server";
import { presentmentCurrency, refundableMinor } from "./plan";
import { recordView } from "./records.server";
import { resendRefund, settleWithoutRefund } from "./recover.server";

const notFound = (what: string) => new Response(`No such ${what} in this shop`, { status: 404 });
const orderGid = (orderId: string) => `gid://shopify/Order/${/^\d+$/.test(orderId) ? orderId : "0"}`;

async function verdictsByRef(shop: string, refs: string[]) {
  const ops = await db.operation.findMany({ where: { shop, refundGid: { in: refs } }, select: { id: true, refundGid: true, status: true, reason: true } });
  return new Map(ops.map((op) => [op.refundGid, op]));
}

/** The refund form's data: the order as Shopify has it now (in the currency the customer paid in), and the attempts made from the app. */
export async function refundFormData(shop: string, orderId: string) {
  const answer = await loadOrderForRefund(interactiveGateway(), shop, orderGid(orderId));
  if (!answer.ok) throw new Response(`Shopify did not answer (${answer.message}). Try again in a moment.`, { status: 502 });
  const order = answer.data;
  if (!order) throw notFound("order");
  const currency = presentmentCurrency(order);
  const records = await db.refundRecord.findMany({ where: { shop, orderId: order.id }, orderBy: { createdAt: "desc" } });
  const verdicts = await verdictsByRef(shop, records.flatMap((r) => (r.refundRef ? [r.refundRef] : [])));
  const unsettled = await unsettledRecord(db, shop, order.id);
  return {
    order: {
      id: order.id,
      legacyId: orderId,
      name: order.name,
      currency,
      shopCurrency: order.currencyCode,
      refunded: order.totalRefundedSet.presentmentMoney.amount,
      refundable: fromMinorUnits(refundableMinor(order), currency),
    },
    records: records.map((r) => {
      const op = r.refundRef ? verdicts.get(r.refundRef) : undefined;
      return {
        ...recordView(r, op ? { status: op.status, reason: op.reason } : null),
        operationId: op?.id ?? null,
        amount: fromMinorUnits(r.amountMinor, r.currency),
        shopAmount: r.shopAmountMinor !== null && r.shopCurrency ? fromMinorUnits(r.shopAmountMinor, r.shopCurrency) : null,
      };
    }),
    unsettledSysId: unsettled?.sysId ?? null,
    // Any verdict on the order in which a duplicate held, whatever its first reason was.
    duplicateOnOrder: Boolean(await db.operationReason.findFirst({ where: { shop, reason: "duplicate_refund_present", operation: { orderGid: order.id } }, select: { id: true } })),
  };
}

export async function refundFormAction(shop: string, orderId: string, form: FormData, actor: string, now: Date): Promise<IssueResult> {
  const gateway = interactiveGateway();
  const recordId = String(form.get("recordId") ?? "");
  const revision = String(form.get("revision") ?? "");
  switch (form.get("intent")) {
    case "resend":
      return resendRefund(db, REFUND_CREATED, gateway, shop, recordId, revision, now);
    case "settle":
      return settleWithoutRefund(db, shop, recordId, revision, actor, now);
    default:
      return issueRefund(db, REFUND_CREATED, gateway, { shop, orderId: orderGid(orderId), amount: String(form.get("amount") ?? ""), note: String(form.get("note") ?? ""), notify: form.get("notify") === "on" }, now);
  }
}

/** GET /app/api/refunds/:id: the record, read-only, for the current shop only. */
export async function refundRecordJson(shop: string, id: string) {
  const record = await db.refundRecord.findFirst({ where: { id, shop } });
  if (!record) throw notFound("refund record");
  const op = record.refundRef ? (await verdictsByRef(shop, [record.refundRef])).get(record.refundRef) : undefined;
  return recordView(record, op ? { status: op.status, reason: op.reason } : null);
}
