import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath, embeddedFetch } from "../support/embedded";
import { installShop } from "../support/sessions";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";

let h: VerificationHarness;
let asShop: ReturnType<typeof embeddedFetch>;

beforeAll(async () => {
  h = await startVerificationHarness("issue-shop.myshopify.com");
  asShop = embeddedFetch(h.app.url, h.domain, "77");
});
afterAll(async () => h.close());

const calls = () => h.app.shopify.api(h.domain).stats.refundCreateCalls;
const orderGid = (id: bigint) => `gid://shopify/Order/${id}`;
const issueForm = (orderId: bigint, amount: string, formToken = randomUUID()) =>
  asShop(dataPath(`/app/orders/${orderId}/refund`, "routes/app.orders.$orderId.refund"), {
    method: "POST",
    body: new URLSearchParams({ intent: "issue", amount, note: "Damaged in transit", formToken }),
  });

describe("a refund issued in the app", () => {
  it("is minted, sent once, ends VERIFIED by the contract and succeeded once its transaction succeeds", async () => {
    const order = h.shop.createOrder({ amount: "80.00" });
    const before = calls();
    const response = await issueForm(order.id, "30.00");
    expect(response.status).toBe(200);
    expect((await response.json()).sysId).toMatch(/^RF-\d{6}$/);
    expect(calls()).toBe(before + 1);
    const record = await h.db.refundRecord.findFirstOrThrow({ where: { orderId: orderGid(order.id) } });
    expect(record).toMatchObject({ status: "created", amountMinor: 3000n, currency: "USD", calls: 1, note: "Damaged in transit", type: "Refund" });
    expect(record.refundRef).toMatch(/^gid:\/\/shopify\/Refund\/\d+$/);
    expect(JSON.parse(record.refCaptions)[0]).toEqual({ id: orderGid(order.id), caption: order.name });
    const op = await h.db.operation.findFirstOrThrow({ where: { refundGid: record.refundRef! } });
    expect(op).toMatchObject({ origin: "app", amount: "30.00", startedAt: record.createdAt });
    expect(JSON.parse(op.actionResult!).refundCreate.refund.id).toBe(record.refundRef);
    await h.app.shopify.flushWebhooks();
    expect(await h.db.webhookDelivery.count({ where: { refundGid: record.refundRef! } })).toBe(1);
    await h.settle();
    expect((await h.db.operation.findUniqueOrThrow({ where: { id: op.id } })).status).toBe("VERIFIED");
    const settled = await h.db.refundRecord.findUniqueOrThrow({ where: { id: record.id } });
    expect(settled.status).toBe("succeeded");
    expect(settled.revision).not.toBe(record.revision);
    expect(settled.revisionNum).toBeGreaterThan(record.revisionNum);
  });

  it("a form's token is good for the order it was made for: posted on another order, it is refused with words, and answers nothing of the first", async () => {
    const first = h.shop.createOrder({ amount: "40.00" });
    const second = h.shop.createOrder({ amount: "40.00" });
    const token = randomUUID();
    expect((await issueForm(first.id, "15.00", token)).status).toBe(200);
    const before = calls();
    const reused = await issueForm(second.id, "15.00", token);
    expect(reused.status).toBe(422);
    const body = await reused.json();
    expect(body.fieldErrors.formToken).toBe("This form was made for another order. Reload the page and try again.");
    expect(JSON.stringify(body)).not.toContain("RF-");
    expect(calls()).toBe(before);
    expect(await h.db.refundRecord.count({ where: { orderId: orderGid(second.id) } })).toBe(0);
    // The same form again, on its own order, is still the one refund it made.
    const again = await issueForm(first.id, "15.00", token);
    expect([again.status, (await again.json()).sysId]).toEqual([200, expect.stringMatching(/^RF-\d{6}$/)]);
    expect(await h.db.refundRecord.count({ where: { orderId: orderGid(first.id) } })).toBe(1);
  });

  it("a transaction still pending at the verdict moves the record to succeeded later, from what Shopify reports", async () => {
    const order = h.shop.createOrder({ amount: "50.00" });
    await issueForm(order.id, "10.00");
    await h.app.shopify.flushWebhooks();
    const record = await h.db.refundRecord.findFirstOrThrow({ where: { orderId: orderGid(order.id) } });
    const refund = [...h.shop.refunds.values()].find((r) => `gid://shopify/Refund/${r.id}` === record.refundRef)!;
    h.shop.setTransactionStatus(refund, "PENDING");
    await h.settle();
    expect((await h.db.refundRecord.findUniqueOrThrow({ where: { id: record.id } })).status).toBe("created");
    h.shop.setTransactionStatus(refund, "SUCCESS");
    h.clock.advance(61_000);
    await h.worker.runOnce();
    expect((await h.db.refundRecord.findUniqueOrThrow({ where: { id: record.id } })).status).toBe("succeeded");
  });

  it("refuses an over-refund (OVER_TENDERED) before any Shopify call, and mints nothing", async () => {
    const order = h.shop.createOrder({ amount: "20.00" });
    const before = calls();
    const response = await issueForm(order.id, "20.01");
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: "OVER_TENDERED", message: `You can refund at most $20.00 on ${order.name}.` });
    expect(calls()).toBe(before);
    expect(await h.db.refundRecord.count({ where: { orderId: orderGid(order.id) } })).toBe(0);
  });

  it("ends failed with Shopify's message when refundCreate answers userErrors", async () => {
    const order = h.shop.createOrder({ amount: "40.00" });
    h.app.shopify.api(h.domain).nextRefundCreateError = "Refund amount $40.00 is greater than net payment received $0.00";
    const response = await issueForm(order.id, "40.00");
    expect(response.status).toBe(422);
    expect((await response.json()).message).toContain("greater than net payment received");
    const record = await h.db.refundRecord.findFirstOrThrow({ where: { orderId: orderGid(order.id) } });
    expect(record).toMatchObject({ status: "failed", refundRef: null, calls: 1 });
    expect(record.failureReason).toContain("greater than net payment received");
    expect(await h.db.operation.count({ where: { orderGid: orderGid(order.id) } })).toBe(0);
  });

  it("refuses the 65th attempt on one order", async () => {
    const order = h.shop.createOrder({ amount: "90.00" });
    const { mintRecord } = await import("../../app/refunds/records.server");
    for (let i = 0; i < 64; i++)
      await mintRecord(
        h.db,
        { shop: h.domain, caption: "old attempt", orderId: orderGid(order.id), amountMinor: 1n, currency: "USD", shopifyOutcome: "refused" },
        new Date(),
      );
    const before = calls();
    const response = await issueForm(order.id, "1.00");
    expect(response.status).toBe(409);
    expect((await response.json()).code).toBe("ATTEMPT_LIMIT");
    expect(calls()).toBe(before);
    expect(await h.db.refundRecord.count({ where: { orderId: orderGid(order.id) } })).toBe(64);
  });
});

