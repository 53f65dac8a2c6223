import { describe, expect, it } from "vitest";
import { FakeShopify } from "../../fake-shopify/server";
import { TEST_APP } from "../support/credentials";

const SHOP = "fake.myshopify.com";

function setup() {
  const shopify = new FakeShopify(TEST_APP);
  const shop = shopify.addShop(SHOP);
  shopify.grantAccessToken(SHOP, "token");
  return { shopify, shop };
}

async function graphql(shopify: FakeShopify, query: string, variables: Record<string, unknown> = {}, token = "token") {
  const response = await shopify.handle(
    new Request(`https://${SHOP}/admin/api/2025-07/graphql.json`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": token },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe("the fake Admin API", () => {
  it("rejects a query with a field the 2025-07 schema does not have", async () => {
    const { shopify } = setup();
    const { status, body } = await graphql(shopify, `{ refund(id: "gid://shopify/Refund/1") { id amount } }`);
    expect(status).toBe(200);
    expect(body.data).toBeUndefined();
    expect(body.errors[0].message).toContain('Cannot query field "amount" on type "Refund"');
  });

  it("answers a refund read-back in the real shapes: Decimal strings, connections, cost", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "100.00" });
    const refund = shop.createRefund(order.id, { amount: "25.00" });
    const { body } = await graphql(
      shopify,
      `query($id: ID!) { refund(id: $id) { id order { id } totalRefundedSet { shopMoney { amount currencyCode } }
        transactions(first: 5) { nodes { status } edges { cursor node { kind } } pageInfo { hasNextPage } } } }`,
      { id: `gid://shopify/Refund/${refund.id}` },
    );
    expect(body.data.refund.id).toBe(`gid://shopify/Refund/${refund.id}`);
    expect(body.data.refund.order.id).toBe(`gid://shopify/Order/${order.id}`);
    expect(body.data.refund.totalRefundedSet.shopMoney).toEqual({ amount: "25.0", currencyCode: "USD" });
    expect(body.data.refund.transactions.nodes).toEqual([{ status: "SUCCESS" }]);
    expect(body.data.refund.transactions.edges[0].node).toEqual({ kind: "REFUND" });
    expect(body.extensions.cost.throttleStatus).toMatchObject({ maximumAvailable: 1000, restoreRate: 100 });
    expect(body.extensions.cost.requestedQueryCost).toBeGreaterThan(0);
  });

  it("refuses an unknown access token with 401", async () => {
    const { shopify } = setup();
    const { status } = await graphql(shopify, "{ shop { name } }", {}, "stolen");
    expect(status).toBe(401);
  });

  it("throttles when the bucket cannot cover the requested cost, and counts it", async () => {
    const shopify = new FakeShopify(TEST_APP, { maximumAvailable: 20, restoreRate: 1 });
    shopify.addShop(SHOP).createOrder({ amount: "10.00" });
    shopify.grantAccessToken(SHOP, "token");
    let now = Date.now();
    shopify.now = () => new Date(now);
    const query = `{ orders(first: 10) { nodes { id } } }`;
    const first = await graphql(shopify, query);
    expect(first.body.data.orders.nodes).toHaveLength(1);
    const second = await graphql(shopify, query);
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
    const throttled = await shopify.handle(new Request(`https://${SHOP}/admin/api/2025-07/graphql.json`, { method: "POST", headers: { "X-Shopify-Access-Token": "token" }, body: "{}" }));
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
    expect((await graphql(shopify, query, { id: `gid://shopify/Refund/${refund.id}` })).body.data.refund).toBeNull();
    now += 10_000;
    expect((await graphql(shopify, query, { id: `gid://shopify/Refund/${refund.id}` })).body.data.refund.id).toContain(String(refund.id));
  });
});
