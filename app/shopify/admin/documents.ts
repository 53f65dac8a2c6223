/**
 * Every GraphQL document the app sends to the Admin API (2026-10). `npm run graphql-codegen` types
 * them into `types/admin.generated.d.ts`; a test validates each against the vendored schema and
 * checks the cost constants below against the fake Shopify's cost calculator.
 */

/**
 * The refund_readback channel: `nodes(ids:)` with the selection a `refund(id:)` read would make,
 * so one request reads back many refunds. Every transaction is read: a refund with more than
 * REFUND_TRANSACTIONS_PAGE of them is completed with REFUND_TRANSACTIONS_QUERY. The order's
 * refunds (a list, priced as one element) are Shopify's record for contract 1.2.0's duplicates.
 * The order's last MADE_BY_AGREEMENTS agreements say which app made the refund (decision 031:
 * RefundAgreement.app, "the application that created the agreement", read_orders; the staff member
 * who made it is a StaffMember, which needs read_users, so it is not asked): 11 points a refund.
 */
export const REFUND_READBACK_QUERY = `#graphql
  query RefundReadback($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Refund {
        id
        createdAt
        order {
          id
          name
          refunds { id createdAt totalRefundedSet { presentmentMoney { amount currencyCode } } }
          agreements(last: 3) { nodes { ... on RefundAgreement { refund { id } app { apiKey title } } } }
        }
        totalRefundedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
        transactions(first: 5) {
          nodes { id kind status gateway errorCode processedAt }
          pageInfo { hasNextPage endCursor }
        }
      }
    }
  }
`;
export const REFUND_TRANSACTIONS_PAGE = 5;
/**
 * How many of an order's latest agreements the read-back reads for the refund's own (its first read
 * comes a second after the refund: a refund made three times within that second is still found).
 */
export const MADE_BY_AGREEMENTS = 3;

export const REFUND_TRANSACTIONS_QUERY = `#graphql
  query RefundTransactions($id: ID!, $after: String) {
    node(id: $id) {
      ... on Refund {
        transactions(first: 50, after: $after) {
          nodes { id kind status gateway errorCode processedAt }
          pageInfo { hasNextPage endCursor }
        }
      }
    }
  }
`;

/**
 * The order as the refund form and the capacity check need it, in both currencies, and what puts a
 * further refund at risk of paying twice (issue 43): what the customer paid, the disputes' summaries
 * (read_orders) and the order's transactions, among them the refunds to store credit (a REFUND of the
 * store-credit gateway). `transactions` without `first` is every one, priced as one element.
 */
export const ORDER_FOR_REFUND_QUERY = `#graphql
  query OrderForRefund($id: ID!) {
    order(id: $id) {
      id
      name
      currencyCode
      presentmentCurrencyCode
      totalRefundedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
      totalReceivedSet { presentmentMoney { amount currencyCode } }
      disputes { id status initiatedAs }
      transactions { id kind status gateway amountSet { presentmentMoney { amount currencyCode } } }
      suggestedRefund(suggestFullRefund: true) {
        maximumRefundableSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
        suggestedTransactions {
          gateway
          maximumRefundableSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
          parentTransaction { id kind gateway createdAt }
        }
      }
    }
  }
`;

/** From 2026-04 Shopify refuses refundCreate without an idempotency key; the key is the refund record's id. */
export const REFUND_CREATE_MUTATION = `#graphql
  mutation RefundCreate($input: RefundInput!, $idempotencyKey: String!) {
    refundCreate(input: $input) @idempotent(key: $idempotencyKey) {
      refund {
        id
        createdAt
        totalRefundedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
        transactions(first: 5) { nodes { id kind status gateway } }
      }
      userErrors { field message }
    }
  }
`;

/**
 * Every refund of one order. `Order.refunds` is a plain list with no cursor: without `first` it
 * returns them all, so an order with 70 refunds is read whole in one request.
 */
