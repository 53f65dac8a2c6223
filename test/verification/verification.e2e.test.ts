import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

let h: VerificationHarness;
beforeAll(async () => {
  h = await startVerificationHarness();
});
afterAll(async () => h.close());

describe("a refund observed by webhook", () => {
  it("ends VERIFIED, with the contract that decided it and the evidence it used", async () => {
    const order = h.shop.createOrder({ amount: "80.00" });
    const refund = h.shop.createRefund(order.id, { amount: "25.00" });
    expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    const op = await operationFor(h.db, refundGid(refund.id));
    expect(op).toMatchObject({
      status: "VERIFIED",
      origin: "webhook",
      amount: "25.00",
      currency: "USD",
      orderGid: `gid://shopify/Order/${order.id}`,
      escalate: false,
      attempts: 2,
      nextDueAt: null,
      provisionalVerdict: null,
    });
    expect(op.contractId).toBe("shopify.refund.created");
    expect(op.contractDeclaredHash).toBe("362ca2f325e3f3b5");
    expect(op.contractVersion).toBe("1.3.0");
    expect(op.orderName).toBe(order.name);
    const last = JSON.parse(op.evaluations.at(-1)!.result);
    expect(last.conditions.find((c: { id: string }) => c.id === "refund_present").actual).toBe(refundGid(refund.id));
    expect([...new Set(op.observations.map((o) => o.channel))].sort()).toEqual([
      "earlier_duplicates",
      "intended_refund",
      "refund_absence",
      "refund_events",
      "refund_readback",
    ]);
  });

  it("an operation opened under contract 1.0.0 is judged to its end by 1.0.0, not by the version new refunds get", async () => {
    const { REFUND_CREATED_1_0_0 } = await import("../../app/contracts/registry.server");
    const { openOperation } = await import("../../app/verification/operations.server");
    const order = h.shop.createOrder({ amount: "80.00", presentmentCurrency: "EUR", exchangeRate: "1.1000" });
    const refund = h.shop.createRefund(order.id, { amount: "10.00" });
    await openOperation(
      h.db,
      REFUND_CREATED_1_0_0,
      {
        shop: h.domain,
        refundGid: refundGid(refund.id),
        orderGid: `gid://shopify/Order/${order.id}`,
        origin: "webhook",
        amount: "10.00",
        currency: "EUR",
        startedAt: refund.createdAt,
      },
      h.clock.now(),
    );
    await h.deliver(h.refundDelivery(refund));
    await h.settle();
    const op = await operationFor(h.db, refundGid(refund.id));
    expect(op.contractVersion).toBe("1.0.0");
    const last = JSON.parse(op.evaluations.at(-1)!.result);
    // 1.0.0 compares shop money (USD): the EUR amount is left unknown instead of contradicting across currencies.
    expect(last.conditions.find((c: { id: string }) => c.id === "refund_amount_mismatch")).toMatchObject({
      path: "$observed.refund_readback.data.refund.totalRefundedSet.shopMoney.amount",
      status: "unknown",
    });
    expect(op.status).toBe("VERIFIED");
  });

  it("keeps ids above 2^53 exact from the webhook's raw digits", async () => {
    const order = h.shop.createOrder({ amount: "10.00" });
    const refund = h.shop.createRefund(order.id, { amount: "1.00" });
    expect(refund.id > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    await h.deliver(h.refundDelivery(refund));
    await h.worker.runOnce();
    const op = await operationFor(h.db, refundGid(refund.id));
    expect(op.orderGid).toBe(`gid://shopify/Order/${order.id}`);
  });

  it("counts the same delivery three times as one event, two duplicates dropped, and still VERIFIED", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    const refund = h.shop.createRefund(order.id, { amount: "30.00" });
    const delivery = h.refundDelivery(refund);
    for (let i = 0; i < 3; i++) expect((await h.deliver(delivery)).status).toBe(200);
    await h.settle();
    const ops = await h.db.operation.findMany({ where: { refundGid: refundGid(refund.id) } });
    expect(ops).toHaveLength(1);
    expect(ops[0].status).toBe("VERIFIED");
    expect(await h.db.webhookDelivery.count({ where: { refundGid: refundGid(refund.id) } })).toBe(1);
    const op = await operationFor(h.db, refundGid(refund.id));
    const events = JSON.parse(op.observations.find((o) => o.channel === "refund_events")!.data!);
    expect(events).toMatchObject({ count: 1, duplicates_dropped: 2, types: ["REFUNDS_CREATE"] });
  });

  it("one signed body replayed 51 times with fresh webhook and event ids is one stored delivery and one line on the evidence page", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    const refund = h.shop.createRefund(order.id, { amount: "20.00" });
    const delivery = h.refundDelivery(refund);
    for (let i = 0; i < 51; i++) {
      const replay = i === 0 ? delivery : { ...delivery, webhookId: randomUUID(), eventId: randomUUID() };
      expect((await h.deliver(replay)).status).toBe(200);
    }
    await h.settle();
    const stored = await h.db.webhookDelivery.findMany({ where: { refundGid: refundGid(refund.id) } });
    expect(stored.map((d) => [d.webhookId, d.redeliveries])).toEqual([[delivery.webhookId, 50]]);
    const op = await operationFor(h.db, refundGid(refund.id));
    expect(op.status).toBe("VERIFIED");
    const events = JSON.parse(op.observations.find((o) => o.channel === "refund_events")!.data!);
    expect(events).toMatchObject({ count: 1, duplicates_dropped: 50 });
  });

  it("a second delivery of the same event (another webhook id) is not a second refund", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    const refund = h.shop.createRefund(order.id, { amount: "20.00" });
    const first = h.refundDelivery(refund);
    await h.deliver(first);
    await h.deliver({ ...first, webhookId: crypto.randomUUID() });
    await h.settle();
    const op = await operationFor(h.db, refundGid(refund.id));
    expect(op.status).toBe("VERIFIED");
  });

  it("flags the second of two refunds of one amount on one order, within seconds, as duplicate_refund_present; the first is verified", async () => {
    const order = h.shop.createOrder({ amount: "100.00" });
    const first = h.shop.createRefund(order.id, { amount: "40.00" });
    const second = h.shop.createRefund(order.id, { amount: "40.00" });
    await h.deliver(h.refundDelivery(first));
    await h.deliver(h.refundDelivery(second));
    await h.settle();
    expect(await operationFor(h.db, refundGid(first.id))).toMatchObject({ status: "VERIFIED", escalate: false });
    const op = await operationFor(h.db, refundGid(second.id));
    expect(op).toMatchObject({ status: "CONTRADICTED", reason: "duplicate_refund_present", escalate: true, reviewState: "open" });
    expect(JSON.parse(op.classes)).toEqual(["duplicate side effect"]);
  });

  it("a refund whose recorded amount differs is CONTRADICTED refund_amount_mismatch", async () => {
    const order = h.shop.createOrder({ amount: "90.00" });
    const refund = h.shop.createRefund(order.id, { amount: "30.00", recordedAmount: "35.00" });
    await h.deliver(h.refundDelivery(refund));
    await h.settle();
    expect(await operationFor(h.db, refundGid(refund.id))).toMatchObject({ status: "CONTRADICTED", reason: "refund_amount_mismatch" });
  });

  it("a failed gateway transaction ends FAILED and goes to a person", async () => {
    const order = h.shop.createOrder({ amount: "90.00" });
    const refund = h.shop.createRefund(order.id, { amount: "30.00", status: "FAILURE" });
    await h.deliver(h.refundDelivery(refund));
    await h.settle();
    expect(await operationFor(h.db, refundGid(refund.id))).toMatchObject({
      status: "FAILED",
      reason: "transaction_failed",
      escalate: true,
      reviewState: "open",
    });
  });
});

