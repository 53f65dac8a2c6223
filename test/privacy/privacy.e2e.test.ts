import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newDelivery, refundWebhookBody } from "../../fake-shopify/webhooks";
import { installShop } from "../support/sessions";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

let h: VerificationHarness;
beforeAll(async () => {
  h = await startVerificationHarness("privacy-shop.myshopify.com");
});
afterAll(async () => h.close());

async function verifiedRefund(domain = h.domain) {
  const shop = h.app.shopify.shop(domain);
  const order = shop.createOrder({ amount: "40.00" });
  const refund = shop.createRefund(order.id, { amount: "10.00" });
  await h.deliver(newDelivery("refunds/create", domain, refundWebhookBody(shop, refund)));
  await h.settle();
  return { order, refund };
}

async function rowsFor(shop: string) {
  return {
    sessions: await h.db.session.count({ where: { shop } }),
    deliveries: await h.db.webhookDelivery.count({ where: { shop } }),
    operations: await h.db.operation.count({ where: { shop } }),
    observations: await h.db.observation.count({ where: { operation: { shop } } }),
    evaluations: await h.db.evaluation.count({ where: { operation: { shop } } }),
    states: await h.db.shopState.count({ where: { shop } }),
    compliance: await h.db.complianceRequest.count({ where: { shop } }),
  };
}

describe("customers/data_request", () => {
  it("records what the app holds for the requested orders", async () => {
    const { order, refund } = await verifiedRefund();
    const payload = { shop_id: 1, shop_domain: h.domain, orders_requested: [String(order.id)], customer: { id: 7, email: "x@example.com", phone: null }, data_request: { id: 99 } };
    const body = JSON.stringify(payload).replace(`"${order.id}"`, String(order.id));
    expect((await h.deliver(newDelivery("customers/data_request", h.domain, body))).status).toBe(200);
    const request = await h.db.complianceRequest.findFirstOrThrow({ where: { shop: h.domain, topic: "customers/data_request" } });
    const detail = JSON.parse(request.detail);
    expect(detail.data_request_id).toBe(99);
    expect(detail.refunds).toHaveLength(1);
    expect(detail.refunds[0]).toMatchObject({ refundGid: refundGid(refund.id), status: "VERIFIED", amount: "10.00" });
  });
});

describe("customers/redact", () => {
  it("removes the evidence of the listed orders' refunds and keeps the others", async () => {
    const kept = await verifiedRefund();
    const redacted = await verifiedRefund();
    const body = `{"shop_id":1,"shop_domain":"${h.domain}","customer":{"id":7},"orders_to_redact":[${redacted.order.id}]}`;
    expect((await h.deliver(newDelivery("customers/redact", h.domain, body))).status).toBe(200);
    const gone = await operationFor(h.db, refundGid(redacted.refund.id));
    expect(gone.observations).toHaveLength(0);
    expect(gone.evaluations.every((e) => e.result === '{"redacted":true}')).toBe(true);
    expect(await h.db.webhookDelivery.count({ where: { orderGid: `gid://shopify/Order/${redacted.order.id}` } })).toBe(0);
    expect((await operationFor(h.db, refundGid(kept.refund.id))).observations.length).toBeGreaterThan(0);
  });
});

describe("app/uninstalled, then shop/redact", () => {
  it("uninstall stops observing; shop/redact leaves nothing of the shop in any table", async () => {
    const other = "neighbour-shop.myshopify.com";
    await installShop(h.db, h.app.shopify, other);
    await verifiedRefund(other);
    const domain = "leaving-shop.myshopify.com";
    await installShop(h.db, h.app.shopify, domain);
    await verifiedRefund(domain);
    const shop = h.app.shopify.shop(domain);
    const order = shop.createOrder({ amount: "20.00" });
    const pending = shop.createRefund(order.id, { amount: "5.00", visibleAfterMs: 3600_000 });
    await h.deliver(newDelivery("refunds/create", domain, refundWebhookBody(shop, pending)));

    expect((await h.deliver(newDelivery("app/uninstalled", domain, `{"id":1,"domain":"${domain}"}`))).status).toBe(200);
    const stopped = await operationFor(h.db, refundGid(pending.id));
    expect(stopped).toMatchObject({ status: "PENDING", nextDueAt: null });
    const before = h.app.shopify.api(domain).stats.graphqlRequests;
    h.clock.advance(3600_000);
    await h.worker.runOnce();
    expect(h.app.shopify.api(domain).stats.graphqlRequests).toBe(before);

    expect((await h.deliver(newDelivery("shop/redact", domain, `{"shop_id":1,"shop_domain":"${domain}"}`))).status).toBe(200);
    expect(await rowsFor(domain)).toEqual({ sessions: 0, deliveries: 0, operations: 0, observations: 0, evaluations: 0, states: 0, compliance: 0 });
    const neighbour = await rowsFor(other);
    expect(neighbour.operations).toBe(1);
    expect(neighbour.sessions).toBe(1);
  });
});
