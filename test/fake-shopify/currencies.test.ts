import { describe, expect, it } from "vitest";
import { convertMinor, currencyExponent, parseMinor, restDecimal, shopifyDecimal } from "../../fake-shopify/money";
import { refundWebhookBody } from "../../fake-shopify/webhooks";
import { graphql, orderGid, REFUND_CREATE, refundGid, setup } from "./support";

const MONEY = "{ shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }";

describe("money", () => {
  it("knows zero- and three-decimal currencies", () => {
    expect([currencyExponent("USD"), currencyExponent("JPY"), currencyExponent("KWD")]).toEqual([2, 0, 3]);
    expect(shopifyDecimal(parseMinor("1.250", "KWD"), "KWD")).toBe("1.25");
    expect(restDecimal(parseMinor("1.25", "KWD"), "KWD")).toBe("1.250");
    expect(restDecimal(parseMinor("1500", "JPY"), "JPY")).toBe("1500");
    expect(() => parseMinor("1.5", "JPY")).toThrow();
  });

  it("converts exactly and rounds half-up to the shop currency's minor unit", () => {
    expect(convertMinor(100n, "EUR", "USD", "1.0850")).toBe(109n); // 1.085 → 1.09, not banker's 1.08
    expect(convertMinor(3333n, "EUR", "USD", "1.0850")).toBe(3616n); // 36.16305
    expect(convertMinor(1000n, "EUR", "JPY", "162.35")).toBe(1624n); // 1623.5
    expect(convertMinor(1250n, "KWD", "USD", "3.2550")).toBe(407n); // 4.06875
    expect(convertMinor(407n, "USD", "USD", "1")).toBe(407n);
  });
});

describe("an EUR order in a USD shop", () => {
  function eurOrder() {
    const context = setup();
    const order = context.shop.createOrder({ amount: "100.00", presentmentCurrency: "EUR", exchangeRate: "1.0850" });
    return { ...context, order };
  }

  it("answers presentmentMoney in EUR and shopMoney converted to USD, and both currency codes", async () => {
    const { shopify, shop, order } = eurOrder();
    const refund = shop.createRefund(order.id, { amount: "33.33" });
    const { body } = await graphql(
      shopify,
      `query($order: ID!, $refund: ID!) {
        order(id: $order) { currencyCode presentmentCurrencyCode totalPriceSet ${MONEY} totalRefundedSet ${MONEY}
          suggestedRefund(suggestFullRefund: true) { maximumRefundableSet ${MONEY} suggestedTransactions { gateway amountSet ${MONEY} maximumRefundableSet ${MONEY} } } }
        refund(id: $refund) { totalRefundedSet ${MONEY} transactions(first: 1) { nodes { amountSet ${MONEY} } } }
      }`,
      { order: orderGid(order.id), refund: refundGid(refund.id) },
    );
    expect(body.errors).toBeUndefined();
    const o = body.data.order;
    expect([o.currencyCode, o.presentmentCurrencyCode]).toEqual(["USD", "EUR"]);
    expect(o.totalPriceSet).toEqual({ shopMoney: { amount: "108.5", currencyCode: "USD" }, presentmentMoney: { amount: "100.0", currencyCode: "EUR" } });
    expect(o.totalRefundedSet).toEqual({ shopMoney: { amount: "36.16", currencyCode: "USD" }, presentmentMoney: { amount: "33.33", currencyCode: "EUR" } });
    const remaining = { shopMoney: { amount: "72.34", currencyCode: "USD" }, presentmentMoney: { amount: "66.67", currencyCode: "EUR" } };
    expect(o.suggestedRefund.maximumRefundableSet).toEqual(remaining);
    expect(o.suggestedRefund.suggestedTransactions).toEqual([{ gateway: "shopify_payments", amountSet: remaining, maximumRefundableSet: remaining }]);
    expect(body.data.refund.totalRefundedSet.presentmentMoney).toEqual({ amount: "33.33", currencyCode: "EUR" });
    expect(body.data.refund.transactions.nodes[0].amountSet.shopMoney).toEqual({ amount: "36.16", currencyCode: "USD" });
  });

  it("refundCreate requires currency, the presentment one, and takes amounts in it", async () => {
    const { shopify, shop, order } = eurOrder();
    const input = (currency?: string) => ({
      orderId: orderGid(order.id),
      ...(currency ? { currency } : {}),
      transactions: [{ amount: "20.00", gateway: "shopify_payments", kind: "REFUND", orderId: orderGid(order.id) }],
    });
    const missing = await graphql(shopify, REFUND_CREATE, { input: input(), key: "a" });
    expect(missing.body.data.refundCreate).toEqual({
      refund: null,
      userErrors: [{ field: ["currency"], message: "Currency is required for orders where the currency and presentment currency differ." }],
    });
    const shopCurrency = await graphql(shopify, REFUND_CREATE, { input: input("USD"), key: "b" });
    expect(shopCurrency.body.data.refundCreate.userErrors[0].field).toEqual(["currency"]);
    expect(shop.refunds.size).toBe(0);
    const created = await graphql(shopify, REFUND_CREATE, { input: input("EUR"), key: "c" });
    expect(created.body.data.refundCreate.userErrors).toEqual([]);
    expect(created.body.data.refundCreate.refund.totalRefundedSet).toEqual({
      shopMoney: { amount: "21.7", currencyCode: "USD" },
      presentmentMoney: { amount: "20.0", currencyCode: "EUR" },
    });
    expect(created.body.data.refundCreate.refund.transactions.nodes[0].amountSet.presentmentMoney).toEqual({ amount: "20.0", currencyCode: "EUR" });
  });

  it("announces the refund with transaction amounts in EUR and money sets in both currencies", () => {
    const { shop, order } = eurOrder();
    const body = JSON.parse(refundWebhookBody(shop, shop.createRefund(order.id, { amount: "33.33" })));
    expect(body.transactions[0]).toMatchObject({ amount: "33.33", currency: "EUR" });
    expect(Object.keys(body.transactions[0]).filter((k) => k.endsWith("_set"))).toEqual([]);
    for (const set of [body.total_duties_set, body.total_additional_fees_set]) {
      expect(set).toEqual({ shop_money: { amount: "0.00", currency_code: "USD" }, presentment_money: { amount: "0.00", currency_code: "EUR" } });
    }
  });

  it("keeps zero-decimal shop currencies right: an EUR order in a JPY shop", async () => {
    const { shopify, shop } = setup({ currency: "JPY" });
    const order = shop.createOrder({ amount: "10.00", presentmentCurrency: "EUR", exchangeRate: "162.35" });
    const { body } = await graphql(shopify, `query($id: ID!) { order(id: $id) { totalPriceSet ${MONEY} } }`, { id: orderGid(order.id) });
    expect(body.data.order.totalPriceSet).toEqual({
      shopMoney: { amount: "1624.0", currencyCode: "JPY" },
      presentmentMoney: { amount: "10.0", currencyCode: "EUR" },
    });
    const webhook = JSON.parse(refundWebhookBody(shop, shop.createRefund(order.id, { amount: "1.00" })));
    expect(webhook.total_duties_set.shop_money).toEqual({ amount: "0", currency_code: "JPY" });
  });

  it("refuses an order in another currency without an exchange rate", () => {
    const { shop } = setup();
    expect(() => shop.createOrder({ amount: "10.00", presentmentCurrency: "EUR" })).toThrow(/exchangeRate/);
  });
});
