/**
 * The refund_readback channel's query: `nodes(ids:)` with the selection a `refund(id:)` read
 * would make, so one request reads back many refunds. Each node is re-shaped as the body of
 * `refund(id:)` ({ data: { refund } }), which is what the contract's paths read.
 */
export const REFUND_READBACK_QUERY = `#graphql
query RefundReadback($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on Refund {
      id
      createdAt
      order { id name }
      totalRefundedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
      transactions(first: 5) {
        nodes { id kind status gateway errorCode processedAt amountSet { shopMoney { amount currencyCode } } }
      }
    }
  }
}`;

export const MAX_IDS_PER_REQUEST = 250;
export const MAX_QUERY_COST = 1000;
/** Before the first answer tells us the real figure: Shopify's rules give about 22 points a refund for this selection. */
export const INITIAL_COST_PER_REFUND = 25;

export function batchSize(costPerRefund: number): number {
  return Math.max(1, Math.min(MAX_IDS_PER_REQUEST, Math.floor(MAX_QUERY_COST / Math.max(1, costPerRefund))));
}

export interface QueryCost {
  requestedQueryCost?: number;
  actualQueryCost?: number | null;
  throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

export function refundBody(node: unknown, cost: QueryCost | undefined) {
  return { data: { refund: node ?? null }, ...(cost ? { extensions: { cost } } : {}) };
}
