/**
 * What the app answers the order page's block (GET /app/api/orders/:orderId/refunds): the server
 * (`orderRefunds`, app/screens/order-block.server.ts) and the block (extensions/order-refund-verdicts)
 * both use this type. Types only: the block's bundle gets nothing from here.
 */
export interface OrderRefundsResponse {
  /** The order's global id. */
  order: string;
  refunds: {
    /** The operation's id: the evidence page is app/refunds/:id. */
    id: string;
    amount: string | null;
    currency: string | null;
    status: string;
    /** Every reason that held, in a merchant's words. */
    reasonText: string;
    reviewState: string;
    /** "fingerprint" when matched by order and amount only. Optional for a block newer than the app answering it. */
    correlation?: string;
    /** Where it was made and by whom, in a merchant's words ("Made in Shopify admin by Dana Whitfield"). Optional for a block newer than the app. */
    made?: string;
    /** Why this verified refund's money is at risk of being paid twice, with the amount, in a merchant's words; absent when it is not. Optional for a block newer than the app. */
    atRiskTwice?: string;
  }[];
  /** Some verdict on the order found a duplicate refund (whatever its first reason). */
  doNotRetry?: boolean;
}
