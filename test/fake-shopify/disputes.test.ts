import { describe, expect, it } from "vitest";
import { DISPUTE_STATUSES } from "../../fake-shopify/disputes";
import type { FakeShopify } from "../../fake-shopify/server";
import { graphql, orderGid, setup } from "./support";

const T0 = Date.parse("2026-12-01T10:00:00Z");
const DAY = 86_400_000;
const disputeGid = (id: bigint) => `gid://shopify/ShopifyPaymentsDispute/${id}`;
const DISPUTES_SCOPE = "read_shopify_payments_disputes";

const ORDER_DISPUTES = `query ($id: ID!) { order(id: $id) { id disputes { id status initiatedAs } } }`;

const DISPUTE_DETAILS = `query ($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on ShopifyPaymentsDispute {
      id legacyResourceId status type amount { amount currencyCode } reasonDetails { reason networkReasonCode }
      evidenceDueBy evidenceSentOn initiatedAt finalizedOn order { id }
    }
  }
}`;

const at = (shopify: FakeShopify, ms: number) => (shopify.now = () => new Date(ms));

function withDispute(options: Parameters<ReturnType<typeof setup>["shop"]["createDispute"]>[1] = {}) {
  const harness = setup();
  at(harness.shopify, T0);
  const order = harness.shop.createOrder({ amount: "100.00" });
  const dispute = harness.shop.createDispute(order.id, options);
  return { ...harness, order, dispute };
}

