/** The order as the refund form and the capacity check need it (2025-07). */
export const ORDER_FOR_REFUND_QUERY = `#graphql
query OrderForRefund($id: ID!) {
  order(id: $id) {
    id
    name
    currencyCode
    totalRefundedSet { shopMoney { amount currencyCode } }
    suggestedRefund(suggestFullRefund: true) {
      maximumRefundableSet { shopMoney { amount currencyCode } }
      suggestedTransactions { gateway maximumRefundableSet { shopMoney { amount currencyCode } } parentTransaction { id kind gateway createdAt } }
    }
  }
}`;

export const REFUND_CREATE_MUTATION = `#graphql
mutation RefundCreate($input: RefundInput!) {
  refundCreate(input: $input) {
    refund { id createdAt totalRefundedSet { shopMoney { amount currencyCode } } transactions(first: 2) { nodes { id kind status gateway } } }
    userErrors { field message }
  }
}`;

/** The order's refunds, for adopting the one a lost call created (the contract's fingerprint correlation). */
export const ORDER_REFUNDS_QUERY = `#graphql
query OrderRefunds($id: ID!) {
  order(id: $id) {
    id
    refunds(first: 30) { id createdAt totalRefundedSet { shopMoney { amount currencyCode } } }
  }
}`;

export const FIND_ORDER_QUERY = `#graphql
query FindOrder($query: String!) {
  orders(first: 5, query: $query) { nodes { id name createdAt currencyCode totalPriceSet { shopMoney { amount currencyCode } } } }
}`;

export interface OrderForRefund {
  id: string;
  name: string;
  currencyCode: string;
  totalRefundedSet: { shopMoney: { amount: string; currencyCode: string } };
  suggestedRefund: {
    maximumRefundableSet: { shopMoney: { amount: string; currencyCode: string } };
    suggestedTransactions: { gateway: string | null; maximumRefundableSet: { shopMoney: { amount: string } } | null; parentTransaction: { id: string; kind: string; gateway: string | null; createdAt: string } | null }[];
  } | null;
}
