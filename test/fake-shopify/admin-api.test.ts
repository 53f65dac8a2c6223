import { describe, expect, it } from "vitest";
import { FakeShopify } from "../../fake-shopify/server";
import { TEST_APP } from "../support/credentials";
import { graphql, refundGid, setup, SHOP } from "./support";

describe("the fake Admin API", () => {
  it("rejects a query with a field the published 2026-10 schema does not have", async () => {
    const { shopify } = setup();
    const { status, body } = await graphql(
      shopify,
      `
        {
          refund(id: "gid://shopify/Refund/1") {
            id
            amount
          }
        }
      `,
    );
    expect(status).toBe(200);
    expect(body.data).toBeUndefined();
    expect(body.errors[0].message).toContain('Cannot query field "amount" on type "Refund"');
    expect(body.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  it("accepts what the published schema has and the old hand-written one did not: Refund.processedAt", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "100.00" });
    const refund = shop.createRefund(order.id, { amount: "25.00", processedAt: new Date("2026-11-29T10:00:00Z") });
    const { body } = await graphql(
      shopify,
      `
        query ($id: ID!) {
          refund(id: $id) {
            processedAt
          }
        }
      `,
      { id: refundGid(refund.id) },
    );
    expect(body.data.refund.processedAt).toBe("2026-11-29T10:00:00Z");
  });

  it("answers a refund read-back in the real shapes: Decimal strings, connections, cost", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "100.00" });
    const refund = shop.createRefund(order.id, { amount: "25.00" });
    const { body } = await graphql(
      shopify,
      `
        query ($id: ID!) {
          refund(id: $id) {
            id
            processedAt
            order {
              id
            }
            totalRefundedSet {
              shopMoney {
                amount
                currencyCode
              }
              presentmentMoney {
                amount
                currencyCode
              }
            }
            transactions(first: 5) {
              nodes {
                status
                amountSet {
                  shopMoney {
                    amount
                  }
                  presentmentMoney {
                    amount
                    currencyCode
                  }
                }
              }
              edges {
                cursor
                node {
                  kind
                }
              }
              pageInfo {
                hasNextPage
              }
            }
          }
        }
      `,
      { id: refundGid(refund.id) },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.refund.id).toBe(refundGid(refund.id));
    expect(body.data.refund.order.id).toBe(`gid://shopify/Order/${order.id}`);
    expect(body.data.refund.totalRefundedSet).toEqual({
      shopMoney: { amount: "25.0", currencyCode: "USD" },
      presentmentMoney: { amount: "25.0", currencyCode: "USD" },
    });
    expect(body.data.refund.transactions.nodes).toEqual([
      { status: "SUCCESS", amountSet: { shopMoney: { amount: "25.0" }, presentmentMoney: { amount: "25.0", currencyCode: "USD" } } },
    ]);
    expect(body.data.refund.transactions.edges[0].node).toEqual({ kind: "REFUND" });
    expect(body.extensions.cost.throttleStatus).toMatchObject({ maximumAvailable: 1000, restoreRate: 100 });
    expect(body.extensions.cost.requestedQueryCost).toBeGreaterThan(0);
  });

  it("resolves the concrete type behind an abstract field: nodes(ids:) returns [Node]!", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "10.00" });
    const refund = shop.createRefund(order.id, { amount: "1.00" });
    const { body } = await graphql(
      shopify,
      `
        query ($ids: [ID!]!) {
          nodes(ids: $ids) {
            __typename
            id
            ... on Refund {
              note
            }
            ... on Order {
              name
            }
          }
        }
      `,
      {
        ids: [refundGid(refund.id), `gid://shopify/Order/${order.id}`, "gid://shopify/Refund/1"],
      },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.nodes).toEqual([
      { __typename: "Refund", id: refundGid(refund.id), note: null },
      { __typename: "Order", id: `gid://shopify/Order/${order.id}`, name: order.name },
      null,
    ]);
  });

  it("refuses an unknown access token with 401", async () => {
    const { shopify } = setup();
    const { status } = await graphql(shopify, "{ shop { name } }", {}, { token: "stolen" });
    expect(status).toBe(401);
  });

  it("charges the requested cost, refunds the difference to the actual cost, and throttles what the bucket cannot cover", async () => {
    const shopify = new FakeShopify(TEST_APP, { maximumAvailable: 20, restoreRate: 1 });
    shopify.addShop(SHOP).createOrder({ amount: "10.00" });
    shopify.grantAccessToken(SHOP, "token");
    let now = Date.now();
    shopify.bucketNowMs = () => now;
    const query = `{ orders(first: 10) { nodes { id } } }`;
    const first = await graphql(shopify, query);
    expect(first.body.data.orders.nodes).toHaveLength(1);
    // Asked for 12 points, cost 3 (one order): 20 - 12 + 9 = 17 left, as Shopify's guide describes.
    expect(first.body.extensions.cost).toMatchObject({ requestedQueryCost: 12, actualQueryCost: 3, throttleStatus: { currentlyAvailable: 17 } });
    const second = await graphql(
      shopify,
      `
        {
          orders(first: 16) {
            nodes {
              id
            }
          }
        }
      `,
    ); // asks for 18
    expect(second.body.errors[0].extensions.code).toBe("THROTTLED");
    expect(shopify.api(SHOP).stats.throttled).toBe(1);
    now += 30_000;
    expect((await graphql(shopify, query)).body.data.orders.nodes).toHaveLength(1);
  });

  it("injects HTTP faults in order", async () => {
    const { shopify } = setup();
    shopify.inject({ kind: "http", status: 503 });
    shopify.inject({ kind: "http", status: 429, retryAfter: "1" });
    expect((await graphql(shopify, "{ shop { name } }").catch(() => ({ status: 0 }))).status).toBe(503);
    const throttled = await shopify.handle(
      new Request(`https://${SHOP}/admin/api/2026-10/graphql.json`, { method: "POST", headers: { "X-Shopify-Access-Token": "token" }, body: "{}" }),
    );
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get("retry-after")).toBe("1");
    expect((await graphql(shopify, "{ shop { name } }")).body.data.shop.name).toBe("fake");
  });

  it("hides a refund until it becomes visible", async () => {
    const { shopify, shop } = setup();
    let now = Date.now();
    shopify.now = () => new Date(now);
    const order = shop.createOrder({ amount: "50.00" });
    const refund = shop.createRefund(order.id, { amount: "5.00", visibleAfterMs: 10_000 });
    const query = `query($id: ID!) { refund(id: $id) { id } }`;
    expect((await graphql(shopify, query, { id: refundGid(refund.id) })).body.data.refund).toBeNull();
    now += 10_000;
    expect((await graphql(shopify, query, { id: refundGid(refund.id) })).body.data.refund.id).toContain(String(refund.id));
  });

  it("pages a refund's transactions: Refund.transactions is a connection", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({
      amount: "90.00",
      payments: [
        { gateway: "shopify_payments", amount: "50.00" },
        { gateway: "gift_card", amount: "30.00" },
        { gateway: "manual", amount: "10.00" },
      ],
    });
    const refund = shop.createRefund(order.id, {
      transactions: [
        { amount: "5.00", gateway: "shopify_payments" },
        { amount: "3.00", gateway: "gift_card" },
        { amount: "1.00", gateway: "manual" },
      ],
    });
    const query = `query($id: ID!, $after: String) { refund(id: $id) { transactions(first: 2, after: $after) { nodes { gateway } pageInfo { hasNextPage endCursor } } } }`;
    const first = (await graphql(shopify, query, { id: refundGid(refund.id) })).body.data.refund.transactions;
    expect(first.nodes.map((n: { gateway: string }) => n.gateway)).toEqual(["shopify_payments", "gift_card"]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await graphql(shopify, query, { id: refundGid(refund.id), after: first.pageInfo.endCursor })).body.data.refund.transactions;
    expect(second.nodes).toEqual([{ gateway: "manual" }]);
    expect(second.pageInfo.hasNextPage).toBe(false);
  });
});
