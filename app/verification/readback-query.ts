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
      totalRefundedSet { shopMoney { amount currencyCode } }
      transactions(first: 2) { nodes { id kind status gateway errorCode processedAt } }
    }
  }
}`;

export const MAX_IDS_PER_REQUEST = 250;
export const MAX_QUERY_COST = 1000;
/**
 * Before the first answer tells us the real figure: Shopify's published rules give 8 points a
 * refund for this selection (the refund, its order, the money bag and its shop money, and a
 * two-transaction connection). It selects only what the contract and the screens read.
 */
export const INITIAL_COST_PER_REFUND = 10;

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
