import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disputeWebhookBody, newDelivery, refundWebhookBody, sendDelivery, TOPIC_PATHS } from "../../fake-shopify/webhooks";
import { dataPath, embeddedFetch } from "../support/embedded";
import { installShop } from "../support/sessions";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

// Money at risk twice (contract shopify.refund.exposure, decision 028): refunds Shopify recorded
// perfectly (VERIFIED) that still cost the shop twice.

let h: VerificationHarness;
const DAY = 24 * 3600_000;
const DISPUTES_SCOPE = "read_shopify_payments_disputes";

beforeAll(async () => {
  h = await startVerificationHarness("exposure-shop.myshopify.com");
  // A dispute's details and the disputes/* webhooks need it; one test takes it away.
  h.shop.grantedScopes.add(DISPUTES_SCOPE);
});
afterAll(async () => h.close());

/** A refund made and verified, its exposure judged once. */
async function verifiedRefund(amount: string, paid = "100.00") {
  const order = h.shop.createOrder({ amount: paid });
  const refund = h.shop.createRefund(order.id, { amount });
  expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
  await h.settle();
  await h.worker.runExposures();
  const op = await operationFor(h.db, refundGid(refund.id));
  expect(op.status).toBe("VERIFIED");
  return { order, refund, op };
}

const exposureOf = (operationId: string) => h.db.exposure.findUniqueOrThrow({ where: { operationId } });

/** What the exposure says, as a merchant would read its headline. */
const judged = async (operationId: string) => {
  const e = await exposureOf(operationId);
  return { status: e.status, reason: e.reason, classes: JSON.parse(e.classes) as string[], atRisk: e.atRisk, currency: e.currency };
};

/** Shopify sends its disputes/* deliveries (the fake, as a dispute is made or changes), and the app judges what they name. */
async function disputesDelivered() {
  await h.app.shopify.flushWebhooks();
  await h.worker.runExposures();
}

/** A disputes/* delivery of this shop's dispute posted under `shop`'s header: a replay, signed. */
async function replayed(topic: "disputes/create" | "disputes/update", dispute: Parameters<typeof disputeWebhookBody>[1], shop: string) {
  const response = await h.deliver(newDelivery(topic, shop, disputeWebhookBody(h.shop, dispute), h.clock.now()));
  expect(response.status).toBe(200);
  await h.worker.runExposures();
}