export const ORDER_REFUNDS_QUERY = `#graphql
  query OrderRefunds($id: ID!) {
    order(id: $id) {
      id
      name
      refunds {
        id
        createdAt
        totalRefundedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
        transactions(first: 5) {
          nodes { kind status amountSet { presentmentMoney { amount currencyCode } } }
          pageInfo { hasNextPage }
        }
      }
    }
  }
`;

/**
 * Orders updated since the sweep's cursor, with their first refunds and what those refunded (the
 * REFUND transactions, as a webhook states it). An order whose list comes back full
 * (SWEEP_REFUNDS_PER_ORDER) may hold more, and is read whole with ORDER_REFUNDS_QUERY.
 */
export const REFUND_SWEEP_QUERY = `#graphql
  query RefundSweep($query: String!, $after: String) {
    orders(first: 10, after: $after, query: $query, sortKey: UPDATED_AT) {
      nodes {
        id
        name
        updatedAt
        refunds(first: 5) {
          id
          createdAt
          transactions(first: 5) {
            nodes { kind status amountSet { presentmentMoney { amount currencyCode } } }
            pageInfo { hasNextPage }
          }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`;
export const SWEEP_REFUNDS_PER_ORDER = 5;

/**
 * The names people know orders by (#1340), for orders whose refunds the app has not read back
 * (new, or never shown by Shopify): nodes(ids:), priced per id, up to 250 a request.
 */
export const ORDER_NAMES_QUERY = `#graphql
  query OrderNames($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Order { id name }
    }
  }
`;

/** What the screens need of the shop itself: its time zone (dates are shown in it) and its currency. */
export const SHOP_PROFILE_QUERY = `#graphql
  query ShopProfile {
    shop { name ianaTimezone currencyCode }
  }
`;

/** Starts the shop's workflows that use one of the app's Flow triggers (extensions/flow-refund-*). */
export const FLOW_TRIGGER_RECEIVE_MUTATION = `#graphql
  mutation FlowTriggerReceive($handle: String!, $payload: JSON!) {
    flowTriggerReceive(handle: $handle, payload: $payload) {
      userErrors {
        field
        message
      }
    }
  }
`;

/** Starts a bulk query (the history backfill's read of the shop's orders); JSONL written ungrouped, as Shopify recommends. */
export const BULK_QUERY_RUN_MUTATION = `#graphql
  mutation BulkQueryRun($query: String!) {
    bulkOperationRunQuery(query: $query, groupObjects: false) {
      bulkOperation { id status }
      userErrors { field message code }
    }
  }
`;

/** Where a bulk operation stands, and its result's URL once it has one. */
export const BULK_OPERATION_STATE_QUERY = `#graphql
  query BulkOperationState($id: ID!) {
    node(id: $id) {
      ... on BulkOperation { id status errorCode objectCount rootObjectCount url partialDataUrl createdAt completedAt }
    }
  }
`;

/**
 * The bulk query of the history backfill (the text `bulkOperationRunQuery` runs, not a document
 * the app sends itself). Refunds are reached through the orders' refund agreements: `Order.refunds`
 * is a plain list, and Shopify refuses "a connection field within a list field", so a refund's
 * `transactions` could not be read beneath it. An agreement is a connection node, its refund an
 * object, and the refund's transactions a connection two levels down: within the bulk limits.
 * The agreement's app and the transactions' POS device say where the refund was made (decision 031).
 */
export function historyBulkQuery(since: Date): string {
  return `{
  orders(query: "updated_at:>='${since.toISOString()}'", sortKey: UPDATED_AT) {
    edges { node {
      id
      agreements { edges { node {
        id
        ... on RefundAgreement {
          app { apiKey title }
          refund {
            id
            createdAt
            order { id name }
            totalRefundedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
            transactions { edges { node { id kind status gateway errorCode processedAt device { id } amountSet { presentmentMoney { amount currencyCode } } } } }
          }
        }
      } } }
    } }
  }
}`;
}

