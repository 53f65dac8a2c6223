import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { requestBackfill } from "../../app/backfill/request.server";
import { MADE_BY_AGREEMENTS } from "../../app/shopify/admin/documents";
import { installShop } from "../support/sessions";
import { limitsOf } from "../support/limits";
import { backfillToEnd, operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

// Decision 031: where a refund was made and by whom, read from what Shopify says of it, for live
// refunds (the payload and the read-back), refunds the sweep found, the history backfill and
// refunds issued in the app; stored on the operation.
let h: VerificationHarness;
const people = limitsOf(() => h);
beforeAll(async () => {
  h = await startVerificationHarness("made-shop.myshopify.com");
});
afterAll(async () => h.close());
beforeEach(() => h.clock.freeze());

const made = async (id: bigint) => {
  const op = await operationFor(h.db, refundGid(id));
  return { origin: op.origin, madeIn: op.madeIn, madeByStaff: op.madeByStaff, madeByApp: op.madeByApp };
};

describe("a live refund, told by its webhook", () => {
  it("is placed from its payload and its agreement: the admin and who (user_id), Point of Sale, another app by its name, or not known", async () => {
    const order = h.shop.createOrder({ amount: "200.00" });
    const inAdmin = h.shop.createRefund(order.id, { amount: "10.00", staffUserId: "42" });
    const onPos = h.shop.createRefund(order.id, { amount: "11.00", staffUserId: "303", pos: true });
    const byApp = h.shop.createRefund(order.id, { amount: "12.00", app: "Returns Pro" });
    const other = h.shop.createOrder({ amount: "50.00" });
    const nobody = h.shop.createRefund(other.id, { amount: "13.00" });
    const readsBefore = h.app.shopify.api(h.domain).stats.byOperation.RefundReadback ?? 0;
    for (const refund of [inAdmin, onPos, byApp, nobody]) expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    expect(await made(inAdmin.id)).toEqual({ origin: "webhook", madeIn: "admin", madeByStaff: "42", madeByApp: null });
    expect(await made(onPos.id)).toEqual({ origin: "webhook", madeIn: "pos", madeByStaff: "303", madeByApp: null });
    expect(await made(byApp.id)).toEqual({ origin: "webhook", madeIn: "app", madeByStaff: null, madeByApp: "Returns Pro" });
    expect(await made(nobody.id)).toEqual({ origin: "webhook", madeIn: "unknown", madeByStaff: null, madeByApp: null });
    // Read with the refunds themselves: no request of its own, and as many read-backs as before (each refund's first, its second at the window's end).
    expect(Object.keys(h.app.shopify.api(h.domain).stats.byOperation).filter((name) => /agreement|made/i.test(name))).toEqual([]);
    expect((h.app.shopify.api(h.domain).stats.byOperation.RefundReadback ?? 0) - readsBefore).toBeLessThanOrEqual(8);
  });

  it("made earlier than the order's last agreements read, says who Shopify named, and not where", async () => {
    const order = h.shop.createOrder({ amount: "200.00" });
    const first = h.shop.createRefund(order.id, { amount: "5.00", staffUserId: "42", visibleAfterMs: 30_000 });
    // Shopify shows the first refund only after the order's later ones: its agreement is no longer among the last three.
    for (let i = 0; i < MADE_BY_AGREEMENTS; i++) h.shop.createRefund(order.id, { amount: "1.00", app: "Returns Pro" });
    expect((await h.deliver(h.refundDelivery(first))).status).toBe(200);
    await h.settle();
    expect(await made(first.id)).toEqual({ origin: "webhook", madeIn: "unknown", madeByStaff: "42", madeByApp: null });
  });
});

describe("a refund the sweep found (its webhook lost)", () => {
  it("is placed from its agreement alone: another app, by name", async () => {
    const sweeping = h.newWorker({ sweepIntervalMs: 1 });
    const order = h.shop.createOrder({ amount: "80.00" });
    const refund = h.shop.createRefund(order.id, { amount: "20.00", app: "Returns Pro" });
    h.clock.advance(60_000);
    await sweeping.runOnce();
    await h.settle();
    expect(await made(refund.id)).toEqual({ origin: "reconciliation", madeIn: "app", madeByStaff: null, madeByApp: "Returns Pro" });
  });
});

describe("a refund issued from the app's refund form", () => {
  it("was made in this app, by whoever asked for it", async () => {
    await people.meetStaff();
    const order = h.shop.createOrder({ amount: "60.00" });
    expect((await people.askRefund("88", order.id, "15.00")).status).toBe(200);
    const record = await h.db.refundRecord.findFirstOrThrow({ where: { shop: h.domain, orderId: `gid://shopify/Order/${order.id}` } });
    await h.app.shopify.flushWebhooks();
    await h.settle();
    const op = await h.db.operation.findFirstOrThrow({ where: { shop: h.domain, refundGid: record.refundRef! } });
    expect([op.origin, op.madeIn, op.madeByStaff, op.madeByApp]).toEqual(["app", "this_app", "88", null]);
  });
});

describe("the shop's history, read by the backfill", () => {
  it("places each refund from its agreement and its transactions' POS device: nobody is named without a payload", async () => {
    const domain = "made-history.myshopify.com";
    await installShop(h.db, h.app.shopify, domain);
    const shop = h.app.shopify.shop(domain);
    const at = new Date(h.clock.ms - 5 * 86_400_000);
    const order = shop.createOrder({ amount: "300.00", createdAt: new Date(at.getTime() - 3600_000) });
    const inAdmin = shop.createRefund(order.id, { amount: "10.00", staffUserId: "42", createdAt: at });
    const onPos = shop.createRefund(order.id, { amount: "11.00", staffUserId: "42", pos: true, createdAt: new Date(at.getTime() + 60_000) });
    const byApp = shop.createRefund(order.id, { amount: "12.00", app: "Returns Pro", createdAt: new Date(at.getTime() + 120_000) });
    await requestBackfill(h.db, domain, 60, "dashboard", h.clock.now());
    expect(await backfillToEnd(h, domain)).toMatchObject({ state: "done" });
    const placed = async (id: bigint) => {
      const op = await h.db.operation.findFirstOrThrow({ where: { shop: domain, refundGid: refundGid(id) } });
      return [op.origin, op.madeIn, op.madeByStaff, op.madeByApp];
    };
    expect(await placed(inAdmin.id)).toEqual(["backfill", "unknown", null, null]);
    expect(await placed(onPos.id)).toEqual(["backfill", "pos", null, null]);
    expect(await placed(byApp.id)).toEqual(["backfill", "app", null, "Returns Pro"]);
  });
});
