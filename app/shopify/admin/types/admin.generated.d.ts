/* eslint-disable eslint-comments/disable-enable-pair */
/* eslint-disable eslint-comments/no-unlimited-disable */
/* eslint-disable */
import type * as AdminTypes from './admin.types.js';

export type RefundReadbackQueryVariables = AdminTypes.Exact<{
  ids: Array<AdminTypes.Scalars['ID']['input']> | AdminTypes.Scalars['ID']['input'];
}>;


export type RefundReadbackQuery = { nodes: Array<AdminTypes.Maybe<(
    Pick<AdminTypes.Refund, 'id' | 'createdAt'>
    & { order: (
      Pick<AdminTypes.Order, 'id' | 'name'>
      & { refunds: Array<(
        Pick<AdminTypes.Refund, 'id' | 'createdAt'>
        & { totalRefundedSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> } }
      )>, agreements: { nodes: Array<{ refund: Pick<AdminTypes.Refund, 'id'>, app?: AdminTypes.Maybe<Pick<AdminTypes.App, 'apiKey' | 'title'>> }> } }
    ), totalRefundedSet: { shopMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'>, presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, transactions: { nodes: Array<Pick<AdminTypes.OrderTransaction, 'id' | 'kind' | 'status' | 'gateway' | 'errorCode' | 'processedAt'>>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'> } }
  )>> };

