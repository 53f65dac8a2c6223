import { disputeDetailsSchema, exposureOrderSchema, type DisputeDetails, type ExposureOrder } from "./order-exposure";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { z } from "zod";
import { DISPUTE_DETAILS_QUERY, ORDER_DISPUTES_QUERY, ORDER_EXPOSURE_QUERY, QUERY_COSTS } from "../shopify/admin/documents";
import { readNodes, type NodeRead } from "../shopify/admin/nodes.server";

/** The refunds' orders as contract shopify.refund.exposure reads them, by order gid: one nodes(ids:) request per batch of orders. */
export function readOrderExposures(gateway: ShopifyGateway, shop: string, orderGids: string[]): Promise<Map<string, NodeRead<ExposureOrder>>> {
  return readNodes(gateway, shop, { query: ORDER_EXPOSURE_QUERY, perNodeCost: QUERY_COSTS.orderExposurePerOrder, schema: exposureOrderSchema }, orderGids);
}

/**
 * The details of disputes (ShopifyPaymentsDispute, by its gid): each read, not granted
 * (read_shopify_payments_disputes: Shopify's ACCESS_DENIED), not read (Shopify did not answer), or
 * missing (Shopify shows no such dispute). A failure is never read as "no dispute".
 */
export type DisputeDetailsAnswer = { kind: "read"; details: DisputeDetails } | { kind: "not_granted" | "failed" | "missing" };

/** The details of these disputes, by dispute gid: one nodes(ids:) request per batch. */
export async function readDisputeDetails(gateway: ShopifyGateway, shop: string, disputeGids: string[]): Promise<Map<string, DisputeDetailsAnswer>> {
  const answers = new Map<string, DisputeDetailsAnswer>();
  if (!disputeGids.length) return answers;
  const reads = await readNodes(
    gateway,
    shop,
    { query: DISPUTE_DETAILS_QUERY, perNodeCost: QUERY_COSTS.disputeDetailsPerDispute, schema: disputeDetailsSchema },
    disputeGids,
  );
  for (const [gid, read] of reads) {
    if (!read.ok) answers.set(gid, { kind: read.code === "ACCESS_DENIED" ? "not_granted" : "failed" });
    else answers.set(gid, read.node ? { kind: "read", details: read.node } : { kind: "missing" });
  }
  return answers;
}

/**
 * The details read, or "not_granted" when Shopify denied any (the approval scope is the shop's, so
 * one denial says it for all): what only the details tell stays unknown.
 */
export function grantedDetails(answers: Map<string, DisputeDetailsAnswer>): Map<string, DisputeDetails> | "not_granted" {
  const details = new Map<string, DisputeDetails>();
  for (const [gid, answer] of answers) {
    if (answer.kind === "not_granted") return "not_granted";
    if (answer.kind === "read") details.set(gid, answer.details);
  }
  return details;
}

const orderDisputeSummaries = z.object({ id: z.string(), disputes: z.array(z.object({ id: z.string(), status: z.string() })) });
export type OrderDisputeSummaries = z.infer<typeof orderDisputeSummaries>;

/** The orders' disputes alone (id and status), by order gid: the daily look, a few points an order. */
export function readOrderDisputes(gateway: ShopifyGateway, shop: string, orderGids: string[]): Promise<Map<string, NodeRead<OrderDisputeSummaries>>> {
  return readNodes(gateway, shop, { query: ORDER_DISPUTES_QUERY, perNodeCost: QUERY_COSTS.orderDisputesPerOrder, schema: orderDisputeSummaries }, orderGids);
}
