import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newDelivery } from "../../fake-shopify/webhooks";
import { storeRefundDeliveries } from "../support/stored-deliveries";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";
import { waitFor } from "../support/wait";

// Issue 42, item 4: Shopify's mandatory compliance requests for a big customer, in a file of their own (its 1,200
// refunds would otherwise wait in every other test's settle()).
let h: VerificationHarness;
beforeAll(async () => {
  h = await startVerificationHarness("big-privacy-shop.myshopify.com");
});
afterAll(async () => h.close());

describe("a compliance request naming 10,000 orders", () => {
  it("is carried out: every refund on them listed, then their evidence removed (never a 500 on every retry)", async () => {
    const domain = h.domain;
    // 1,200 refunds the app holds (more than SQLite binds in one statement), each on an order of its own.
    await storeRefundDeliveries(h.app.shopify, h.app.databaseUrl, [domain], 1_200, new Date(h.clock.ms));
    await waitFor("the deliveries opened", async () => (await h.worker.runOnce(), (await h.db.operation.count({ where: { shop: domain } })) === 1_200));
    const held = (await h.db.operation.findMany({ where: { shop: domain }, select: { orderGid: true } })).map((op) => op.orderGid.split("/").pop()!);
    const orders = [...held, ...Array.from({ length: 10_000 - held.length }, (_, i) => String(9_100_000_000_000 + i))];

    const dataRequest = `{"shop_id":1,"shop_domain":"${domain}","customer":{"id":7},"orders_requested":[${orders.join(",")}],"data_request":{"id":5}}`;
    expect((await h.deliver(newDelivery("customers/data_request", domain, dataRequest))).status).toBe(200);
    const request = await h.db.complianceRequest.findFirstOrThrow({ where: { shop: domain, topic: "customers/data_request" } });
    expect(JSON.parse(request.detail).refunds).toHaveLength(1_200);

    expect(await h.db.webhookDelivery.count({ where: { shop: domain } })).toBe(1_200);
    const redact = `{"shop_id":1,"shop_domain":"${domain}","customer":{"id":7},"orders_to_redact":[${orders.join(",")}]}`;
    expect((await h.deliver(newDelivery("customers/redact", domain, redact))).status).toBe(200);
    const redacted = await h.db.complianceRequest.findFirstOrThrow({ where: { shop: domain, topic: "customers/redact" } });
    expect(JSON.parse(redacted.detail).operations).toBe(1_200);
    expect(await h.db.webhookDelivery.count({ where: { shop: domain } })).toBe(0);
  });
});