describe("a refund and a chargeback on one order", () => {
  it("a refund with nothing against it is clear, and says so", async () => {
    const { op } = await verifiedRefund("30.00");
    expect(await judged(op.id)).toEqual({ status: "VERIFIED", reason: "all_conditions_hold", classes: [], atRisk: null, currency: null });
  });

  it("a chargeback opened after the refund, Shopify's disputes/create delivered: at risk, the dispute's amount at stake", async () => {
    const { order, op } = await verifiedRefund("40.00");
    h.clock.ms += DAY;
    h.shop.createDispute(order.id, { amount: "100.00" });
    await disputesDelivered();
    expect(await judged(op.id)).toEqual({
      status: "CONTRADICTED",
      reason: "dispute_opened_after_refund",
      classes: ["open chargeback"],
      atRisk: "100.00",
      currency: "USD",
    });
  });

  it("a dispute saying the refund never came is called out first", async () => {
    const { order, op } = await verifiedRefund("25.00");
    h.clock.ms += DAY;
    h.shop.createDispute(order.id, { amount: "100.00", reason: "CREDIT_NOT_PROCESSED" });
    await disputesDelivered();
    const e = await judged(op.id);
    expect(e).toMatchObject({ status: "CONTRADICTED", reason: "dispute_says_credit_not_processed", classes: ["open chargeback"], atRisk: "100.00" });
    const reasons = JSON.parse((await exposureOf(op.id)).reasons);
    expect(reasons).toEqual(["dispute_says_credit_not_processed", "dispute_opened_after_refund", "refund_on_disputed_order"]);
  });

  it("the chargeback lost: the shop paid twice; a dispute won clears it", async () => {
    const lost = await verifiedRefund("50.00");
    const won = await verifiedRefund("20.00");
    const [a, b] = [h.shop.createDispute(lost.order.id, { amount: "100.00" }), h.shop.createDispute(won.order.id, { amount: "100.00" })];
    await disputesDelivered();
    h.shop.updateDispute(a.id, { status: "LOST" });
    h.shop.updateDispute(b.id, { status: "WON" });
    await disputesDelivered();
    expect(await judged(lost.op.id)).toMatchObject({ status: "CONTRADICTED", reason: "chargeback_lost_after_refund", classes: ["paid twice"] });
    expect(await judged(won.op.id)).toMatchObject({ status: "VERIFIED", atRisk: null });
    // What a merchant sees: the evidence page's section, and the dashboard's figure leading to the refund.
    const asStaff = embeddedFetch(h.app.url, h.domain, "77");
    const page = await (await asStaff(dataPath(`/app/refunds/${lost.op.id}`, "routes/app.refunds.$id"))).json();
    expect(page.exposure).toMatchObject({ state: "at_risk", title: "At risk twice", atRisk: "$100.00" });
    expect(page.exposure.reasons[0]).toContain("got this money back twice");
    expect(page.exposure.disputes).toEqual([expect.objectContaining({ status: "Lost: the customer kept the money", lost: true })]);
    const clear = await (await asStaff(dataPath(`/app/refunds/${won.op.id}`, "routes/app.refunds.$id"))).json();
    expect(clear.exposure).toMatchObject({ state: "clear", title: "Clear" });
    const dashboard = await (await asStaff(dataPath("/app?range=all", "routes/app._index"))).json();
    expect(dashboard.figures.atRiskTwice.count).toBeGreaterThanOrEqual(1);
    const table = await (await asStaff(dataPath(dashboard.figures.atRiskTwice.link, "routes/app._index"))).json();
    const ids = JSON.stringify(table);
    expect(ids).toContain(lost.op.id);
    expect(ids).not.toContain(won.op.id);
    // The order page's block says it first.
    const block = await (await embeddedFetch(h.app.url, h.domain, "77")(`/app/api/orders/${lost.order.id}/refunds`)).json();
    expect(block.refunds[0].atRiskTwice).toMatch(/^\$100\.00 at risk twice\. A chargeback on this refunded order was lost/);
  });

  it("without read_shopify_payments_disputes Shopify sends no dispute webhook: the daily read finds the chargeback, the refund's amount at stake", async () => {
    h.shop.grantedScopes.delete(DISPUTES_SCOPE);
    try {
      const { order, op } = await verifiedRefund("15.00");
      h.shop.createDispute(order.id, { amount: "100.00" });
      await disputesDelivered();
      expect((await judged(op.id)).status).toBe("VERIFIED");
      h.clock.ms += DAY + 1000;
      await h.worker.runExposures();
      expect(await judged(op.id)).toEqual({
        status: "CONTRADICTED",
        reason: "refund_on_disputed_order",
        classes: ["open chargeback"],
        atRisk: "15.00",
        currency: "USD",
      });
    } finally {
      h.shop.grantedScopes.add(DISPUTES_SCOPE);
    }
  });
});

describe("order of events", () => {
  it("a dispute whose webhook arrives before the refund's own: the refund is at risk from its first judgement", async () => {
    const order = h.shop.createOrder({ amount: "100.00" });
    h.shop.createDispute(order.id, { amount: "100.00" });
    await disputesDelivered();
    h.clock.ms += 3600_000;
    const refund = h.shop.createRefund(order.id, { amount: "12.00" });
    expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    await h.worker.runExposures();
    expect((await judged((await operationFor(h.db, refundGid(refund.id))).id)).reason).toBe("refund_on_disputed_order");
  });

  it("two workers judging at the same instant while the dispute arrives: one judgement stands, and the next pass sees the dispute", async () => {
    const { order, op } = await verifiedRefund("18.00");
    h.clock.ms += DAY + 1000;
    const [a, b] = [h.newWorker(), h.newWorker()];
    const dispute = h.shop.createDispute(order.id, { amount: "100.00" });
    await Promise.all([
      a.runExposures(),
      b.runExposures(),
      h.deliver(newDelivery("disputes/create", h.domain, disputeWebhookBody(h.shop, dispute), h.clock.now())),
    ]);
    await h.worker.runExposures();
    const e = await exposureOf(op.id);
    expect(e.reason).toBe("dispute_opened_after_refund");
    expect(e.claimedBy).toBeNull();
    // Read on the first day, and by one worker, or again after the webhook voided that claim: never more than three reads.
    expect(e.attempts).toBeLessThanOrEqual(4);
  });
});

