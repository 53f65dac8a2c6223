import { describe, expect, it } from "vitest";
import { requestedQueryCost } from "../../fake-shopify/cost";
import { graphql, orderGid, setup } from "./support";

// The reads issue 43's app side makes, as the brief gives them: priced by the fake's calculator
// like every other field, and answered whole (actual cost within the requested one).
const ORDER_READ = `query OrderRead($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on Order {
      id
      totalReceivedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
      netPaymentSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
      refundDiscrepancySet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
      disputes { id status initiatedAs }
      lineItems(first: 50) { nodes { id quantity } }
      refunds {
        id createdAt totalRefundedSet { presentmentMoney { amount currencyCode } }
        refundLineItems(first: 50) { nodes { quantity lineItem { id } } }
        transactions(first: 10) { nodes { id kind status gateway amountSet { presentmentMoney { amount currencyCode } } } }
      }
    }
  }
}`;

const DISPUTE_READ = `query DisputeRead($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on ShopifyPaymentsDispute {
      id status type amount { amount currencyCode } reasonDetails { reason networkReasonCode }
      evidenceDueBy initiatedAt finalizedOn order { id }
    }
  }
}`;

describe("issue 43's reads in the fake", () => {
  it("cost what the published rules say: nodes per id, connections 2 + first x element, lists without first as one", () => {
    expect(requestedQueryCost(ORDER_READ, { ids: ["gid://shopify/Order/1"] })).toBe(200);
    expect(requestedQueryCost(ORDER_READ, { ids: ["gid://shopify/Order/1", "gid://shopify/Order/2"] })).toBe(400);
    expect(requestedQueryCost(DISPUTE_READ, { ids: ["gid://shopify/ShopifyPaymentsDispute/1"] })).toBe(4);
  });

  it("answer a refund and a chargeback on one order, store credit then cash for the same item, within their requested cost", async () => {
    const { shopify, shop } = setup();
    shop.grantedScopes.add("read_shopify_payments_disputes");
    const order = shop.createOrder({ amount: "60.00" });
    const [line] = order.lineItems;
    shop.createRefund(order.id, { storeCredit: "60.00", lineItems: [{ lineItemId: line.id, quantity: 1 }] });
    shop.createRefund(order.id, { amount: "60.00", lineItems: [{ lineItemId: line.id, quantity: 1 }] });
    const dispute = shop.createDispute(order.id, { reason: "CREDIT_NOT_PROCESSED" });

    const read = await graphql(shopify, ORDER_READ, { ids: [orderGid(order.id)] });
    expect(read.body.errors).toBeUndefined();
    const node = read.body.data.nodes[0];
    expect(node.netPaymentSet.presentmentMoney.amount).toBe("-60.0");
    expect(node.disputes).toEqual([{ id: `gid://shopify/OrderDisputeSummary/${dispute.id}`, status: "NEEDS_RESPONSE", initiatedAs: "CHARGEBACK" }]);
    expect(node.refunds.map((r: { transactions: { nodes: { gateway: string }[] } }) => r.transactions.nodes.map((t) => t.gateway))).toEqual([
      ["shopify_store_credit"],
      ["shopify_payments"],
    ]);
    const { cost } = read.body.extensions;
    expect(cost.actualQueryCost).toBeLessThanOrEqual(cost.requestedQueryCost);

    // The summary's number is the dispute's: the details are read under ShopifyPaymentsDispute.
    const disputeGid = node.disputes[0].id.replace("OrderDisputeSummary", "ShopifyPaymentsDispute");
    const details = await graphql(shopify, DISPUTE_READ, { ids: [disputeGid] });
    expect(details.body.data.nodes[0]).toMatchObject({ id: disputeGid, reasonDetails: { reason: "CREDIT_NOT_PROCESSED" }, order: { id: orderGid(order.id) } });
  });
});
