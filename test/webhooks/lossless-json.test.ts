import { describe, expect, it } from "vitest";
import { parseJsonKeepingLongIntegers } from "../../app/webhooks/lossless-json";
import { parseRefundWebhook, RefundPayloadError } from "../../app/webhooks/refund-payload";

describe("parseJsonKeepingLongIntegers", () => {
  it("keeps the exact digits of integers above 2^53 and leaves the rest alone", () => {
    const parsed = parseJsonKeepingLongIntegers(
      '{"id":890088186047892319,"small":42,"price":"199.00","rate":0.06,"neg":-9007199254740993,"s":"a \\"quoted\\" 12345678901234567"}',
    );
    expect(parsed).toEqual({ id: "890088186047892319", small: 42, price: "199.00", rate: 0.06, neg: "-9007199254740993", s: 'a "quoted" 12345678901234567' });
    // What it guards against: JSON.parse rounds the id to another refund's.
    expect(String(JSON.parse('{"id":890088186047892319}').id)).toBe("890088186047892400");
  });

  it("still refuses what is not JSON", () => {
    expect(() => parseJsonKeepingLongIntegers('{"id": 1,')).toThrow();
  });
});

describe("parseRefundWebhook", () => {
  const body = `{"id":890088186047892319,"order_id":820982911946154508,"created_at":"2025-10-01T14:53:52-04:00","admin_graphql_api_id":"gid://shopify/Refund/890088186047892319","user_id":548380009,
    "transactions":[{"kind":"refund","status":"success","amount":"41.94","currency":"USD"},{"kind":"refund","status":"success","amount":"0.06","currency":"USD"},{"kind":"sale","status":"success","amount":"100.00","currency":"USD"}]}`;

  it("derives the bindings' facts: global ids from exact digits, the refund transactions' exact sum", () => {
    expect(parseRefundWebhook(body)).toEqual({
      refundGid: "gid://shopify/Refund/890088186047892319",
      orderGid: "gid://shopify/Order/820982911946154508",
      createdAt: "2025-10-01T14:53:52-04:00",
      amount: "42.00",
      currency: "USD",
      transactionStatuses: ["SUCCESS", "SUCCESS"],
      staffUserId: "548380009",
      posDeviceId: null,
    });
  });

  it("keeps the POS device that processed a transaction (decision 031), as Shopify spells its id; anything else is none", () => {
    const base = '{"id":1,"order_id":2,"created_at":"2025-10-01T14:53:52Z","transactions":[';
    const sale = '{"kind":"sale","status":"success","amount":"1.00","device_id":null}';
    expect(parseRefundWebhook(`${base}${sale},{"kind":"refund","status":"success","amount":"1.00","device_id":9007199254740993}]}`).posDeviceId).toBe(
      "gid://shopify/PointOfSaleDevice/9007199254740993",
    );
    expect(parseRefundWebhook(`${base}${sale}]}`).posDeviceId).toBeNull();
    expect(parseRefundWebhook(`${base}{"kind":"refund","status":"success","amount":"1.00","device_id":"007"}]}`).posDeviceId).toBeNull();
  });

  it("keeps who made the refund only as Shopify spells a user's id: null when no person did, null when it is anything else", () => {
    const base = '{"id":1,"order_id":2,"created_at":"2025-10-01T14:53:52Z"';
    expect(parseRefundWebhook(`${base},"user_id":null}`).staffUserId).toBeNull();
    expect(parseRefundWebhook(`${base}}`).staffUserId).toBeNull();
    expect(parseRefundWebhook(`${base},"user_id":"0042"}`).staffUserId).toBeNull();
    expect(parseRefundWebhook(`${base},"user_id":{"id":7}}`).staffUserId).toBeNull();
    expect(parseRefundWebhook(`${base},"user_id":"77"}`).staffUserId).toBe("77");
  });

  it("names the missing member of a payload that is not a refund", () => {
    expect(() => parseRefundWebhook('{"id":1,"created_at":"2025-10-01T14:53:52Z"}')).toThrow(RefundPayloadError);
    expect(() => parseRefundWebhook('{"id":1,"created_at":"2025-10-01T14:53:52Z"}')).toThrow(/order_id/);
    expect(() => parseRefundWebhook('{"id":1,"order_id":2,"created_at":"soon"}')).toThrow(/created_at/);
  });
});