export type RefundTransactionsQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type RefundTransactionsQuery = { node?: AdminTypes.Maybe<{ transactions: { nodes: Array<Pick<AdminTypes.OrderTransaction, 'id' | 'kind' | 'status' | 'gateway' | 'errorCode' | 'processedAt'>>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'> } }> };

export type OrderForRefundQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type OrderForRefundQuery = { order?: AdminTypes.Maybe<(
    Pick<AdminTypes.Order, 'id' | 'name' | 'currencyCode' | 'presentmentCurrencyCode'>
    & { totalRefundedSet: { shopMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'>, presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, totalReceivedSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, disputes: Array<Pick<AdminTypes.OrderDisputeSummary, 'id' | 'status' | 'initiatedAs'>>, transactions: Array<(
      Pick<AdminTypes.OrderTransaction, 'id' | 'kind' | 'status' | 'gateway'>
      & { amountSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> } }
    )>, suggestedRefund?: AdminTypes.Maybe<{ maximumRefundableSet: { shopMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'>, presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, suggestedTransactions: Array<(
        Pick<AdminTypes.SuggestedOrderTransaction, 'gateway'>
        & { maximumRefundableSet?: AdminTypes.Maybe<{ shopMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'>, presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }>, parentTransaction?: AdminTypes.Maybe<Pick<AdminTypes.OrderTransaction, 'id' | 'kind' | 'gateway' | 'createdAt'>> }
      )> }> }
  )> };

export type RefundCreateMutationVariables = AdminTypes.Exact<{
  input: AdminTypes.RefundInput;
  idempotencyKey: AdminTypes.Scalars['String']['input'];
}>;


export type RefundCreateMutation = { refundCreate?: AdminTypes.Maybe<{ refund?: AdminTypes.Maybe<(
      Pick<AdminTypes.Refund, 'id' | 'createdAt'>
      & { totalRefundedSet: { shopMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'>, presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, transactions: { nodes: Array<Pick<AdminTypes.OrderTransaction, 'id' | 'kind' | 'status' | 'gateway'>> } }
    )>, userErrors: Array<Pick<AdminTypes.UserError, 'field' | 'message'>> }> };

export type OrderRefundsQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type OrderRefundsQuery = { order?: AdminTypes.Maybe<(
    Pick<AdminTypes.Order, 'id' | 'name'>
    & { refunds: Array<(
      Pick<AdminTypes.Refund, 'id' | 'createdAt'>
      & { totalRefundedSet: { shopMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'>, presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, transactions: { nodes: Array<(
          Pick<AdminTypes.OrderTransaction, 'kind' | 'status'>
          & { amountSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> } }
        )>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage'> } }
    )> }
  )> };

export type RefundSweepQueryVariables = AdminTypes.Exact<{
  query: AdminTypes.Scalars['String']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type RefundSweepQuery = { orders: { nodes: Array<(
      Pick<AdminTypes.Order, 'id' | 'name' | 'updatedAt'>
      & { refunds: Array<(
        Pick<AdminTypes.Refund, 'id' | 'createdAt'>
        & { transactions: { nodes: Array<(
            Pick<AdminTypes.OrderTransaction, 'kind' | 'status'>
            & { amountSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> } }
          )>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage'> } }
      )> }
    )>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'> } };

export type OrderNamesQueryVariables = AdminTypes.Exact<{
  ids: Array<AdminTypes.Scalars['ID']['input']> | AdminTypes.Scalars['ID']['input'];
}>;


export type OrderNamesQuery = { nodes: Array<AdminTypes.Maybe<Pick<AdminTypes.Order, 'id' | 'name'>>> };

export type ShopProfileQueryVariables = AdminTypes.Exact<{ [key: string]: never; }>;


export type ShopProfileQuery = { shop: Pick<AdminTypes.Shop, 'name' | 'ianaTimezone' | 'currencyCode'> };

export type FlowTriggerReceiveMutationVariables = AdminTypes.Exact<{
  handle: AdminTypes.Scalars['String']['input'];
  payload: AdminTypes.Scalars['JSON']['input'];
}>;


export type FlowTriggerReceiveMutation = { flowTriggerReceive?: AdminTypes.Maybe<{ userErrors: Array<Pick<AdminTypes.UserError, 'field' | 'message'>> }> };

export type BulkQueryRunMutationVariables = AdminTypes.Exact<{
  query: AdminTypes.Scalars['String']['input'];
}>;


export type BulkQueryRunMutation = { bulkOperationRunQuery?: AdminTypes.Maybe<{ bulkOperation?: AdminTypes.Maybe<Pick<AdminTypes.BulkOperation, 'id' | 'status'>>, userErrors: Array<Pick<AdminTypes.BulkOperationUserError, 'field' | 'message' | 'code'>> }> };

export type BulkOperationStateQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type BulkOperationStateQuery = { node?: AdminTypes.Maybe<Pick<AdminTypes.BulkOperation, 'id' | 'status' | 'errorCode' | 'objectCount' | 'rootObjectCount' | 'url' | 'partialDataUrl' | 'createdAt' | 'completedAt'>> };

export type SettlementTransactionsQueryVariables = AdminTypes.Exact<{
  ids: Array<AdminTypes.Scalars['ID']['input']> | AdminTypes.Scalars['ID']['input'];
}>;


export type SettlementTransactionsQuery = { nodes: Array<AdminTypes.Maybe<(
    Pick<AdminTypes.OrderTransaction, 'id' | 'kind' | 'status' | 'gateway' | 'processedAt'>
    & { amountSet: { shopMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'>, presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, shopifyPaymentsSet?: AdminTypes.Maybe<{ refundSet?: AdminTypes.Maybe<Pick<AdminTypes.ShopifyPaymentsRefundSet, 'acquirerReferenceNumber'>> }> }
  )>> };

export type PaymentsLedgerQueryVariables = AdminTypes.Exact<{
  query: AdminTypes.Scalars['String']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type PaymentsLedgerQuery = { shopifyPaymentsAccount?: AdminTypes.Maybe<(
    Pick<AdminTypes.ShopifyPaymentsAccount, 'id'>
    & { balanceTransactions: { nodes: Array<(
        Pick<AdminTypes.ShopifyPaymentsBalanceTransaction, 'id' | 'type' | 'sourceOrderTransactionId' | 'transactionDate'>
        & { amount: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'>, associatedPayout: Pick<AdminTypes.ShopifyPaymentsBalanceTransactionAssociatedPayout, 'id' | 'status'> }
      )>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'> } }
  )> };

export type PaymentsAccountQueryVariables = AdminTypes.Exact<{ [key: string]: never; }>;


export type PaymentsAccountQuery = { shopifyPaymentsAccount?: AdminTypes.Maybe<(
    Pick<AdminTypes.ShopifyPaymentsAccount, 'id' | 'activated' | 'country'>
    & { payoutSchedule: Pick<AdminTypes.ShopifyPaymentsPayoutSchedule, 'interval' | 'weeklyAnchor' | 'monthlyAnchor'> }
  )> };

export type GrantedScopesQueryVariables = AdminTypes.Exact<{ [key: string]: never; }>;


export type GrantedScopesQuery = { currentAppInstallation: { accessScopes: Array<Pick<AdminTypes.AccessScope, 'handle'>> } };

export type OrderExposureQueryVariables = AdminTypes.Exact<{
  ids: Array<AdminTypes.Scalars['ID']['input']> | AdminTypes.Scalars['ID']['input'];
}>;


export type OrderExposureQuery = { nodes: Array<AdminTypes.Maybe<(
    Pick<AdminTypes.Order, 'id'>
    & { totalReceivedSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, disputes: Array<Pick<AdminTypes.OrderDisputeSummary, 'id' | 'status' | 'initiatedAs'>>, refunds: Array<(
      Pick<AdminTypes.Refund, 'id' | 'createdAt'>
      & { totalRefundedSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, transactions: { nodes: Array<(
          Pick<AdminTypes.OrderTransaction, 'kind' | 'status' | 'gateway'>
          & { amountSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> } }
        )> }, refundLineItems: { nodes: Array<(
          Pick<AdminTypes.RefundLineItem, 'quantity'>
          & { lineItem: Pick<AdminTypes.LineItem, 'id' | 'quantity'> }
        )> } }
    )> }
  )>> };

export type OrderDisputesQueryVariables = AdminTypes.Exact<{
  ids: Array<AdminTypes.Scalars['ID']['input']> | AdminTypes.Scalars['ID']['input'];
}>;


export type OrderDisputesQuery = { nodes: Array<AdminTypes.Maybe<(
    Pick<AdminTypes.Order, 'id'>
    & { disputes: Array<Pick<AdminTypes.OrderDisputeSummary, 'id' | 'status'>> }
  )>> };

export type DisputeDetailsQueryVariables = AdminTypes.Exact<{
  ids: Array<AdminTypes.Scalars['ID']['input']> | AdminTypes.Scalars['ID']['input'];
}>;


export type DisputeDetailsQuery = { nodes: Array<AdminTypes.Maybe<(
    Pick<AdminTypes.ShopifyPaymentsDispute, 'id' | 'status' | 'initiatedAt' | 'evidenceDueBy' | 'finalizedOn'>
    & { amount: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'>, reasonDetails: Pick<AdminTypes.ShopifyPaymentsDisputeReasonDetails, 'reason'> }
  )>> };

export type DisputeEvidenceQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type DisputeEvidenceQuery = { node?: AdminTypes.Maybe<(
    Pick<AdminTypes.ShopifyPaymentsDispute, 'id' | 'status'>
    & { disputeEvidence: Pick<AdminTypes.ShopifyPaymentsDisputeEvidence, 'id' | 'submitted' | 'uncategorizedText'> }
  )> };

export type DisputeProofAddMutationVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
  input: AdminTypes.ShopifyPaymentsDisputeEvidenceUpdateInput;
}>;


export type DisputeProofAddMutation = { disputeEvidenceUpdate?: AdminTypes.Maybe<{ disputeEvidence?: AdminTypes.Maybe<Pick<AdminTypes.ShopifyPaymentsDisputeEvidence, 'id' | 'uncategorizedText'>>, userErrors: Array<Pick<AdminTypes.DisputeEvidenceUpdateUserError, 'code' | 'field' | 'message'>> }> };

interface GeneratedQueryTypes {
  "#graphql\n  query RefundReadback($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      ... on Refund {\n        id\n        createdAt\n        order {\n          id\n          name\n          refunds { id createdAt totalRefundedSet { presentmentMoney { amount currencyCode } } }\n          agreements(last: 3) { nodes { ... on RefundAgreement { refund { id } app { apiKey title } } } }\n        }\n        totalRefundedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }\n        transactions(first: 5) {\n          nodes { id kind status gateway errorCode processedAt }\n          pageInfo { hasNextPage endCursor }\n        }\n      }\n    }\n  }\n": {return: RefundReadbackQuery, variables: RefundReadbackQueryVariables},
  "#graphql\n  query RefundTransactions($id: ID!, $after: String) {\n    node(id: $id) {\n      ... on Refund {\n        transactions(first: 50, after: $after) {\n          nodes { id kind status gateway errorCode processedAt }\n          pageInfo { hasNextPage endCursor }\n        }\n      }\n    }\n  }\n": {return: RefundTransactionsQuery, variables: RefundTransactionsQueryVariables},
  "#graphql\n  query OrderForRefund($id: ID!) {\n    order(id: $id) {\n      id\n      name\n      currencyCode\n      presentmentCurrencyCode\n      totalRefundedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }\n      totalReceivedSet { presentmentMoney { amount currencyCode } }\n      disputes { id status initiatedAs }\n      transactions { id kind status gateway amountSet { presentmentMoney { amount currencyCode } } }\n      suggestedRefund(suggestFullRefund: true) {\n        maximumRefundableSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }\n        suggestedTransactions {\n          gateway\n          maximumRefundableSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }\n          parentTransaction { id kind gateway createdAt }\n        }\n      }\n    }\n  }\n": {return: OrderForRefundQuery, variables: OrderForRefundQueryVariables},
  "#graphql\n  query OrderRefunds($id: ID!) {\n    order(id: $id) {\n      id\n      name\n      refunds {\n        id\n        createdAt\n        totalRefundedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }\n        transactions(first: 5) {\n          nodes { kind status amountSet { presentmentMoney { amount currencyCode } } }\n          pageInfo { hasNextPage }\n        }\n      }\n    }\n  }\n": {return: OrderRefundsQuery, variables: OrderRefundsQueryVariables},
  "#graphql\n  query RefundSweep($query: String!, $after: String) {\n    orders(first: 10, after: $after, query: $query, sortKey: UPDATED_AT) {\n      nodes {\n        id\n        name\n        updatedAt\n        refunds(first: 5) {\n          id\n          createdAt\n          transactions(first: 5) {\n            nodes { kind status amountSet { presentmentMoney { amount currencyCode } } }\n            pageInfo { hasNextPage }\n          }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": {return: RefundSweepQuery, variables: RefundSweepQueryVariables},
  "#graphql\n  query OrderNames($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      ... on Order { id name }\n    }\n  }\n": {return: OrderNamesQuery, variables: OrderNamesQueryVariables},
  "#graphql\n  query ShopProfile {\n    shop { name ianaTimezone currencyCode }\n  }\n": {return: ShopProfileQuery, variables: ShopProfileQueryVariables},
  "#graphql\n  query BulkOperationState($id: ID!) {\n    node(id: $id) {\n      ... on BulkOperation { id status errorCode objectCount rootObjectCount url partialDataUrl createdAt completedAt }\n    }\n  }\n": {return: BulkOperationStateQuery, variables: BulkOperationStateQueryVariables},
  "#graphql\n  query SettlementTransactions($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      ... on OrderTransaction {\n        id\n        kind\n        status\n        gateway\n        processedAt\n        amountSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }\n        shopifyPaymentsSet { refundSet { acquirerReferenceNumber } }\n      }\n    }\n  }\n": {return: SettlementTransactionsQuery, variables: SettlementTransactionsQueryVariables},
  "#graphql\n  query PaymentsLedger($query: String!, $after: String) {\n    shopifyPaymentsAccount {\n      id\n      balanceTransactions(first: 100, after: $after, query: $query, sortKey: PROCESSED_AT) {\n        nodes {\n          id\n          type\n          sourceOrderTransactionId\n          transactionDate\n          amount { amount currencyCode }\n          associatedPayout { id status }\n        }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": {return: PaymentsLedgerQuery, variables: PaymentsLedgerQueryVariables},
  "#graphql\n  query PaymentsAccount {\n    shopifyPaymentsAccount {\n      id\n      activated\n      country\n      payoutSchedule { interval weeklyAnchor monthlyAnchor }\n    }\n  }\n": {return: PaymentsAccountQuery, variables: PaymentsAccountQueryVariables},
  "#graphql\n  query GrantedScopes {\n    currentAppInstallation { accessScopes { handle } }\n  }\n": {return: GrantedScopesQuery, variables: GrantedScopesQueryVariables},
  "#graphql\n  query OrderExposure($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      ... on Order {\n        id\n        totalReceivedSet { presentmentMoney { amount currencyCode } }\n        disputes { id status initiatedAs }\n        refunds {\n          id\n          createdAt\n          totalRefundedSet { presentmentMoney { amount currencyCode } }\n          transactions(first: 5) { nodes { kind status gateway amountSet { presentmentMoney { amount currencyCode } } } }\n          refundLineItems(first: 10) { nodes { quantity lineItem { id quantity } } }\n        }\n      }\n    }\n  }\n": {return: OrderExposureQuery, variables: OrderExposureQueryVariables},
  "#graphql\n  query OrderDisputes($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      ... on Order { id disputes { id status } }\n    }\n  }\n": {return: OrderDisputesQuery, variables: OrderDisputesQueryVariables},
  "#graphql\n  query DisputeDetails($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      ... on ShopifyPaymentsDispute {\n        id\n        status\n        amount { amount currencyCode }\n        reasonDetails { reason }\n        initiatedAt\n        evidenceDueBy\n        finalizedOn\n      }\n    }\n  }\n": {return: DisputeDetailsQuery, variables: DisputeDetailsQueryVariables},
  "#graphql\n  query DisputeEvidence($id: ID!) {\n    node(id: $id) {\n      ... on ShopifyPaymentsDispute { id status disputeEvidence { id submitted uncategorizedText } }\n    }\n  }\n": {return: DisputeEvidenceQuery, variables: DisputeEvidenceQueryVariables},
}

interface GeneratedMutationTypes {
  "#graphql\n  mutation RefundCreate($input: RefundInput!, $idempotencyKey: String!) {\n    refundCreate(input: $input) @idempotent(key: $idempotencyKey) {\n      refund {\n        id\n        createdAt\n        totalRefundedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }\n        transactions(first: 5) { nodes { id kind status gateway } }\n      }\n      userErrors { field message }\n    }\n  }\n": {return: RefundCreateMutation, variables: RefundCreateMutationVariables},
  "#graphql\n  mutation FlowTriggerReceive($handle: String!, $payload: JSON!) {\n    flowTriggerReceive(handle: $handle, payload: $payload) {\n      userErrors {\n        field\n        message\n      }\n    }\n  }\n": {return: FlowTriggerReceiveMutation, variables: FlowTriggerReceiveMutationVariables},
  "#graphql\n  mutation BulkQueryRun($query: String!) {\n    bulkOperationRunQuery(query: $query, groupObjects: false) {\n      bulkOperation { id status }\n      userErrors { field message code }\n    }\n  }\n": {return: BulkQueryRunMutation, variables: BulkQueryRunMutationVariables},
  "#graphql\n  mutation DisputeProofAdd($id: ID!, $input: ShopifyPaymentsDisputeEvidenceUpdateInput!) {\n    disputeEvidenceUpdate(id: $id, input: $input) {\n      disputeEvidence { id uncategorizedText }\n      userErrors { code field message }\n    }\n  }\n": {return: DisputeProofAddMutation, variables: DisputeProofAddMutationVariables},
}
declare module '@shopify/admin-api-client' {
  type InputMaybe<T> = AdminTypes.InputMaybe<T>;
  interface AdminQueries extends GeneratedQueryTypes {}
  interface AdminMutations extends GeneratedMutationTypes {}
}
