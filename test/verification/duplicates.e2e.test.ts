import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newDelivery, refundWebhookBody } from "../../fake-shopify/webhooks";
import { dataPath, embeddedFetch } from "../support/embedded";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

// What a merchant calls a duplicate (contract shopify.refund.created 1.2.0): another refund of the
// same amount on the same order, made by Shopify's clock within the 10 minutes before this one,
// that no person confirmed. Each case below was a false alarm before 1.2.0.

let h: VerificationHarness;
let asStaff: ReturnType<typeof embeddedFetch>;
const HOUR = 3600_000;

beforeAll(async () => {
  h = await startVerificationHarness("duplicates-shop.myshopify.com");
  asStaff = embeddedFetch(h.app.url, h.domain, "77");
});
afterAll(async () => h.close());

/** The verdicts of these refunds, and how many alerts they raised once the alert pass has run. */
async function outcome(refunds: { id: bigint }[]) {
  await h.settle();
  await h.worker.runAlerts();
  const ops = await Promise.all(refunds.map((r) => operationFor(h.db, refundGid(r.id))));
  const alerts = await h.db.alertEvent.count({ where: { operationId: { in: ops.map((op) => op.id) } } });
  return { verdicts: ops.map((op) => [op.status, op.reason]), escalated: ops.filter((op) => op.escalate).length, alerts };
}

const issueFromApp = (orderId: bigint, amount: string, confirmAnother: boolean) =>
  asStaff(dataPath(`/app/orders/${orderId}/refund`, "routes/app.orders.$orderId.refund"), {
    method: "POST",
    body: new URLSearchParams({ intent: "issue", amount, formToken: randomUUID(), ...(confirmAnother ? { confirmAnother: "yes" } : {}) }),
  });

const BOTH_VERIFIED_NO_ALERT = {
  verdicts: [
    ["VERIFIED", "all_conditions_hold"],
    ["VERIFIED", "all_conditions_hold"],
  ],
  escalated: 0,
  alerts: 0,
};

/** A refund issued from the app, then a second on the same order confirmed with "Yes, another refund". */
async function issuedTwiceFromApp(first: string, second: string) {
  const order = h.shop.createOrder({ amount: "100.00" });
  expect((await issueFromApp(order.id, first, false)).status).toBe(200);
  expect((await issueFromApp(order.id, second, true)).status).toBe(200);
  await h.app.shopify.flushWebhooks();
  const refunds = h.shop.orders.get(order.id)!.refundIds.map((id) => ({ id }));
  expect(refunds).toHaveLength(2);
  return { order, refunds };
}

describe("two refunds on one order that a merchant made on purpose", () => {
  it("a partial refund of 25.00 and, four seconds later, one of 7.50 are two refunds: both VERIFIED, no alert", async () => {
    const order = h.shop.createOrder({ amount: "100.00" });
    const shipping = h.shop.createRefund(order.id, { amount: "25.00" });
    const item = h.shop.createRefund(order.id, { amount: "7.50", createdAt: new Date(shipping.createdAt.getTime() + 4000) });
    for (const refund of [shipping, item]) expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    expect(await outcome([shipping, item])).toEqual(BOTH_VERIFIED_NO_ALERT);
  });

  it("two refunds of one amount two hours apart, the older one's webhook retried late, are both VERIFIED", async () => {
    const order = h.shop.createOrder({ amount: "100.00" });
    const older = h.shop.createRefund(order.id, { amount: "15.00", createdAt: new Date(h.clock.ms - 2 * HOUR) });
    const newer = h.shop.createRefund(order.id, { amount: "15.00" });
    // Shopify retries a failed delivery for hours: the older refund's webhook arrives after the newer's.
    expect((await h.deliver(h.refundDelivery(newer))).status).toBe(200);
    expect((await h.deliver(h.refundDelivery(older))).status).toBe(200);
    expect(await outcome([older, newer])).toEqual(BOTH_VERIFIED_NO_ALERT);
  });

  it("issued from the app, 12.50 then 3.00 confirmed as another refund: both VERIFIED, no alert", async () => {
    const { refunds } = await issuedTwiceFromApp("12.50", "3.00");
    expect(await outcome(refunds)).toEqual(BOTH_VERIFIED_NO_ALERT);
  });

  it("issued from the app, the same amount twice, the second confirmed as another refund: both VERIFIED, and the second says who confirmed it", async () => {
    const { order, refunds } = await issuedTwiceFromApp("20.00", "20.00");
    expect(await outcome(refunds)).toEqual(BOTH_VERIFIED_NO_ALERT);
    const second = await operationFor(h.db, refundGid(refunds[1].id));
    const evidence = await (await asStaff(dataPath(`/app/refunds/${second.id}`, "routes/app.refunds.$id"))).json();
    expect(evidence.lead.details).toContainEqual(
      expect.stringMatching(new RegExp(`^Issued from the app and confirmed as another refund on ${order.name} by .+\\.$`)),
    );
  });
});

