import { disputeDetailsSchema, exposureOrderSchema, type DisputeDetails, type ExposureOrder } from "../../exposure/order-exposure";
import type { ShopifyGateway } from "./gateway.server";
import { z } from "zod";
import { DISPUTE_DETAILS_QUERY, ORDER_DISPUTES_QUERY, ORDER_EXPOSURE_QUERY, QUERY_COSTS } from "./documents";
import { readNodes, type NodeRead } from "./nodes.server";

/** The refunds' orders as contract shopify.refund.exposure reads them, by order gid: one nodes(ids:) request per batch of orders. */
export function readOrderExposures(gateway: ShopifyGateway, shop: string, orderGids: string[]): Promise<Map<string, NodeRead<ExposureOrder>>> {
  return readNodes(gateway, shop, ORDER_EXPOSURE_QUERY, orderGids, QUERY_COSTS.orderExposurePerOrder, exposureOrderSchema);
}

/**
 * The details of these disputes, by dispute gid, or "not_granted" when Shopify denies them (the
 * approval scope read_shopify_payments_disputes): what only the details tell stays unknown.
 */
export async function readDisputeDetails(gateway: ShopifyGateway, shop: string, disputeGids: string[]): Promise<Map<string, DisputeDetails> | "not_granted"> {
  const details = new Map<string, DisputeDetails>();
  if (disputeGids.length === 0) return details;
  const reads = await readNodes(gateway, shop, DISPUTE_DETAILS_QUERY, disputeGids, QUERY_COSTS.disputeDetailsPerDispute, disputeDetailsSchema);
  for (const [id, read] of reads) {
    if (!read.ok && read.code === "ACCESS_DENIED") return "not_granted";
    if (read.ok && read.node) details.set(id, read.node);
  }
  return details;
}

const orderDisputeSummaries = z.object({ id: z.string(), disputes: z.array(z.object({ id: z.string(), status: z.string() })) });
export type OrderDisputeSummaries = z.infer<typeof orderDisputeSummaries>;

/** The orders' disputes alone (id and status), by order gid: the daily look, a few points an order. */
export function readOrderDisputes(gateway: ShopifyGateway, shop: string, orderGids: string[]): Promise<Map<string, NodeRead<OrderDisputeSummaries>>> {
  return readNodes(gateway, shop, ORDER_DISPUTES_QUERY, orderGids, QUERY_COSTS.orderDisputesPerOrder, orderDisputeSummaries);
}