describe("the 64-attempt bound", () => {
  it("holds under concurrency: two requests for the 64th slot at once, one wins, the other is refused before Shopify", async () => {
    const order = h.shop.createOrder({ amount: "90.00" });
    const { mintRecord } = await import("../../app/refunds/records.server");
    for (let i = 0; i < 63; i++)
      await mintRecord(
        h.db,
        { shop: h.domain, caption: "old attempt", orderId: orderGid(order.id), amountMinor: 1n, currency: "USD", shopifyOutcome: "refused" },
        new Date(),
      );
    const before = calls();
    const responses = await Promise.all([issueForm(order.id, "1.00"), issueForm(order.id, "2.00")]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(calls()).toBe(before + 1);
    const records = await h.db.refundRecord.findMany({ where: { orderId: orderGid(order.id) }, select: { attemptNumber: true } });
    expect(records).toHaveLength(64);
    expect(new Set(records.map((r) => r.attemptNumber)).size).toBe(64);
    expect(Math.max(...records.map((r) => r.attemptNumber))).toBe(64);
  });
});

describe("GET /app/api/refunds/:id", () => {
  it("is a read-only JSON view of the shop's own records", async () => {
    const record = await h.db.refundRecord.findFirstOrThrow({ where: { shop: h.domain, status: "succeeded" } });
    const view = await (await asShop(`/app/api/refunds/${record.id}`)).json();
    expect(view).toMatchObject({
      id: record.id,
      sysId: record.sysId,
      type: "Refund",
      status: "succeeded",
      amountMinor: Number(record.amountMinor),
      currency: "USD",
      refundRef: record.refundRef,
      revision: record.revision,
      verdict: { status: "VERIFIED" },
    });
    expect((await asShop(`/app/api/refunds/${record.id}`, { method: "POST", body: "{}" })).status).toBe(405);
    const other = "someone-else.myshopify.com";
    await installShop(h.db, h.app.shopify, other);
    expect((await embeddedFetch(h.app.url, other)(`/app/api/refunds/${record.id}`)).status).toBe(404);
  });
});