describe("reconciliation", () => {
  it("finds a refund whose webhook never arrived (default 15-minute sweep), and verifies it when its webhook comes late", async () => {
    const sweeper = h.newWorker({ sweepIntervalMs: undefined });
    // A sweep now, whenever the last one was: the 15 minutes below count from it.
    await h.db.shopState.update({ where: { shop: h.domain }, data: { sweepRequested: true } });
    await sweeper.runOnce();
    const order = h.shop.createOrder({ amount: "70.00" });
    const lost = h.shop.createRefund(order.id, { amount: "15.00" });
    expect(await h.db.operation.count({ where: { refundGid: refundGid(lost.id) } })).toBe(0);
    h.clock.advance(14 * 60_000);
    await sweeper.runOnce();
    expect(await h.db.operation.count({ where: { refundGid: refundGid(lost.id) } })).toBe(0);
    h.clock.advance(2 * 60_000);
    await sweeper.runOnce();
    const found = await operationFor(h.db, refundGid(lost.id));
    expect(found).toMatchObject({ origin: "reconciliation", amount: "15.00", status: "PENDING" });
    await h.settle(2 * 3600_000);
    expect((await operationFor(h.db, refundGid(lost.id))).status).toBe("PENDING");
    await h.deliver(h.refundDelivery(lost));
    await h.settle(60_000);
    const verified = await operationFor(h.db, refundGid(lost.id));
    expect(verified).toMatchObject({ status: "VERIFIED", origin: "reconciliation" });
    expect(await h.db.operation.count({ where: { refundGid: refundGid(lost.id) } })).toBe(1);
  });
});

describe("the timeout", () => {
  it("a refund Shopify shows but whose webhook never comes ends UNVERIFIABLE after 7 days, escalated", async () => {
    const order = h.shop.createOrder({ amount: "50.00" });
    const lost = h.shop.createRefund(order.id, { amount: "5.00" });
    const { openOperation } = await import("../../app/verification/operations.server");
    const { REFUND_CREATED } = await import("../../app/contracts/registry.server");
    const facts = { shop: h.domain, refundGid: refundGid(lost.id), orderGid: `gid://shopify/Order/${order.id}`, origin: "reconciliation" as const };
    await openOperation(h.db, REFUND_CREATED, { ...facts, amount: "5.00", currency: "USD", startedAt: lost.createdAt }, h.clock.now());
    await h.settle(6 * 24 * 3600_000);
    const pending = await operationFor(h.db, refundGid(lost.id));
    expect(pending.status).toBe("PENDING");
    expect(pending.attempts).toBe(40);
    await h.settle();
    const op = await operationFor(h.db, refundGid(lost.id));
    expect(op).toMatchObject({ status: "UNVERIFIABLE", reason: "evidence_unavailable_before_timeout", escalate: true, reviewState: "open" });
    expect(op.decidedAt!.getTime() - op.startedAt.getTime()).toBeGreaterThanOrEqual(604_800_000);
  });
});
