import { describe, expect, it } from "vitest";
import { STORE_CREDIT_GATEWAY } from "../../fake-shopify/shop";
import { refundWebhookBody } from "../../fake-shopify/webhooks";
import { graphql, orderGid, REFUND_CREATE, setup } from "./support";

const ORDER_MONEY = `query ($id: ID!) {
  order(id: $id) {
    totalReceivedSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
    totalRefundedSet { presentmentMoney { amount } }
    netPaymentSet { shopMoney { amount } presentmentMoney { amount } }
    refundDiscrepancySet { presentmentMoney { amount } }
    refunds {
      totalRefundedSet { presentmentMoney { amount currencyCode } }
      transactions(first: 10) { nodes { kind status gateway parentTransaction { id } amountSet { presentmentMoney { amount currencyCode } } } }
    }
  }
}`;

const storeCredit = (amount: string, currencyCode = "USD") => ({ storeCreditRefund: { amount: { amount, currencyCode } } });

describe("a refund to store credit", () => {
  it("is a SUCCESS REFUND transaction on shopify_store_credit without a parent, counted in the refund's and the order's refunded totals", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "100.00" });
    shop.createRefund(order.id, { amount: "30.00", storeCredit: "20.00" });
    const { body } = await graphql(shopify, ORDER_MONEY, { id: orderGid(order.id) });
    expect(body.errors).toBeUndefined();
    const read = body.data.order;
    expect(read.refunds).toEqual([
      {
        totalRefundedSet: { presentmentMoney: { amount: "50.0", currencyCode: "USD" } },
        transactions: {
          nodes: [
            {
              kind: "REFUND",
              status: "SUCCESS",
              gateway: "shopify_payments",
              parentTransaction: { id: expect.any(String) },
              amountSet: { presentmentMoney: { amount: "30.0", currencyCode: "USD" } },
            },
            {
              kind: "REFUND",
              status: "SUCCESS",
              gateway: STORE_CREDIT_GATEWAY,
              parentTransaction: null,
              amountSet: { presentmentMoney: { amount: "20.0", currencyCode: "USD" } },
            },
          ],
        },
      },
    ]);
    expect(read.totalRefundedSet.presentmentMoney.amount).toBe("50.0");
    expect(read.netPaymentSet).toEqual({ shopMoney: { amount: "50.0" }, presentmentMoney: { amount: "50.0" } });
    // No line items were refunded: nothing was suggested, so no discrepancy.
    expect(read.refundDiscrepancySet.presentmentMoney.amount).toBe("0.0");
    // Store credit never reaches Shopify Payments' balance.
    expect(shop.payments.ledger().transactions.map((bt) => bt.source.gateway)).toEqual(["shopify_payments"]);
  });

  it("store credit then cash for the same items: more back than was paid shows as a negative net payment and a discrepancy against the customer", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "40.00", lineItems: [{ quantity: 2, price: "20.00" }] });
    const line = order.lineItems[0];
    shop.createRefund(order.id, { storeCredit: "40.00", lineItems: [{ lineItemId: line.id, quantity: 2 }] });
    shop.createRefund(order.id, { amount: "40.00", lineItems: [{ lineItemId: line.id, quantity: 2 }] });
    const { body } = await graphql(shopify, ORDER_MONEY, { id: orderGid(order.id) });
    const read = body.data.order;
    expect(read.totalReceivedSet.presentmentMoney.amount).toBe("40.0");
    expect(read.totalRefundedSet.presentmentMoney.amount).toBe("80.0");
    expect(read.netPaymentSet.presentmentMoney.amount).toBe("-40.0");
    // Each refund refunded what its items were worth: suggested = actual.
    expect(read.refundDiscrepancySet.presentmentMoney.amount).toBe("0.0");
  });

  it("a refund of items for less than they are worth is a discrepancy in the merchant's favour", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "40.00", lineItems: [{ quantity: 2, price: "20.00" }] });
    shop.createRefund(order.id, { amount: "15.00", lineItems: [{ lineItemId: order.lineItems[0].id, quantity: 1 }] });
    const { body } = await graphql(shopify, ORDER_MONEY, { id: orderGid(order.id) });
    expect(body.data.order.refundDiscrepancySet.presentmentMoney.amount).toBe("5.0");
  });

  it("in a refunds/create body, the store credit transaction is one more refund transaction on its gateway", () => {
    const { shop } = setup();
    const order = shop.createOrder({ amount: "100.00" });
    const refund = shop.createRefund(order.id, { storeCredit: "12.50" });
    const parsed = JSON.parse(refundWebhookBody(shop, refund)) as { transactions: Record<string, unknown>[] };
    expect(parsed.transactions).toEqual([
      expect.objectContaining({ kind: "refund", status: "success", gateway: "shopify_store_credit", parent_id: null, amount: "12.50", currency: "USD" }),
    ]);
  });
});

