import { describe, expect, it } from "vitest";
import { waitFor } from "../support/wait";
import { graphql, orderGid, REFUND_CREATE, REFUND_CREATE_WITHOUT_KEY, setup } from "./support";

function refundInput(orderId: bigint, amount = "10.00") {
  return { orderId: orderGid(orderId), note: "return", transactions: [{ amount, gateway: "shopify_payments", kind: "REFUND", orderId: orderGid(orderId) }] };
}

describe("refundCreate's @idempotent key", () => {
  it("is required from 2026-04: without it, a top-level BAD_REQUEST and nothing created", async () => {
    const { shopify, shop, api } = setup();
    const order = shop.createOrder({ amount: "50.00" });
    for (const version of ["2026-04", "2026-07", "2026-10"]) {
      const { status, body } = await graphql(shopify, REFUND_CREATE_WITHOUT_KEY, { input: refundInput(order.id) }, { version });
      expect(status).toBe(200);
      expect(body.data).toEqual({ refundCreate: null });
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]).toMatchObject({ message: "The @idempotent directive is required for this mutation.", extensions: { code: "BAD_REQUEST" } });
    }
    expect(shop.refunds.size).toBe(0);
    expect(api.stats).toMatchObject({ refundCreateCalls: 3, refundsCreated: 0 });
  });

  it("is optional in 2026-01 (and for a 2025-07 request, which falls forward to it)", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "50.00" });
    for (const version of ["2026-01", "2025-07"]) {
      const { body } = await graphql(shopify, REFUND_CREATE_WITHOUT_KEY, { input: refundInput(order.id, "5.00") }, { version });
      expect(body.errors).toBeUndefined();
      expect(body.data.refundCreate.refund.id).toMatch(/^gid:\/\/shopify\/Refund\/\d+$/);
    }
    expect(shop.refunds.size).toBe(2);
  });

  it("same key and same input: the original result again, one refund in the shop, one webhook", async () => {
    const { shopify, shop, api } = setup();
    const created: bigint[] = [];
    const announce = api.onRefundCreated;
    api.onRefundCreated = (refund) => (created.push(refund.id), announce?.(refund));
    const order = shop.createOrder({ amount: "50.00" });
    const input = refundInput(order.id);
    const first = await graphql(shopify, REFUND_CREATE, { input, key: "refund-1" });
    // The same input with its fields in another order is the same input.
    const reordered = {
      transactions: input.transactions.map((t) => ({ orderId: t.orderId, kind: t.kind, gateway: t.gateway, amount: t.amount })),
      note: input.note,
      orderId: input.orderId,
    };
    const again = await graphql(shopify, REFUND_CREATE, { input: reordered, key: "refund-1" });
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data.refundCreate.refund.id).toBe(first.body.data.refundCreate.refund.id);
    expect(again.body.data.refundCreate).toEqual(first.body.data.refundCreate);
    expect(shop.refunds.size).toBe(1);
    expect(created).toHaveLength(1);
    expect(api.stats).toMatchObject({ refundCreateCalls: 2, refundsCreated: 1 });
  });

  it("replays user errors too: the key remembers what the first request answered", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "5.00" });
    const first = await graphql(shopify, REFUND_CREATE, { input: refundInput(order.id, "9.00"), key: "too-much" });
    expect(first.body.data.refundCreate.userErrors[0].field).toEqual(["transactions"]);
    const again = await graphql(shopify, REFUND_CREATE, { input: refundInput(order.id, "9.00"), key: "too-much" });
    expect(again.body.data.refundCreate).toEqual(first.body.data.refundCreate);
    expect(shop.refunds.size).toBe(0);
  });

  it("same key and another input: IDEMPOTENCY_KEY_PARAMETER_MISMATCH, nothing created", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "50.00" });
    await graphql(shopify, REFUND_CREATE, { input: refundInput(order.id, "10.00"), key: "refund-1" });
    const other = await graphql(shopify, REFUND_CREATE, { input: refundInput(order.id, "11.00"), key: "refund-1" });
    expect(other.body.data).toEqual({ refundCreate: null });
    expect(other.body.errors[0].extensions.code).toBe("IDEMPOTENCY_KEY_PARAMETER_MISMATCH");
    expect(shop.refunds.size).toBe(1);
  });

  it("a key whose first request is still running: IDEMPOTENCY_CONCURRENT_REQUEST", async () => {
    const { shopify, shop, api } = setup();
    api.refundCreateGate.close();
    const order = shop.createOrder({ amount: "50.00" });
    const variables = { input: refundInput(order.id), key: "refund-1" };
    const slow = graphql(shopify, REFUND_CREATE, variables);
    await waitFor("the first refundCreate to be running", () => api.refundCreateGate.held === 1);
    const concurrent = await graphql(shopify, REFUND_CREATE, variables);
    expect(concurrent.body.data).toEqual({ refundCreate: null });
    expect(concurrent.body.errors[0].extensions.code).toBe("IDEMPOTENCY_CONCURRENT_REQUEST");
    api.refundCreateGate.open();
    expect((await slow).body.data.refundCreate.refund.id).toBeTruthy();
    expect(shop.refunds.size).toBe(1);
  });

  it("a key Shopify no longer remembers runs as new: a second refund", async () => {
    const { shopify, shop, api } = setup();
    const order = shop.createOrder({ amount: "50.00" });
    const variables = { input: refundInput(order.id), key: "refund-1" };
    const first = await graphql(shopify, REFUND_CREATE, variables);
    shopify.forgetIdempotencyKeys();
    const second = await graphql(shopify, REFUND_CREATE, variables);
    expect(second.body.data.refundCreate.refund.id).not.toBe(first.body.data.refundCreate.refund.id);
    expect(shop.refunds.size).toBe(2);
    api.forgetIdempotencyKeys();
    expect(api.stats.refundsCreated).toBe(2);
  });

  it("keys are per shop", async () => {
    const { shopify, shop } = setup();
    const other = shopify.addShop("other.myshopify.com");
    shopify.grantAccessToken("other.myshopify.com", "other-token");
    const a = shop.createOrder({ amount: "50.00" });
    await graphql(shopify, REFUND_CREATE, { input: refundInput(a.id), key: "same-key" });
    const b = other.createOrder({ amount: "50.00" });
    const request = new Request("https://other.myshopify.com/admin/api/2026-10/graphql.json", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": "other-token" },
      body: JSON.stringify({ query: REFUND_CREATE, variables: { input: refundInput(b.id), key: "same-key" } }),
    });
    const body = (await (await shopify.handle(request)).json()) as { data: { refundCreate: { refund: { id: string } } } };
    expect(body.data.refundCreate.refund.id).toMatch(/Refund/);
    expect(other.refunds.size).toBe(1);
  });
});
