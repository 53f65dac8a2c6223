import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath, embeddedFetch } from "../support/embedded";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";

// Issue 43: a refund issued in the app on an order whose money is already at risk (an open
// chargeback, a refund to store credit, refunds past what was paid) needs "Yes, refund anyway".

let h: VerificationHarness;
let asShop: ReturnType<typeof embeddedFetch>;
const DAY = 24 * 3600_000;
const DISPUTES_SCOPE = "read_shopify_payments_disputes";

beforeAll(async () => {
  h = await startVerificationHarness("risk-shop.myshopify.com");
  asShop = embeddedFetch(h.app.url, h.domain, "77");
});
afterAll(async () => h?.close());

const orderGid = (id: bigint) => `gid://shopify/Order/${id}`;
const formPath = (orderId: bigint) => dataPath(`/app/orders/${orderId}/refund`, "routes/app.orders.$orderId.refund");
const post = (orderId: bigint, fields: Record<string, string>) =>
  asShop(formPath(orderId), { method: "POST", body: new URLSearchParams({ intent: "issue", formToken: randomUUID(), ...fields }) });
const form = async (orderId: bigint) => (await asShop(formPath(orderId))).json();
const refundCreateCalls = () => h.app.shopify.api(h.domain).stats.refundCreateCalls;
const refundsInShopify = (orderId: bigint) => h.shop.orders.get(orderId)!.refundIds.length;
const recordsOn = (orderId: bigint) => h.db.refundRecord.findMany({ where: { orderId: orderGid(orderId) } });
/** A refund to store credit made in Shopify admin a day ago (not minutes ago: no "another refund" question). */
const storeCreditRefund = (orderId: bigint, amount: string) => h.shop.createRefund(orderId, { storeCredit: amount, createdAt: new Date(h.clock.ms - DAY) });

describe("an order with an open chargeback", () => {
  it("is refused without 'Yes, refund anyway': 409 OPEN_CHARGEBACK in words, nothing sent to Shopify, no record", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    h.shop.createDispute(order.id, { amount: "60.00", status: "NEEDS_RESPONSE" });
    const before = refundCreateCalls();
    const refused = await post(order.id, { amount: "20.00" });
    expect(refused.status).toBe(409);
    const body = await refused.json();
    expect(body).toMatchObject({ ok: false, code: "OPEN_CHARGEBACK", risks: ["OPEN_CHARGEBACK"] });
    expect(body.message).toContain(`${order.name} has an open chargeback that needs your response`);
    expect(body.message).toContain('confirm "Yes, refund anyway"');
    expect(refundCreateCalls()).toBe(before);
    expect(refundsInShopify(order.id)).toBe(0);
    expect(await recordsOn(order.id)).toHaveLength(0);
    // "Yes, another refund" is another question: it does not confirm the chargeback.
    expect((await post(order.id, { amount: "20.00", confirmAnother: "yes" })).status).toBe(409);
    expect(refundsInShopify(order.id)).toBe(0);
  });

  it("with 'Yes, refund anyway': one refund, and the record says who confirmed it and what", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    const dispute = h.shop.createDispute(order.id, { status: "UNDER_REVIEW" });
    const before = refundCreateCalls();
    const response = await post(order.id, { amount: "20.00", confirmRisk: "OPEN_CHARGEBACK" });
    expect(response.status).toBe(200);
    expect(refundCreateCalls()).toBe(before + 1);
    expect(refundsInShopify(order.id)).toBe(1);
    const [record] = await recordsOn(order.id);
    expect(record).toMatchObject({ shopifyOutcome: "created", confirmedBy: "77", confirmedAnother: false });
    expect(JSON.parse(record.refCaptions)).toContainEqual({
      id: `gid://shopify/OrderDisputeSummary/${dispute.id}`,
      caption: "Open chargeback (under review by the bank): refunded anyway",
    });
  });

  it("the form says so: its status, and that the amount and due date need read_shopify_payments_disputes", async () => {
    const order = h.shop.createOrder({ amount: "45.00" });
    h.shop.createDispute(order.id, { amount: "45.00" });
    const data = await form(order.id);
    expect(data.risks.codes).toEqual(["OPEN_CHARGEBACK"]);
    expect(data.risks.warnings).toEqual([
      {
        code: "OPEN_CHARGEBACK",
        title: "This order has an open chargeback",
        lines: [
          "A chargeback that needs your response. Its amount and due date need the permission to read Shopify Payments disputes (read_shopify_payments_disputes), which this shop has not granted the app: see them in Shopify admin.",
          "If the customer wins it, the money is taken back from the shop, so a refund now pays them twice. Refunding needs your explicit confirmation.",
        ],
      },
    ]);
  });

  it("with read_shopify_payments_disputes the form gives the chargeback's amount, with its currency, and its due date", async () => {
    h.shop.grantedScopes.add(DISPUTES_SCOPE);
    try {
      const order = h.shop.createOrder({ amount: "45.00" });
      h.shop.createDispute(order.id, { amount: "45.00", evidenceDueBy: new Date("2030-01-15T17:00:00Z") });
      const data = await form(order.id);
      expect(data.risks.warnings[0].lines[0]).toBe("A chargeback of $45.00 USD that needs your response by Jan 15, 2030, 12:00 PM EST.");
    } finally {
      h.shop.grantedScopes.delete(DISPUTES_SCOPE);
    }
  });

  it("when Shopify does not answer for the chargeback's details, the form says it could not read them and still asks", async () => {
    h.shop.grantedScopes.add(DISPUTES_SCOPE);
    try {
      const order = h.shop.createOrder({ amount: "45.00" });
      h.shop.createDispute(order.id);
      // The order's read goes through; the next query, the chargeback's details, meets a 503.
      h.app.shopify.inject({ kind: "slow", ms: 0, operation: "query" });
      h.app.shopify.inject({ kind: "http", status: 503, operation: "query" });
      const data = await form(order.id);
      expect(data.risks.codes).toEqual(["OPEN_CHARGEBACK"]);
      expect(data.risks.warnings[0].lines[0]).toBe(
        "A chargeback that needs your response. Shopify did not answer when the app asked for its amount and due date: see them in Shopify admin.",
      );
    } finally {
      h.shop.grantedScopes.delete(DISPUTES_SCOPE);
    }
  });

  it("a chargeback the shop won asks nothing", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    const dispute = h.shop.createDispute(order.id);
    h.shop.updateDispute(dispute.id, { status: "WON" });
    expect((await form(order.id)).risks).toEqual({ codes: [], warnings: [] });
    expect((await post(order.id, { amount: "20.00" })).status).toBe(200);
    expect(refundsInShopify(order.id)).toBe(1);
    expect((await recordsOn(order.id))[0]).toMatchObject({ confirmedBy: null });
  });

  it("a double click with 'Yes, refund anyway' is one refund", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    h.shop.createDispute(order.id);
    const fields = { intent: "issue", amount: "25.00", confirmRisk: "OPEN_CHARGEBACK", formToken: randomUUID() };
    const [first, second] = await Promise.all([0, 1].map(() => asShop(formPath(order.id), { method: "POST", body: new URLSearchParams(fields) })));
    expect([first.status, second.status]).toEqual([200, 200]);
    const [a, b] = await Promise.all([first.json(), second.json()]);
    expect(a.sysId).toBe(b.sysId);
    expect(refundsInShopify(order.id)).toBe(1);
    expect(await recordsOn(order.id)).toHaveLength(1);
  });
});

