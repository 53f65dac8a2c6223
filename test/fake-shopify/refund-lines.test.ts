import { describe, expect, it } from "vitest";
import { refundWebhookBody } from "../../fake-shopify/webhooks";
import { graphql, orderGid, REFUND_CREATE, refundGid, setup } from "./support";

const lineItemGid = (id: bigint) => `gid://shopify/LineItem/${id}`;

const ORDER_LINES = `query ($id: ID!) {
  order(id: $id) {
    lineItems(first: 50) { nodes { id quantity currentQuantity refundableQuantity originalUnitPriceSet { presentmentMoney { amount } } } }
    refunds { id refundLineItems(first: 50) { nodes { quantity restockType lineItem { id } subtotalSet { presentmentMoney { amount } } } } }
  }
}`;

describe("an order's line items", () => {
  it("an order made without lineItems has one line item of quantity 1 at its amount", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "40.00" });
    expect(order.lineItems).toHaveLength(1);
    const { body } = await graphql(shopify, ORDER_LINES, { id: orderGid(order.id) });
    expect(body.errors).toBeUndefined();
    expect(body.data.order.lineItems.nodes).toEqual([
      {
        id: lineItemGid(order.lineItems[0].id),
        quantity: 1,
        currentQuantity: 1,
        refundableQuantity: 1,
        originalUnitPriceSet: { presentmentMoney: { amount: "40.0" } },
      },
    ]);
    expect(body.data.order.refunds).toEqual([]);
  });

  it("createRefund's lineItems show on the refund and lower the line's current quantity; a money-only refund has none", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({
      amount: "50.00",
      lineItems: [
        { quantity: 3, price: "10.00" },
        { quantity: 1, price: "20.00", title: "Hat" },
      ],
    });
    const [socks, hat] = order.lineItems;
    const withItems = shop.createRefund(order.id, { amount: "20.00", lineItems: [{ lineItemId: socks.id, quantity: 2 }] });
    shop.createRefund(order.id, { amount: "5.00" });
    const { body } = await graphql(shopify, ORDER_LINES, { id: orderGid(order.id) });
    expect(body.data.order.lineItems.nodes.map((n: { id: string; currentQuantity: number }) => [n.id, n.currentQuantity])).toEqual([
      [lineItemGid(socks.id), 1],
      [lineItemGid(hat.id), 1],
    ]);
    expect(body.data.order.refunds).toEqual([
      {
        id: refundGid(withItems.id),
        refundLineItems: {
          nodes: [{ quantity: 2, restockType: "NO_RESTOCK", lineItem: { id: lineItemGid(socks.id) }, subtotalSet: { presentmentMoney: { amount: "20.0" } } }],
        },
      },
      { id: expect.any(String), refundLineItems: { nodes: [] } },
    ]);
  });

  it("the test helper may refund more units than are left (an old refund, another app); the current quantity stays at 0", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "10.00" });
    const line = order.lineItems[0];
    shop.createRefund(order.id, { storeCredit: "10.00", lineItems: [{ lineItemId: line.id, quantity: 1 }] });
    shop.createRefund(order.id, { amount: "10.00", lineItems: [{ lineItemId: line.id, quantity: 1 }] });
    expect(shop.refundedQuantity(order, line.id)).toBe(2);
    const { body } = await graphql(shopify, ORDER_LINES, { id: orderGid(order.id) });
    expect(body.data.order.lineItems.nodes[0]).toMatchObject({ quantity: 1, currentQuantity: 0, refundableQuantity: 0 });
    expect(() => shop.createRefund(order.id, { lineItems: [{ lineItemId: 1n, quantity: 1 }] })).toThrow(/no line item 1/);
  });

  it("refundCreate records refundLineItems, and refuses more units than are left, counting earlier refunds and its own other entries", async () => {
    const { shopify, shop, api } = setup();
    const order = shop.createOrder({ amount: "30.00", lineItems: [{ quantity: 3, price: "10.00" }] });
    const line = order.lineItems[0];
    const refundOf = (quantity: number, key: string, extra: Record<string, unknown> = {}) =>
      graphql(shopify, REFUND_CREATE, {
        key,
        input: { orderId: orderGid(order.id), refundLineItems: [{ lineItemId: lineItemGid(line.id), quantity, restockType: "RETURN" }], ...extra },
      });

    const first = await refundOf(2, "k1");
    expect(first.body.data.refundCreate.userErrors).toEqual([]);
    const refund = shop.refunds.get(BigInt(first.body.data.refundCreate.refund.id.split("/").pop()))!;
    expect(refund.lineItems).toEqual([{ id: expect.any(BigInt), lineItemId: line.id, quantity: 2, restockType: "RETURN" }]);
    // Items alone move no money: no transaction was asked for.
    expect(refund.transactionIds).toEqual([]);

    const tooMany = await refundOf(2, "k2");
    expect(tooMany.body.data.refundCreate).toEqual({
      refund: null,
      userErrors: [{ field: ["refundLineItems", "0", "quantity"], message: "Quantity cannot refund more items than were purchased" }],
    });
    const twice = await graphql(shopify, REFUND_CREATE, {
      key: "k3",
      input: {
        orderId: orderGid(order.id),
        refundLineItems: [
          { lineItemId: lineItemGid(line.id), quantity: 1 },
          { lineItemId: lineItemGid(line.id), quantity: 1 },
        ],
      },
    });
    expect(twice.body.data.refundCreate.userErrors).toEqual([
      { field: ["refundLineItems", "1", "quantity"], message: "Quantity cannot refund more items than were purchased" },
    ]);
    const unknown = await graphql(shopify, REFUND_CREATE, {
      key: "k4",
      input: { orderId: orderGid(order.id), refundLineItems: [{ lineItemId: "gid://shopify/LineItem/1", quantity: 1 }] },
    });
    expect(unknown.body.data.refundCreate.userErrors).toEqual([{ field: ["refundLineItems", "0", "lineItemId"], message: "Line item does not exist" }]);
    expect(api.stats.refundsCreated).toBe(1);
    expect(shop.refundedQuantity(order, line.id)).toBe(2);
  });

  it("the refunds/create body carries the refund line items in REST form", () => {
    const { shop } = setup();
    const order = shop.createOrder({ amount: "30.00", lineItems: [{ quantity: 3, price: "10.00", title: "Socks" }] });
    const line = order.lineItems[0];
    const refund = shop.createRefund(order.id, { amount: "20.00", lineItems: [{ lineItemId: line.id, quantity: 2, restockType: "RETURN" }] });
    const body = refundWebhookBody(shop, refund);
    // Ids stay bare numbers with all their digits.
    expect(body).toContain(`"line_item_id":${line.id},`);
    const parsed = JSON.parse(body) as { refund_line_items: Record<string, unknown>[] };
    expect(parsed.refund_line_items).toEqual([
      {
        id: expect.any(Number),
        line_item_id: expect.any(Number),
        location_id: null,
        quantity: 2,
        restock_type: "return",
        subtotal: "20.00",
        subtotal_set: { shop_money: { amount: "20.00", currency_code: "USD" }, presentment_money: { amount: "20.00", currency_code: "USD" } },
        total_tax: "0.00",
        total_tax_set: { shop_money: { amount: "0.00", currency_code: "USD" }, presentment_money: { amount: "0.00", currency_code: "USD" } },
        line_item: expect.objectContaining({ admin_graphql_api_id: lineItemGid(line.id), quantity: 3, price: "10.00", title: "Socks" }),
      },
    ]);
  });
});
