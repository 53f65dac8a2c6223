import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TransportError, type ShopGraphql } from "../../app/shopify/admin/transport";
import { dataPath, embeddedFetch } from "../support/embedded";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

let h: VerificationHarness;
beforeAll(async () => {
  h = await startVerificationHarness("today-shop.myshopify.com");
});
afterAll(async () => h.close());

async function markSwept() {
  const lastSweepAt = h.clock.now();
  await h.db.shopState.upsert({ where: { shop: h.domain }, create: { shop: h.domain, lastSweepAt }, update: { lastSweepAt, sweepRequested: false } });
}

describe("what the app records of the API version that answered", () => {
  it("each observation keeps the X-Shopify-API-Version of its answer or webhooks, and the evidence page shows it", async () => {
    await markSwept();
    const order = h.shop.createOrder({ amount: "40.00" });
    const refund = h.shop.createRefund(order.id, { amount: "10.00" });
    await h.deliver(h.refundDelivery(refund));
    await h.settle();
    const op = await operationFor(h.db, refundGid(refund.id));
    expect(op.status).toBe("VERIFIED");
    const versions = new Set(op.observations.map((o) => `${o.channel} ${o.apiVersion}`));
    // The app's own record (intended_refund) was served by no API version.
    expect(versions).toEqual(
      new Set(["refund_readback 2026-10", "refund_events 2026-10", "earlier_duplicates 2026-10", "refund_absence 2026-10", "intended_refund null"]),
    );
    const page = await embeddedFetch(h.app.url, h.domain)(`/app/refunds/${op.id}`);
    expect(await page.text()).toContain("refund_readback: answered by Admin API 2026-10");
  });
});

describe("a per-node error in nodes(ids:)", () => {
  it("fails that refund's read only: the rest of the batch is verified on time", async () => {
    // Two attempts because the first read comes 1 s after the refund, inside the stale read
    // window: on the test's clock, standing still. On the wall clock a busy machine took more than
    // the window's 20 s between creating the refunds and reading them, and the first read counted
    // as the last ([1, 1], issue 29).
    h.clock.freeze();
    await markSwept();
    const order = h.shop.createOrder({ amount: "90.00" });
    const refunds = [0, 1, 2].map(() => h.shop.createRefund(order.id, { amount: "10.00" }));
    h.shop.denyAccess(refunds[1].id);
    // Three refunds on one order are a duplicate by the contract; one per order keeps this about reading.
    const separate = [0, 1, 2].map(() => h.shop.createOrder({ amount: "30.00" })).map((o) => h.shop.createRefund(o.id, { amount: "5.00" }));
    h.shop.denyAccess(separate[1].id);
    for (const refund of separate) await h.deliver(h.refundDelivery(refund));
    await h.settle(60_000);
    const [first, denied, third] = await Promise.all(separate.map((r) => operationFor(h.db, refundGid(r.id))));
    expect([first.status, third.status]).toEqual(["VERIFIED", "VERIFIED"]);
    expect([first.attempts, third.attempts]).toEqual([2, 2]);
    expect(denied.status).toBe("PENDING");
    const failed = denied.observations.filter((o) => o.channel === "refund_readback" && !o.ok);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0].error).toMatch(/ACCESS_DENIED/);
    expect(denied.attempts).toBe(0);
  });
});

describe("the reconciliation sweep", () => {
  it("finds all 70 refunds of one order whose webhooks were lost", async () => {
    await h.db.shopState.update({ where: { shop: h.domain }, data: { sweepRequested: true } });
    const order = h.shop.createOrder({ amount: "700.00" });
    const refunds = Array.from({ length: 70 }, () => h.shop.createRefund(order.id, { amount: "1.00" }));
    await h.worker.runOnce();
    const opened = await h.db.operation.findMany({ where: { refundGid: { in: refunds.map((r) => refundGid(r.id)) } } });
    expect(opened).toHaveLength(70);
    expect(opened.every((op) => op.origin === "reconciliation" && op.amount === "1.00" && op.currency === "USD")).toBe(true);
    expect((await h.db.shopState.findUniqueOrThrow({ where: { shop: h.domain } })).sweepCompletedAt).not.toBeNull();
  });

  it("waits for a throttled bucket instead of failing, and completes in the same pass", async () => {
    await h.db.shopState.update({ where: { shop: h.domain }, data: { sweepRequested: true } });
    const order = h.shop.createOrder({ amount: "20.00" });
    const lost = h.shop.createRefund(order.id, { amount: "4.00" });
    h.app.shopify.inject({ kind: "throttled" }, 2);
    await h.worker.runOnce();
    expect(h.app.shopify.pendingFaults()).toBe(0);
    expect(await h.db.operation.count({ where: { refundGid: refundGid(lost.id) } })).toBe(1);
    const state = await h.db.shopState.findUniqueOrThrow({ where: { shop: h.domain } });
    expect(state).toMatchObject({ sweepStartedAt: null, sweepCursor: null, sweepRequested: false });
  });

  it("keeps its cursor across a crash: a new worker resumes at the page it stopped, and shows when it completed", async () => {
    await h.db.shopState.update({ where: { shop: h.domain }, data: { sweepRequested: true } });
    const orders = Array.from({ length: 25 }, () => h.shop.createOrder({ amount: "10.00" }));
    const lost = orders.map((o) => h.shop.createRefund(o.id, { amount: "2.00" }));
    // Imported once the harness has set the app's environment (shopify.server reads it on import).
    const { offlineGraphql } = await import("../../app/shopify.server");
    const sweepPages =
      (counter: { pages: number; cursors: unknown[] }, failOnPage?: number): ((shop: string) => Promise<ShopGraphql>) =>
      async (shop) => {
        const graphql = await offlineGraphql(shop);
        return async (query, variables) => {
          if (query.includes("query RefundSweep")) {
            counter.cursors.push(variables.after);
            if (++counter.pages === failOnPage) throw new TransportError("network", "socket hang up");
          }
          return graphql(query, variables);
        };
      };
    const crashing = { pages: 0, cursors: [] as unknown[] };
    await h.newWorker({ graphqlFor: sweepPages(crashing, 2) }).runOnce();
    const paused = await h.db.shopState.findUniqueOrThrow({ where: { shop: h.domain } });
    expect(paused.sweepCursor).not.toBeNull();
    expect(paused.sweepStartedAt).not.toBeNull();
    const openedBefore = await h.db.operation.count({ where: { refundGid: { in: lost.map((r) => refundGid(r.id)) } } });
    expect(openedBefore).toBeGreaterThan(0);
    expect(openedBefore).toBeLessThan(25);

    const resumed = { pages: 0, cursors: [] as unknown[] };
    await h.newWorker({ graphqlFor: sweepPages(resumed) }).runOnce();
    // It starts at the page the crash interrupted, not at the first.
    expect(resumed.cursors[0]).toBe(paused.sweepCursor);
    expect(crashing.cursors[1]).toBe(paused.sweepCursor);
    expect(await h.db.operation.count({ where: { refundGid: { in: lost.map((r) => refundGid(r.id)) } } })).toBe(25);
    const done = await h.db.shopState.findUniqueOrThrow({ where: { shop: h.domain } });
    expect(done.sweepCursor).toBeNull();
    const dashboard = await (await embeddedFetch(h.app.url, h.domain)(dataPath("/app", "routes/app._index"))).json();
    expect(dashboard.sweep.lastCompletedAt).toBe(done.sweepCompletedAt!.toISOString());
  });
});
