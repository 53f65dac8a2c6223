import { describe, expect, it } from "vitest";
import {
  BULK_OPERATION_STATE_QUERY,
  BULK_QUERY_RUN_MUTATION,
  FLOW_TRIGGER_RECEIVE_MUTATION,
  ORDER_FOR_REFUND_QUERY,
  ORDER_NAMES_QUERY,
  ORDER_REFUNDS_QUERY,
  QUERY_COSTS,
  REFUND_CREATE_MUTATION,
  REFUND_READBACK_QUERY,
  REFUND_SWEEP_QUERY,
  REFUND_TRANSACTIONS_QUERY,
  SHOP_PROFILE_QUERY,
  SETTLEMENT_TRANSACTIONS_QUERY,
  PAYMENTS_LEDGER_QUERY,
  PAYMENTS_ACCOUNT_QUERY,
  GRANTED_SCOPES_QUERY,
  ORDER_EXPOSURE_QUERY,
  DISPUTE_DETAILS_QUERY,
  ORDER_DISPUTES_QUERY,
  DISPUTE_EVIDENCE_QUERY,
  DISPUTE_PROOF_ADD_MUTATION,
} from "../../../app/shopify/admin/documents";
import { batchSize } from "../../../app/shopify/admin/refund-readback.server";
import { requestedQueryCost } from "../../../fake-shopify/cost";

describe("the gateway's query costs are Shopify's, as the fake computes them from the published schema", () => {
  it.each([
    ["refundReadbackPerRefund", REFUND_READBACK_QUERY, { ids: ["gid://shopify/Refund/1"] }],
    ["refundTransactions", REFUND_TRANSACTIONS_QUERY, { id: "gid://shopify/Refund/1" }],
    ["orderForRefund", ORDER_FOR_REFUND_QUERY, { id: "gid://shopify/Order/1" }],
    ["refundCreate", REFUND_CREATE_MUTATION, { input: { orderId: "gid://shopify/Order/1" }, idempotencyKey: "k" }],
    ["orderRefunds", ORDER_REFUNDS_QUERY, { id: "gid://shopify/Order/1" }],
    ["refundSweep", REFUND_SWEEP_QUERY, { query: "updated_at:>='2026-11-30T00:00:00Z'" }],
    ["shopProfile", SHOP_PROFILE_QUERY, {}],
    ["orderNamesPerOrder", ORDER_NAMES_QUERY, { ids: ["gid://shopify/Order/1"] }],
    ["flowTriggerReceive", FLOW_TRIGGER_RECEIVE_MUTATION, { handle: "refund-contradicted", payload: {} }],
    ["bulkQueryRun", BULK_QUERY_RUN_MUTATION, { query: "{ orders { edges { node { id } } } }" }],
    ["bulkOperationState", BULK_OPERATION_STATE_QUERY, { id: "gid://shopify/BulkOperation/1" }],
    ["settlementTransactionsPerTransaction", SETTLEMENT_TRANSACTIONS_QUERY, { ids: ["gid://shopify/OrderTransaction/1"] }],
    ["paymentsLedger", PAYMENTS_LEDGER_QUERY, { query: "transaction_type:refund" }],
    ["paymentsAccount", PAYMENTS_ACCOUNT_QUERY, {}],
    ["grantedScopes", GRANTED_SCOPES_QUERY, {}],
    ["orderExposurePerOrder", ORDER_EXPOSURE_QUERY, { ids: ["gid://shopify/Order/1"] }],
    ["disputeDetailsPerDispute", DISPUTE_DETAILS_QUERY, { ids: ["gid://shopify/ShopifyPaymentsDispute/1"] }],
    ["orderDisputesPerOrder", ORDER_DISPUTES_QUERY, { ids: ["gid://shopify/Order/1"] }],
    ["disputeEvidence", DISPUTE_EVIDENCE_QUERY, { id: "gid://shopify/ShopifyPaymentsDispute/1" }],
    ["disputeProofAdd", DISPUTE_PROOF_ADD_MUTATION, { id: "gid://shopify/ShopifyPaymentsDisputeEvidence/1", input: { uncategorizedText: "x" } }],
  ] as const)("%s", (name, query, variables) => {
    expect(QUERY_COSTS[name]).toBe(requestedQueryCost(query, variables));
  });

  it("a read-back batch stays within Shopify's 1,000-point single-query limit, and nodes(ids:) is priced per id", () => {
    const ids = Array.from({ length: batchSize(QUERY_COSTS.refundReadbackPerRefund) }, (_, i) => `gid://shopify/Refund/${i}`);
    const cost = requestedQueryCost(REFUND_READBACK_QUERY, { ids });
    expect(cost).toBe(ids.length * QUERY_COSTS.refundReadbackPerRefund);
    expect(cost).toBeLessThanOrEqual(1000);
    expect(cost + QUERY_COSTS.refundReadbackPerRefund).toBeGreaterThan(1000);
  });

  it("a sweep page stays within the single-query limit", () => {
    expect(QUERY_COSTS.refundSweep).toBeLessThanOrEqual(1000);
  });
});