describe("the review queue", () => {
  it("a refund newly at risk goes on the queue with why and how much; resolved, it comes back when its chargeback is lost", async () => {
    const asStaff = embeddedFetch(h.app.url, h.domain, "77");
    const queue = async () =>
      (await (await asStaff(dataPath("/app/review", "routes/app.review"))).json()) as {
        items: { id: string; revision: number; reasonText: string; atRiskTwice: boolean }[];
      };
    const { order, op } = await verifiedRefund("55.00");
    expect((await queue()).items.map((i) => i.id)).not.toContain(op.id);
    const dispute = h.shop.createDispute(order.id, { amount: "100.00" });
    await disputesDelivered();
    const item = (await queue()).items.find((i) => i.id === op.id)!;
    expect(item).toMatchObject({
      atRiskTwice: true,
      reasonText: expect.stringMatching(/^\$100\.00 at risk twice\. A chargeback was opened on this order after the refund/),
    });
    const resolved = await asStaff(dataPath("/app/review", "routes/app.review"), {
      method: "POST",
      body: new URLSearchParams({ intent: "resolve", id: item.id, revision: String(item.revision), note: "Sent the refund's proof" }),
    });
    expect(resolved.status).toBe(200);
    expect((await queue()).items.map((i) => i.id)).not.toContain(op.id);
    // Re-judged the same (a replay of Shopify's delivery): it stays off the queue.
    await replayed("disputes/update", dispute, h.domain);
    expect((await queue()).items.map((i) => i.id)).not.toContain(op.id);
    h.shop.updateDispute(dispute.id, { status: "LOST" });
    await disputesDelivered();
    expect((await queue()).items.find((i) => i.id === op.id)?.reasonText).toMatch(/got this money back twice/);
  });
});

describe("more back than was paid", () => {
  it("the one item of an order refunded twice, days apart and within the money paid: the second refund is at risk, the first is clear", async () => {
    const order = h.shop.createOrder({ amount: "50.00", lineItems: [{ quantity: 1, price: "50.00" }] });
    const line = order.lineItems[0].id;
    const first = h.shop.createRefund(order.id, { amount: "20.00", lineItems: [{ lineItemId: line, quantity: 1 }] });
    h.clock.ms += 2 * DAY;
    const second = h.shop.createRefund(order.id, { amount: "20.00", lineItems: [{ lineItemId: line, quantity: 1 }] });
    for (const refund of [first, second]) expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    await h.worker.runExposures();
    const [a, b] = [await operationFor(h.db, refundGid(first.id)), await operationFor(h.db, refundGid(second.id))];
    expect(await judged(a.id)).toMatchObject({ status: "VERIFIED" });
    expect(await judged(b.id)).toMatchObject({ status: "CONTRADICTED", reason: "item_refunded_past_quantity", classes: ["more back than paid"] });
  });

  it("store credit, then days later a refund to the card past what was paid: both VERIFIED by created, at risk by the amount over", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    const credit = h.shop.createRefund(order.id, { storeCredit: "60.00" });
    h.clock.ms += 2 * DAY;
    const cash = h.shop.createRefund(order.id, { amount: "60.00" });
    for (const refund of [credit, cash]) expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    await h.worker.runExposures();
    const op = await operationFor(h.db, refundGid(cash.id));
    expect([op.status, (await operationFor(h.db, refundGid(credit.id))).status]).toEqual(["VERIFIED", "VERIFIED"]);
    expect(await judged(op.id)).toEqual({
      status: "CONTRADICTED",
      reason: "refunded_past_payment",
      classes: ["more back than paid", "store credit and cash"],
      atRisk: "60.00",
      currency: "USD",
    });
  });
});

describe("the daily look", () => {
  it("a judged refund whose order's disputes are unchanged is looked at with its disputes alone; a changed one is read whole", async () => {
    const quiet = await verifiedRefund("9.00");
    const disputed = await verifiedRefund("11.00");
    h.shop.grantedScopes.delete(DISPUTES_SCOPE);
    try {
      h.shop.createDispute(disputed.order.id, { amount: "100.00" });
      const before = { ...h.worker.gateway.stats.byOperation };
      h.clock.ms += DAY + 1000;
      await h.worker.runExposures();
      const sent = (name: string) => (h.worker.gateway.stats.byOperation[name] ?? 0) - (before[name] ?? 0);
      expect(sent("OrderDisputes")).toBeGreaterThanOrEqual(1);
      expect(await judged(quiet.op.id)).toMatchObject({ status: "VERIFIED" });
      expect(await judged(disputed.op.id)).toMatchObject({ reason: "refund_on_disputed_order" });
      expect((await exposureOf(quiet.op.id)).attempts).toBe(2);
      // Only the order whose disputes changed was read whole (every due refund of the shop in one request).
      expect(sent("OrderExposure")).toBe(1);
    } finally {
      h.shop.grantedScopes.add(DISPUTES_SCOPE);
    }
  });
});