describe("a dispute on an order", () => {
  it("defaults: a CHARGEBACK, NEEDS_RESPONSE, FRAUDULENT, the order's total, evidence due 7 days after it began", () => {
    const { shop, order, dispute } = withDispute();
    expect(dispute).toMatchObject({
      orderId: order.id,
      status: "NEEDS_RESPONSE",
      type: "CHARGEBACK",
      initiatedAs: "CHARGEBACK",
      reason: "FRAUDULENT",
      amountMinor: 10000n,
      currency: "USD",
      initiatedAt: new Date(T0),
      evidenceDueBy: new Date(T0 + 7 * DAY),
      evidenceSentOn: null,
      finalizedOn: null,
    });
    expect(shop.disputes.get(dispute.id)).toBe(dispute);
    // From the shop's one id sequence: never an order's or a refund's id.
    expect(dispute.id).toBeGreaterThan(order.id);
  });

  it("Order.disputes answers OrderDisputeSummary with read_orders alone, its gid the dispute's number under OrderDisputeSummary", async () => {
    const { shopify, shop, order, dispute } = withDispute({ initiatedAs: "INQUIRY" });
    expect(shop.hasScope(DISPUTES_SCOPE)).toBe(false);
    const { body } = await graphql(shopify, ORDER_DISPUTES, { id: orderGid(order.id) });
    expect(body.errors).toBeUndefined();
    expect(body.data.order.disputes).toEqual([{ id: `gid://shopify/OrderDisputeSummary/${dispute.id}`, status: "NEEDS_RESPONSE", initiatedAs: "INQUIRY" }]);
    const other = shop.createOrder({ amount: "5.00" });
    expect((await graphql(shopify, ORDER_DISPUTES, { id: orderGid(other.id) })).body.data.order.disputes).toEqual([]);
  });

  it("an inquiry that turns into a chargeback: the dispute's type changes, the summary's initiatedAs does not", async () => {
    const { shopify, shop, order, dispute } = withDispute({ initiatedAs: "INQUIRY" });
    shop.grantedScopes.add(DISPUTES_SCOPE);
    shop.updateDispute(dispute.id, { status: "NEEDS_RESPONSE", type: "CHARGEBACK" });
    const summary = await graphql(shopify, ORDER_DISPUTES, { id: orderGid(order.id) });
    expect(summary.body.data.order.disputes[0].initiatedAs).toBe("INQUIRY");
    const details = await graphql(shopify, DISPUTE_DETAILS, { ids: [disputeGid(dispute.id)] });
    expect(details.body.data.nodes[0].type).toBe("CHARGEBACK");
  });

  it("with read_shopify_payments_disputes, nodes(ids:) answers the ShopifyPaymentsDispute as the schema has it", async () => {
    const { shopify, shop, order, dispute } = withDispute({ amount: "40.00", reason: "CREDIT_NOT_PROCESSED" });
    shop.grantedScopes.add(DISPUTES_SCOPE);
    const { body } = await graphql(shopify, DISPUTE_DETAILS, { ids: [disputeGid(dispute.id)] });
    expect(body.errors).toBeUndefined();
    expect(body.data.nodes).toEqual([
      {
        id: disputeGid(dispute.id),
        legacyResourceId: String(dispute.id),
        status: "NEEDS_RESPONSE",
        type: "CHARGEBACK",
        amount: { amount: "40.0", currencyCode: "USD" },
        reasonDetails: { reason: "CREDIT_NOT_PROCESSED", networkReasonCode: "13.6" },
        evidenceDueBy: "2026-12-08T10:00:00Z",
        evidenceSentOn: null,
        initiatedAt: "2026-12-01T10:00:00Z",
        finalizedOn: null,
        order: { id: orderGid(order.id) },
      },
    ]);
  });

  it("without the scope, each dispute node is null with ACCESS_DENIED at its path, naming the access the schema requires; other nodes are answered", async () => {
    const { shopify, order, dispute } = withDispute();
    const { body } = await graphql(
      shopify,
      `
        query ($ids: [ID!]!) {
          nodes(ids: $ids) {
            id
            ... on ShopifyPaymentsDispute {
              status
            }
          }
        }
      `,
      {
        ids: [orderGid(order.id), disputeGid(dispute.id)],
      },
    );
    expect(body.data.nodes).toEqual([{ id: orderGid(order.id) }, null]);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({
      message: "Access denied for dispute field. Required access: User must have `read_shopify_payments_disputes` access.",
      path: ["nodes", 1],
      extensions: { code: "ACCESS_DENIED", requiredAccess: "User must have `read_shopify_payments_disputes` access." },
    });
  });

  it("an OrderDisputeSummary gid, or an unknown dispute, finds no ShopifyPaymentsDispute", async () => {
    const { shopify, shop, dispute } = withDispute();
    shop.grantedScopes.add(DISPUTES_SCOPE);
    const { body } = await graphql(shopify, DISPUTE_DETAILS, { ids: [`gid://shopify/OrderDisputeSummary/${dispute.id}`, disputeGid(1n)] });
    expect(body).toMatchObject({ data: { nodes: [null, null] } });
    expect(body.errors).toBeUndefined();
    const single = await graphql(
      shopify,
      `
        query ($id: ID!) {
          dispute(id: $id) {
            id
          }
        }
      `,
      { id: `gid://shopify/OrderDisputeSummary/${dispute.id}` },
    );
    expect(single.body.data.dispute).toBeNull();
  });

  it("every DisputeStatus of the schema is allowed; a final one is finalized now unless told, an open one keeps finalizedOn", async () => {
    const { shopify, shop, order } = withDispute();
    shop.grantedScopes.add(DISPUTES_SCOPE);
    const ids = DISPUTE_STATUSES.map((status) => shop.createDispute(order.id, { status }).id);
    const { body } = await graphql(shopify, DISPUTE_DETAILS, { ids: ids.map(disputeGid) });
    expect(body.data.nodes.map((n: { status: string; finalizedOn: string | null }) => [n.status, n.finalizedOn])).toEqual([
      ["ACCEPTED", "2026-12-01T10:00:00Z"],
      ["CHARGE_REFUNDED", "2026-12-01T10:00:00Z"],
      ["LOST", "2026-12-01T10:00:00Z"],
      ["NEEDS_RESPONSE", null],
      ["PREVENTED", "2026-12-01T10:00:00Z"],
      ["UNDER_REVIEW", null],
      ["WON", "2026-12-01T10:00:00Z"],
    ]);
    at(shopify, T0 + 30 * DAY);
    const open = ids[3];
    expect(shop.updateDispute(open, { status: "UNDER_REVIEW" }).finalizedOn).toBeNull();
    expect(shop.updateDispute(open, { status: "LOST" }).finalizedOn).toEqual(new Date(T0 + 30 * DAY));
    expect(shop.updateDispute(open, { status: "WON", finalizedOn: new Date(T0 + DAY) }).finalizedOn).toEqual(new Date(T0 + DAY));
    expect(() => shop.updateDispute(open, { status: "CLOSED" as never })).toThrow(/not a DisputeStatus/);
  });

  it("only an order paid through Shopify Payments can have one", () => {
    const { shop } = setup();
    const order = shop.createOrder({ amount: "10.00", gateway: "manual" });
    expect(() => shop.createDispute(order.id)).toThrow(/not paid through Shopify Payments/);
    expect(() => shop.createDispute(1n)).toThrow(/no order 1/);
  });

  it("an EUR order's dispute is in EUR, the amount the customer was charged", async () => {
    const { shopify, shop } = setup();
    shop.grantedScopes.add(DISPUTES_SCOPE);
    const order = shop.createOrder({ amount: "90.00", presentmentCurrency: "EUR", exchangeRate: "1.10" });
    const dispute = shop.createDispute(order.id);
    const { body } = await graphql(shopify, DISPUTE_DETAILS, { ids: [disputeGid(dispute.id)] });
    expect(body.data.nodes[0].amount).toEqual({ amount: "90.0", currencyCode: "EUR" });
  });
});