/**
 * Contract shopify.refund.settled's refund_transactions channel: the refunds' transactions read
 * by id (`nodes(ids:)`, priced per id: 6 points a transaction, where reading each refund with its
 * transactions would price 5 transaction slots a refund), with what the ledger is joined on (the
 * transaction's id and amount in both currencies) and the card network's reference.
 * `shopifyPaymentsSet` is "available only to stores on a Shopify Plus plan": elsewhere it is
 * null, and the ARN is never known.
 */
export const SETTLEMENT_TRANSACTIONS_QUERY = `#graphql
  query SettlementTransactions($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on OrderTransaction {
        id
        kind
        status
        gateway
        processedAt
        amountSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
        shopifyPaymentsSet { refundSet { acquirerReferenceNumber } }
      }
    }
  }
`;

/**
 * The payments_ledger channel: one page of Shopify Payments' refund balance transactions (and
 * reversals) processed since the earliest refund of the batch. The search syntax cannot name an
 * order transaction, so many refunds share a page and are matched by sourceOrderTransactionId.
 * `shopifyPaymentsAccount` is null for a shop without Shopify Payments, and ACCESS_DENIED without
 * read_shopify_payments_accounts (the account) or read_shopify_payments_payouts (its ledger).
 */
export const PAYMENTS_LEDGER_QUERY = `#graphql
  query PaymentsLedger($query: String!, $after: String) {
    shopifyPaymentsAccount {
      id
      balanceTransactions(first: 100, after: $after, query: $query, sortKey: PROCESSED_AT) {
        nodes {
          id
          type
          sourceOrderTransactionId
          transactionDate
          amount { amount currencyCode }
          associatedPayout { id status }
        }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`;
export const LEDGER_PAGE = 100;

/**
 * Whether the shop has a Shopify Payments account at all (null: it uses other gateways only), and
 * when it is paid out: its payout schedule and its country (whose pay period Shopify documents),
 * read with the account once a day for the late-money rule (decision 032). Every field needs what
 * the account needs: read_shopify_payments_accounts (payoutSchedule also takes _payouts).
 */
export const PAYMENTS_ACCOUNT_QUERY = `#graphql
  query PaymentsAccount {
    shopifyPaymentsAccount {
      id
      activated
      country
      payoutSchedule { interval weeklyAnchor monthlyAnchor }
    }
  }
`;

/**
 * The access scopes the shop has granted this app, read with the shop's own token: what the app
 * stores as granted (app/scopes_update only says that they may have changed; its body is not
 * believed, since anyone holding one signed delivery can replay it under another shop's header).
 */
export const GRANTED_SCOPES_QUERY = `#graphql
  query GrantedScopes {
    currentAppInstallation { accessScopes { handle } }
  }
`;

/**
 * Requested costs by Shopify's published rules (objects 1, connections 2 + first × nodes, lists
 * with `first` first × element, `nodes(ids:)` per id, mutations 10 + selection). A test computes
 * each with the fake Shopify's calculator, so these cannot drift from the documents above.
 */
/**
 * Contract shopify.refund.exposure's read of a refund's order (decision 028): what the customer
 * paid, its disputes (summaries: read_orders), and every refund with its transactions (store
 * credit is a transaction of its own gateway) and refunded line items. nodes(ids:), priced per
 * order; a list without `first` (disputes, refunds) is priced as one element.
 */
export const ORDER_EXPOSURE_QUERY = `#graphql
  query OrderExposure($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Order {
        id
        totalReceivedSet { presentmentMoney { amount currencyCode } }
        disputes { id status initiatedAs }
        refunds {
          id
          createdAt
          totalRefundedSet { presentmentMoney { amount currencyCode } }
          transactions(first: 5) { nodes { kind status gateway amountSet { presentmentMoney { amount currencyCode } } } }
          refundLineItems(first: 10) { nodes { quantity lineItem { id quantity } } }
        }
      }
    }
  }
`;

