import db from "../db.server";
import { REFUND_CREATED } from "../contracts/registry.server";
import { interactiveGateway } from "../shopify.server";
import { formatMoney } from "../lib/money/currency";
import { duplicateGroupsIn } from "../review/review.server";
import { loadRefundDetail } from "./detail.server";

const notFound = () => new Response("No such refund in this shop", { status: 404 });

/** The detail page's data; another shop's refund id is a 404, never data. */
export async function refundDetail(shop: string, id: string, now: Date) {
  const detail = await loadRefundDetail(db, interactiveGateway(), REFUND_CREATED, shop, id, now);
  if (!detail) throw notFound();
  // The other refunds of its duplicate pair still in the queue: resolving this one resolves them too.
  const group = (await duplicateGroupsIn(db, shop, ["open"], [detail.refund.orderGid])).find((g) => g.some((m) => m.id === id)) ?? [];
  const others = group.length ? await db.operation.findMany({ where: { shop, id: { in: group.filter((m) => m.id !== id).map((m) => m.id) } } }) : [];
  const pairedWith = others
    .sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime())
    .map((op) => ({
      id: op.id,
      amountDisplay: op.amountMinor !== null && op.currency ? formatMoney(op.amountMinor, op.currency) : op.amount,
      currency: op.currency,
      startedAt: op.startedAt.toISOString(),
    }));
  return { ...detail, pairedWith };
}
