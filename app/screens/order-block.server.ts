import type { PrismaClient } from "@prisma/client";
import { contractOf, REFUND_CREATED } from "../contracts/registry.server";
import { reasonFacts, toRow } from "../verdicts/rows.server";
import { DUPLICATE_REASONS, reasonInWords } from "../verdicts/words";
import type { OrderRefundsResponse } from "../verdicts/order-block";
import { atRiskTwiceOf, type AtRiskTwice } from "../exposure/shown.server";
import { withMakers } from "../verdicts/made.server";
import { NOT_AN_ORDER_ADDRESS, orderGidInAddress } from "../shopify/ids";
import type { ScreenContext } from "./context.server";

/**
 * GET /app/api/orders/:orderId/refunds, for the order-page block: this shop's verdicts for one
 * order. The block's ID token authenticates; CORS lets the admin read it. Another spelling of an
 * order's number is no order: answered as such, not as an order without refunds.
 */
export async function load({ db, shop, params, cors }: ScreenContext): Promise<Response> {
  const order = orderGidInAddress(params.orderId);
  if (!order) return cors(new Response(NOT_AN_ORDER_ADDRESS, { status: 404 }));
  return cors(Response.json(await orderRefunds(db, shop, order)));
}

/** One order's refunds and verdicts (`order` is its gid, read at the door); an unknown or foreign order has none. */
async function orderRefunds(db: PrismaClient, shop: string, order: string): Promise<OrderRefundsResponse> {
  const operations = await db.operation.findMany({ where: { shop, orderGid: order }, orderBy: { startedAt: "asc" }, take: 64, include: { reasonRows: true } });
  const contract = REFUND_CREATED.contract;
  const atRisk = await atRiskTwiceOf(
    db,
    shop,
    operations.map((op) => op.id),
  );
  // Where each refund was made, the staff member by the name Shopify gave (decision 031).
  const rows = await withMakers(
    db,
    shop,
    operations.map((op) => toRow(contract, op)),
  );
  return {
    order,
    refunds: operations.map((op, i) => {
      const row = rows[i];
      // Every contradiction and rule that held, in words, not only the first.
      const texts = op.reasonRows.map((r) => reasonInWords(contractOf(contract, op), op.status, r.reason, reasonFacts(op)));
      return {
        id: row.id,
        amount: row.amount,
        currency: row.currency,
        status: row.status,
        reasonText: texts.length ? texts.join(" ") : row.reasonText,
        reviewState: row.reviewState,
        correlation: row.correlation,
        made: row.made,
        ...atRiskTwiceText(atRisk.get(op.id)),
      };
    }),
    doNotRetry: operations.some((op) => op.reasonRows.some((r) => DUPLICATE_REASONS.includes(r.reason))),
  };
}

function atRiskTwiceText(risk: AtRiskTwice | undefined): { atRiskTwice?: string } {
  if (!risk) return {};
  return { atRiskTwice: risk.atRisk ? `${risk.atRisk} at risk twice. ${risk.reasonText}` : risk.reasonText };
}