describe("refundCreate with refundMethods and allowOverRefunding", () => {
  it("storeCreditRefund makes the store credit transaction; the order's refundable money goes down by it", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "100.00" });
    const { body } = await graphql(shopify, REFUND_CREATE, {
      key: "sc-1",
      input: {
        orderId: orderGid(order.id),
        refundMethods: [storeCredit("60.00")],
        transactions: [{ orderId: orderGid(order.id), gateway: "shopify_payments", kind: "REFUND", amount: "10.00" }],
      },
    });
    expect(body.data.refundCreate.userErrors).toEqual([]);
    expect(body.data.refundCreate.refund.totalRefundedSet.presentmentMoney).toEqual({ amount: "70.0", currencyCode: "USD" });
    expect(body.data.refundCreate.refund.transactions.nodes.map((t: { gateway: string }) => t.gateway)).toEqual(["shopify_payments", "shopify_store_credit"]);
    expect(shop.refundableMinor(order)).toBe(3000n);
  });

  it("cash after store credit past what is left is refused with Shopify's over-refund error, and allowed with allowOverRefunding", async () => {
    const { shopify, shop, api } = setup();
    const order = shop.createOrder({ amount: "50.00" });
    shop.createRefund(order.id, { storeCredit: "50.00" });
    const cash = (key: string, allowOverRefunding?: boolean) =>
      graphql(shopify, REFUND_CREATE, {
        key,
        input: {
          orderId: orderGid(order.id),
          transactions: [{ orderId: orderGid(order.id), gateway: "shopify_payments", kind: "REFUND", amount: "50.00" }],
          ...(allowOverRefunding === undefined ? {} : { allowOverRefunding }),
        },
      });
    const refused = await cash("cash-1");
    expect(refused.body.data.refundCreate).toEqual({
      refund: null,
      userErrors: [{ field: ["transactions"], message: "Refund amount $50.00 is greater than net payment received $0.00" }],
    });
    const allowed = await cash("cash-2", true);
    expect(allowed.body.data.refundCreate.userErrors).toEqual([]);
    expect(api.stats.refundsCreated).toBe(1);
    const { body } = await graphql(shopify, ORDER_MONEY, { id: orderGid(order.id) });
    expect(body.data.order.totalRefundedSet.presentmentMoney.amount).toBe("100.0");
    expect(body.data.order.netPaymentSet.presentmentMoney.amount).toBe("-50.0");
  });

  it("store credit alone past what is left is refused the same way, counting the store credit", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "20.00" });
    const { body } = await graphql(shopify, REFUND_CREATE, { key: "sc-over", input: { orderId: orderGid(order.id), refundMethods: [storeCredit("25.00")] } });
    expect(body.data.refundCreate.userErrors).toEqual([
      { field: ["transactions"], message: "Refund amount $25.00 is greater than net payment received $20.00" },
    ]);
    expect(shop.refunds.size).toBe(0);
  });

  it("refuses store credit in another currency than the order's presentment currency", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "20.00" });
    const { body } = await graphql(shopify, REFUND_CREATE, {
      key: "sc-eur",
      input: { orderId: orderGid(order.id), refundMethods: [storeCredit("5.00", "EUR")] },
    });
    expect(body.data.refundCreate.userErrors).toEqual([
      { field: ["refundMethods", "0", "storeCreditRefund", "amount", "currencyCode"], message: "Currency must be the order's presentment currency (USD)." },
    ]);
  });
});