describe("the lists of disputes", () => {
  const LIST = `query ($query: String) {
    disputes(first: 10, query: $query) { nodes { id status } }
    shopifyPaymentsAccount { disputes(first: 10, query: $query) { nodes { id } } }
  }`;

  it("QueryRoot.disputes and ShopifyPaymentsAccount.disputes list them newest first, filtered by status, initiated_at and id", async () => {
    const { shopify, shop } = setup();
    shop.grantedScopes.add(DISPUTES_SCOPE);
    const order = shop.createOrder({ amount: "100.00" });
    const old = shop.createDispute(order.id, { initiatedAt: new Date(T0 - 10 * DAY), status: "WON" });
    const recent = shop.createDispute(order.id, { initiatedAt: new Date(T0) });
    const all = await graphql(shopify, LIST);
    expect(all.body.errors).toBeUndefined();
    expect(all.body.data.disputes.nodes).toEqual([
      { id: disputeGid(recent.id), status: "NEEDS_RESPONSE" },
      { id: disputeGid(old.id), status: "WON" },
    ]);
    expect(all.body.data.shopifyPaymentsAccount.disputes.nodes.map((n: { id: string }) => n.id)).toEqual([disputeGid(recent.id), disputeGid(old.id)]);
    const ids = async (query: string) => (await graphql(shopify, LIST, { query })).body.data.disputes.nodes.map((n: { id: string }) => n.id);
    expect(await ids("status:won")).toEqual([disputeGid(old.id)]);
    expect(await ids(`initiated_at:>'${new Date(T0 - DAY).toISOString()}'`)).toEqual([disputeGid(recent.id)]);
    expect(await ids(`id:${recent.id}`)).toEqual([disputeGid(recent.id)]);
  });

  it("without the scope: ACCESS_DENIED at disputes; the root list's error nulls data, the account's nulls the account", async () => {
    const { shopify, shop } = setup();
    shop.createDispute(shop.createOrder({ amount: "10.00" }).id);
    const root = await graphql(
      shopify,
      `
        {
          disputes(first: 5) {
            nodes {
              id
            }
          }
        }
      `,
    );
    expect(root.body.data).toBeNull();
    expect(root.body.errors[0]).toMatchObject({ path: ["disputes"], extensions: { code: "ACCESS_DENIED" } });
    const account = await graphql(
      shopify,
      `
        {
          shopifyPaymentsAccount {
            id
            disputes(first: 5) {
              nodes {
                id
              }
            }
          }
        }
      `,
    );
    expect(account.body.data.shopifyPaymentsAccount).toBeNull();
    expect(account.body.errors[0]).toMatchObject({ path: ["shopifyPaymentsAccount", "disputes"], extensions: { code: "ACCESS_DENIED" } });
  });
});