describe("what the app may read changes, and other currencies", () => {
  it("the disputes permission withdrawn while a chargeback is open: what was read stands; when the chargeback is lost, it is judged with what the app can still read", async () => {
    const { order, op } = await verifiedRefund("33.00");
    h.clock.ms += DAY;
    const dispute = h.shop.createDispute(order.id, { amount: "100.00" });
    await disputesDelivered();
    expect(await judged(op.id)).toMatchObject({ reason: "dispute_opened_after_refund", atRisk: "100.00" });
    h.shop.grantedScopes.delete(DISPUTES_SCOPE);
    try {
      h.clock.ms += DAY + 1000;
      await h.worker.runExposures();
      expect(await judged(op.id)).toMatchObject({ reason: "dispute_opened_after_refund", atRisk: "100.00" });
      // Lost, with no webhook (no permission): the next daily look sees its status change.
      h.shop.updateDispute(dispute.id, { status: "LOST" });
      h.clock.ms += DAY + 1000;
      await h.worker.runExposures();
      expect(await judged(op.id)).toEqual({
        status: "CONTRADICTED",
        reason: "chargeback_lost_after_refund",
        classes: ["paid twice"],
        atRisk: "33.00",
        currency: "USD",
      });
    } finally {
      h.shop.grantedScopes.add(DISPUTES_SCOPE);
    }
  });

  it("an order paid in euros is judged in euros: the chargeback's amount in EUR, never converted", async () => {
    const order = h.shop.createOrder({ amount: "80.00", presentmentCurrency: "EUR", exchangeRate: "1.1" });
    const refund = h.shop.createRefund(order.id, { amount: "20.00" });
    expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    await h.worker.runExposures();
    const op = await operationFor(h.db, refundGid(refund.id));
    h.clock.ms += DAY;
    h.shop.createDispute(order.id, { amount: "80.00" });
    await disputesDelivered();
    expect(await judged(op.id)).toMatchObject({ status: "CONTRADICTED", atRisk: "80.00", currency: "EUR" });
  });

  it("a dispute on an order the app never saw is acknowledged and changes nothing", async () => {
    const stranger = h.shop.createOrder({ amount: "10.00" });
    const before = await h.db.exposure.count();
    h.shop.createDispute(stranger.id, { amount: "10.00" });
    await disputesDelivered();
    expect(await h.db.exposure.count()).toBe(before);
    expect(await h.db.exposure.count({ where: { orderGid: `gid://shopify/Order/${stranger.id}` } })).toBe(0);
  });
});

describe("dispute deliveries that lie", () => {
  it("a forged disputes/create is refused and changes nothing", async () => {
    const { order, op } = await verifiedRefund("35.00");
    const before = await exposureOf(op.id);
    // Shopify's own delivery is not sent: only the forgery arrives.
    h.shop.grantedScopes.delete(DISPUTES_SCOPE);
    const dispute = h.shop.createDispute(order.id, { amount: "100.00" });
    h.shop.grantedScopes.add(DISPUTES_SCOPE);
    const forged = newDelivery("disputes/create", h.domain, disputeWebhookBody(h.shop, dispute), h.clock.now());
    expect((await sendDelivery(h.app.url, TOPIC_PATHS["disputes/create"], forged, "not-the-app-secret")).status).toBe(401);
    expect(await exposureOf(op.id)).toEqual(before);
  });

  it("a signed one replayed under another shop's header, naming this shop's order: that shop's refunds keep their judgement, this shop's are untouched", async () => {
    const ours = await verifiedRefund("45.00");
    const otherDomain = "exposure-neighbour.myshopify.com";
    await installShop(h.db, h.app.shopify, otherDomain);
    const other = h.app.shopify.shop(otherDomain);
    const theirOrder = other.createOrder({ amount: "10.00" });
    const theirRefund = other.createRefund(theirOrder.id, { amount: "10.00" });
    expect((await h.deliver(newDelivery("refunds/create", otherDomain, refundWebhookBody(other, theirRefund), h.clock.now()))).status).toBe(200);
    await h.settle();
    await h.worker.runExposures();
    const theirs = await operationFor(h.db, refundGid(theirRefund.id));
    const [oursBefore, theirsBefore] = [await exposureOf(ours.op.id), await exposureOf(theirs.id)];
    // Shopify's own delivery of it is not sent: only the replay under the other shop's name arrives.
    h.shop.grantedScopes.delete(DISPUTES_SCOPE);
    const dispute = h.shop.createDispute(ours.order.id, { amount: "100.00" });
    h.shop.grantedScopes.add(DISPUTES_SCOPE);
    await replayed("disputes/create", dispute, otherDomain);
    expect(await exposureOf(ours.op.id)).toEqual(oursBefore);
    expect(await judged(theirs.id)).toMatchObject({ status: "VERIFIED" });
    expect((await exposureOf(theirs.id)).attempts).toBe(theirsBefore.attempts);
  });

  it("a body that is not a dispute is answered 422 and changes nothing", async () => {
    const response = await h.deliver(newDelivery("disputes/update", h.domain, JSON.stringify({ id: "0123", order_id: 1 }), h.clock.now()));
    expect(response.status).toBe(422);
  });
});