describe("refunds Shopify does not show", () => {
  it("two signed refunds/create deliveries for refunds Shopify answers null for are never decided from the webhooks: UNVERIFIABLE, Shopify never showed them", async () => {
    const order = h.shop.createOrder({ amount: "100.00" });
    // Shopify's read-back answers `refund: null` for these, every read.
    const ghosts = [1, 2].map(() => h.shop.createRefund(order.id, { amount: "9.00", visibleAfterMs: 30 * 24 * HOUR }));
    for (const ghost of ghosts) expect((await h.deliver(h.refundDelivery(ghost))).status).toBe(200);
    await h.settle(60_000);
    for (const ghost of ghosts) expect((await operationFor(h.db, refundGid(ghost.id))).status).toBe("PENDING");
    const { verdicts } = await outcome(ghosts);
    expect(verdicts).toEqual([
      ["UNVERIFIABLE", "refund_not_in_shop"],
      ["UNVERIFIABLE", "refund_not_in_shop"],
    ]);
    // Decided on Shopify's own answers: ten reads after the stale read window that found no such refund.
    const op = await operationFor(h.db, refundGid(ghosts[0].id));
    expect(op.observations.filter((o) => o.channel === "refund_readback" && o.ok).length).toBeGreaterThanOrEqual(10);
  });
});

describe("a refund of another shop, named under this shop", () => {
  it("a signed refunds/create of another shop's refund replayed under this shop's header ends UNVERIFIABLE order_not_in_shop, with no alert and no review item; the other shop's refund is untouched", async () => {
    // Shopify signs the body only: the shop header of a replayed delivery can name any shop.
    const other = h.app.shopify.addShop("neighbour-shop.myshopify.com");
    const theirs = other.createRefund(other.createOrder({ amount: "80.00" }).id, { amount: "80.00" });
    const replayed = newDelivery("refunds/create", h.domain, refundWebhookBody(other, theirs), h.clock.now());
    expect((await h.deliver(replayed)).status).toBe(200);
    // Beside it, this shop's own refund that Shopify never shows still goes to a person.
    const order = h.shop.createOrder({ amount: "50.00" });
    const ghost = h.shop.createRefund(order.id, { amount: "5.00", visibleAfterMs: 30 * 24 * HOUR });
    expect((await h.deliver(h.refundDelivery(ghost))).status).toBe(200);
    expect(await outcome([theirs, ghost])).toEqual({
      verdicts: [
        ["UNVERIFIABLE", "order_not_in_shop"],
        ["UNVERIFIABLE", "refund_not_in_shop"],
      ],
      escalated: 1,
      alerts: 1,
    });
    const op = await operationFor(h.db, refundGid(theirs.id));
    expect(op).toMatchObject({ shop: h.domain, reviewState: "none" });
    const queue = await (await asStaff(dataPath("/app/review", "routes/app.review"))).text();
    expect(queue).toContain((await operationFor(h.db, refundGid(ghost.id))).id);
    expect(queue).not.toContain(op.id);
    const evidence = await (await asStaff(dataPath(`/app/refunds/${op.id}`, "routes/app.refunds.$id"))).json();
    expect(JSON.stringify(evidence)).toContain("Shopify shows neither this refund nor its order in your shop");
    expect(await h.db.operation.count({ where: { shop: other.domain } })).toBe(0);
  });
});

describe("a refund made twice", () => {
  it("the same amount twice within seconds on one order: the second CONTRADICTED duplicate_refund_present and alerted, the first VERIFIED", async () => {
    const order = h.shop.createOrder({ amount: "100.00" });
    const first = h.shop.createRefund(order.id, { amount: "40.00" });
    const second = h.shop.createRefund(order.id, { amount: "40.00", createdAt: new Date(first.createdAt.getTime() + 3000) });
    for (const refund of [first, second]) expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    expect(await outcome([first, second])).toEqual({
      verdicts: [
        ["VERIFIED", "all_conditions_hold"],
        ["CONTRADICTED", "duplicate_refund_present"],
      ],
      escalated: 1,
      alerts: 1,
    });
    const op = await operationFor(h.db, refundGid(second.id));
    const evidence = await (await asStaff(dataPath(`/app/refunds/${op.id}`, "routes/app.refunds.$id"))).json();
    expect(evidence.lead.sentence).toBe(`This refund of $40.00 was made 3 seconds after another refund of $40.00 on ${order.name}. Shopify holds both.`);
  });
});