describe("an order refunded to store credit", () => {
  it("a refund to the card after it asks first: 409 STORE_CREDIT_REFUNDED; confirmed, it goes", async () => {
    const order = h.shop.createOrder({ amount: "50.00" });
    storeCreditRefund(order.id, "20.00");
    const data = await form(order.id);
    expect(data.risks.codes).toEqual(["STORE_CREDIT_REFUNDED"]);
    expect(data.risks.warnings).toEqual([
      {
        code: "STORE_CREDIT_REFUNDED",
        title: "This order was refunded to store credit",
        lines: [
          "$20.00 USD of this order already went back to the customer as store credit. A refund to their payment as well may pay them twice for the same items. Refunding needs your explicit confirmation.",
        ],
      },
    ]);
    const before = refundCreateCalls();
    const refused = await post(order.id, { amount: "10.00" });
    expect(refused.status).toBe(409);
    const body = await refused.json();
    expect(body).toMatchObject({ code: "STORE_CREDIT_REFUNDED", risks: ["STORE_CREDIT_REFUNDED"] });
    expect(body.message).toMatch(/^\$20\.00 USD of #\d+ was already refunded to store credit/);
    expect(refundCreateCalls()).toBe(before);
    // A confirmation of another risk is not this one.
    expect((await post(order.id, { amount: "10.00", confirmRisk: "OPEN_CHARGEBACK" })).status).toBe(409);
    expect((await post(order.id, { amount: "10.00", confirmRisk: "STORE_CREDIT_REFUNDED" })).status).toBe(200);
    expect(refundsInShopify(order.id)).toBe(2);
  });

  it("an unknown confirmation is refused at the door in words", async () => {
    const order = h.shop.createOrder({ amount: "50.00" });
    const response = await post(order.id, { amount: "10.00", confirmRisk: "EVERYTHING" });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code: "INVALID_FORM", fieldErrors: { confirmRisk: expect.stringContaining("Reload the page") } });
  });
});

describe("refunds past what the customer paid", () => {
  it("Shopify's refunds of the order already add up to more than its transactions: the amount that would take them past the payment asks first", async () => {
    // A refund whose total Shopify records as $30.00 while its transaction moved $10.00: Shopify can still refund $40.00 of the
    // payment, but the order's refunds, store credit included, would reach $55.00 of the $50.00 paid.
    const order = h.shop.createOrder({ amount: "50.00" });
    h.shop.createRefund(order.id, { amount: "10.00", recordedAmount: "30.00", createdAt: new Date(h.clock.ms - DAY) });
    const data = await form(order.id);
    expect(data.order).toMatchObject({ paid: "50.00", refunded: "30.00", refundable: "40.00" });
    expect(data.risks.codes).toEqual([]);
    const refused = await post(order.id, { amount: "25.00" });
    expect(refused.status).toBe(409);
    const body = await refused.json();
    expect(body).toMatchObject({ code: "REFUNDED_PAST_PAYMENT", risks: ["REFUNDED_PAST_PAYMENT"] });
    expect(body.message).toContain("takes the refunds of");
    expect((await post(order.id, { amount: "20.00" })).status).toBe(200);
  });
});
