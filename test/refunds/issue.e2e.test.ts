import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ShopGraphql } from "../../app/verification/readback.server";
import { dataPath, embeddedFetch } from "../support/embedded";
import { installShop } from "../support/sessions";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";

let h: VerificationHarness;
let asShop: ReturnType<typeof embeddedFetch>;
let graphql: ShopGraphql;
let service: typeof import("../../app/refunds/issue.server");
let REFUND_CREATED: typeof import("../../app/contracts/registry.server").REFUND_CREATED;

beforeAll(async () => {
  h = await startVerificationHarness("issue-shop.myshopify.com");
  asShop = embeddedFetch(h.app.url, h.domain, "77");
  graphql = await (await import("../../app/verification/worker.server")).offlineGraphql(h.domain);
  service = await import("../../app/refunds/issue.server");
  REFUND_CREATED = (await import("../../app/contracts/registry.server")).REFUND_CREATED;
});
afterAll(async () => h.close());

const calls = () => h.app.shopify.api(h.domain).stats.refundCreateCalls;
const orderGid = (id: bigint) => `gid://shopify/Order/${id}`;
const issueForm = (orderId: bigint, amount: string) =>
  asShop(dataPath(`/app/orders/${orderId}/refund`, "routes/app.orders.$orderId.refund"), { method: "POST", body: new URLSearchParams({ intent: "issue", amount, note: "Damaged in transit" }) });

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
    expect((await response.json()).message).toMatch(/^OVER_TENDERED: 20\.01 USD is more than the 20\.00 USD/);
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
    for (let i = 0; i < 64; i++) await mintRecord(h.db, { shop: h.domain, caption: "old attempt", orderId: orderGid(order.id), amountMinor: 1n, currency: "USD" }, new Date());
    const before = calls();
    const response = await issueForm(order.id, "1.00");
    expect(response.status).toBe(409);
    expect((await response.json()).code).toBe("ATTEMPT_LIMIT");
    expect(calls()).toBe(before);
    expect(await h.db.refundRecord.count({ where: { orderId: orderGid(order.id) } })).toBe(64);
  });
});

describe("no blind retry", () => {
  it("a crash after Shopify created the refund and before stamping recovers by adopting it, with no second refundCreate", async () => {
    const order = h.shop.createOrder({ amount: "70.00" });
    const dying: ShopGraphql = async (query, variables) => {
      const body = await graphql(query, variables);
      if (query.includes("refundCreate")) throw new Error("socket hang up");
      return body;
    };
    const before = calls();
    // Shopify stamps the refund with its own clock; the record is minted just before, on ours.
    const result = await service.issueRefund(h.db, REFUND_CREATED, dying, { shop: h.domain, orderId: orderGid(order.id), amount: "25.00", notify: false }, new Date());
    expect(result).toMatchObject({ ok: false, code: "OUTCOME_UNKNOWN" });
    expect(calls()).toBe(before + 1);
    const record = await h.db.refundRecord.findFirstOrThrow({ where: { orderId: orderGid(order.id) } });
    expect(record).toMatchObject({ status: "created", refundRef: null });
    h.clock.ms = Math.max(h.clock.ms, Date.now()) + 31_000;
    // Recovery takes 50 records a pass, oldest first (the attempt-limit test left 64 behind).
    for (let pass = 0; pass < 3; pass++) await h.worker.runOnce();
    const adopted = await h.db.refundRecord.findUniqueOrThrow({ where: { id: record.id } });
    const shopifyRefund = [...h.shop.refunds.values()].find((r) => r.orderId === order.id)!;
    expect(adopted.refundRef).toBe(`gid://shopify/Refund/${shopifyRefund.id}`);
    expect(calls()).toBe(before + 1);
    await h.settle();
    // Its own webhook had already put the refund under the contract; the adopted record points at that verdict.
    expect(await h.db.operation.findFirstOrThrow({ where: { refundGid: adopted.refundRef! } })).toMatchObject({ status: "VERIFIED" });
  });

  it("when Shopify shows no refund, only a person may try again, and a stale revision token is refused", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    const lost: ShopGraphql = async (query, variables) => {
      if (query.includes("refundCreate")) throw new Error("connect ETIMEDOUT");
      return graphql(query, variables);
    };
    await service.issueRefund(h.db, REFUND_CREATED, lost, { shop: h.domain, orderId: orderGid(order.id), amount: "15.00", notify: false }, new Date());
    h.clock.ms = Math.max(h.clock.ms, Date.now()) + 31_000;
    for (let pass = 0; pass < 3; pass++) await h.worker.runOnce();
    const waiting = await h.db.refundRecord.findFirstOrThrow({ where: { orderId: orderGid(order.id) } });
    expect(waiting).toMatchObject({ status: "created", refundRef: null, failureReason: "Shopify shows no refund for this attempt. A person may try again." });
    const stale = await asShop(dataPath(`/app/orders/${order.id}/refund`, "routes/app.orders.$orderId.refund"), { method: "POST", body: new URLSearchParams({ intent: "retry", recordId: waiting.id, revision: "not-the-current-token" }) });
    expect(stale.status).toBe(409);
    expect((await stale.json()).code).toBe("CONFLICT");
    const before = calls();
    const retried = await asShop(dataPath(`/app/orders/${order.id}/refund`, "routes/app.orders.$orderId.refund"), { method: "POST", body: new URLSearchParams({ intent: "retry", recordId: waiting.id, revision: waiting.revision }) });
    expect(retried.status).toBe(200);
    expect(calls()).toBe(before + 1);
    expect(await h.db.refundRecord.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({ calls: 2, failureReason: null });
  });

  it("a duplicate_refund_present verdict on the order blocks the retry: do not retry", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    const first = h.shop.createRefund(order.id, { amount: "5.00" });
    const second = h.shop.createRefund(order.id, { amount: "5.00" });
    await h.deliver(h.refundDelivery(first));
    await h.deliver(h.refundDelivery(second));
    await h.settle();
    const { mintRecord, updateRecord } = await import("../../app/refunds/records.server");
    const record = await mintRecord(h.db, { shop: h.domain, caption: "lost", orderId: orderGid(order.id), amountMinor: 500n, currency: "USD" }, new Date());
    await updateRecord(h.db, record, { failureReason: "Shopify shows no refund for this attempt. A person may try again." }, new Date());
    const current = await h.db.refundRecord.findUniqueOrThrow({ where: { id: record.id } });
    const before = calls();
    const result = await service.retryRefund(h.db, REFUND_CREATED, graphql, h.domain, current.id, current.revision, new Date());
    expect(result).toMatchObject({ ok: false, code: "DO_NOT_RETRY" });
    expect(calls()).toBe(before);
  });
});

describe("GET /app/api/refunds/:id", () => {
  it("is a read-only JSON view of the shop's own records", async () => {
    const record = await h.db.refundRecord.findFirstOrThrow({ where: { shop: h.domain, status: "succeeded" } });
    const view = await (await asShop(`/app/api/refunds/${record.id}`)).json();
    expect(view).toMatchObject({ id: record.id, sysId: record.sysId, type: "Refund", status: "succeeded", amountMinor: String(record.amountMinor), currency: "USD", refundRef: record.refundRef, revision: record.revision, verdict: { status: "VERIFIED" } });
    expect((await asShop(`/app/api/refunds/${record.id}`, { method: "POST", body: "{}" })).status).toBe(405);
    const other = "someone-else.myshopify.com";
    await installShop(h.db, h.app.shopify, other);
    expect((await embeddedFetch(h.app.url, other)(`/app/api/refunds/${record.id}`)).status).toBe(404);
  });
});