/**
 * The daily look at a judged refund's order for money at risk twice: its disputes alone (`read_orders`),
 * a few points an order. An order whose disputes changed is read whole (ORDER_EXPOSURE_QUERY).
 */
export const ORDER_DISPUTES_QUERY = `#graphql
  query OrderDisputes($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Order { id disputes { id status } }
    }
  }
`;

/** The details of an order's disputes (approval scope read_shopify_payments_disputes), for the orders that have any. */
export const DISPUTE_DETAILS_QUERY = `#graphql
  query DisputeDetails($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on ShopifyPaymentsDispute {
        id
        status
        amount { amount currencyCode }
        reasonDetails { reason }
        initiatedAt
        evidenceDueBy
        finalizedOn
      }
    }
  }
`;

/**
 * A dispute's evidence, to add the refund's proof to it (issue 43): its id (what disputeEvidenceUpdate
 * takes), whether it was already submitted, and the uncategorized text the proof is added to, so
 * what the merchant wrote there stays. Needs read_shopify_payments_disputes (the dispute) and
 * read_shopify_payments_dispute_evidences (its evidence; a write_ grant includes it).
 */
export const DISPUTE_EVIDENCE_QUERY = `#graphql
  query DisputeEvidence($id: ID!) {
    node(id: $id) {
      ... on ShopifyPaymentsDispute { id status disputeEvidence { id submitted uncategorizedText } }
    }
  }
`;

/**
 * Saves the refund's proof in the dispute's evidence (write_shopify_payments_dispute_evidences).
 * submitEvidence false: the merchant submits the evidence in Shopify admin, with everything else
 * the bank asks for; the app only writes the part it holds.
 */
export const DISPUTE_PROOF_ADD_MUTATION = `#graphql
  mutation DisputeProofAdd($id: ID!, $input: ShopifyPaymentsDisputeEvidenceUpdateInput!) {
    disputeEvidenceUpdate(id: $id, input: $input) {
      disputeEvidence { id uncategorizedText }
      userErrors { code field message }
    }
  }
`;

export const QUERY_COSTS = {
  /** Per refund in RefundReadback: nodes(ids:) is priced per id; 11 of it the order's last 3 agreements (2 + 3 × the agreement, its refund and its app). */
  refundReadbackPerRefund: 27,
  refundTransactions: 54,
  /** The order, what it was paid, its disputes and every transaction (a list without `first` is priced as one element). */
  orderForRefund: 19,
  refundCreate: 22,
  /** The order and one refund (a list without `first` is priced as one element; the fake counts every refund returned in the actual cost). */
  orderRefunds: 23,
  refundSweep: 963,
  shopProfile: 1,
  /** Per order in OrderNames: nodes(ids:) is priced per id. */
  orderNamesPerOrder: 1,
  /** 10 for a mutation, 1 for its userErrors. */
  flowTriggerReceive: 11,
  /** 10 for a mutation, 1 each for the operation and its userErrors. */
  bulkQueryRun: 12,
  bulkOperationState: 1,
  /** Per transaction in SettlementTransactions: nodes(ids:) is priced per id. */
  settlementTransactionsPerTransaction: 6,
  /** A page of LEDGER_PAGE balance transactions: 2 for the connection, 3 an entry (itself, its amount, its payout), 1 for the account and 1 for pageInfo. */
  paymentsLedger: 304,
  /** 1 for the account, 1 for its payout schedule. */
  paymentsAccount: 2,
  grantedScopes: 2,
  /** Per order in OrderExposure: nodes(ids:) is priced per id. */
  orderExposurePerOrder: 46,
  /** Per order in OrderDisputes. */
  orderDisputesPerOrder: 2,
  /** Per dispute in DisputeDetails. */
  disputeDetailsPerDispute: 3,
  /** One dispute and its evidence. */
  disputeEvidence: 2,
  /** 10 for a mutation, 1 each for the evidence and its userErrors. */
  disputeProofAdd: 12,
} as const;
