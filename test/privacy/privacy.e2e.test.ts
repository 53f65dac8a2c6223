import { Prisma } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newDelivery, refundWebhookBody } from "../../fake-shopify/webhooks";
import { installShop } from "../support/sessions";
import { dataPath, embeddedFetch } from "../support/embedded";
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

/**
 * Rows of the shop in every table Prisma knows: a model with a `shop` column is counted by it, one
 * that hangs off an operation by the operation's shop. A table added later that has neither fails
 * here, so it cannot be forgotten by shop/redact.
 */
async function rowsFor(shop: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const model of Prisma.dmmf.datamodel.models) {
    // It names no shop: which compliance deliveries (by webhook id) were handled.
    if (model.name === "ComplianceDelivery") continue;
    const fields = new Set(model.fields.map((f) => f.name));
    const where = fields.has("shop")
      ? { shop }
      : fields.has("operationId")
        ? { operation: { shop } }
        : fields.has("backfillId")
          ? { backfill: { shop } }
          : undefined;
    if (!where) throw new Error(`model ${model.name} has neither a shop nor an operation: say how shop/redact removes its rows`);
    const delegate = (h.db as unknown as Record<string, { count(args: unknown): Promise<number> }>)[model.name[0].toLowerCase() + model.name.slice(1)];
    counts[model.name] = await delegate.count({ where });
  }
  return counts;
}

describe("customers/data_request", () => {
  it("records what the app holds for the requested orders", async () => {
    const { order, refund } = await verifiedRefund();
    const payload = {
      shop_id: 1,
      shop_domain: h.domain,
      orders_requested: [String(order.id)],
      customer: { id: 7, email: "x@example.com", phone: null },
      data_request: { id: 99 },
    };
    const body = JSON.stringify(payload).replace(`"${order.id}"`, String(order.id));
    expect((await h.deliver(newDelivery("customers/data_request", h.domain, body))).status).toBe(200);
    const request = await h.db.complianceRequest.findFirstOrThrow({ where: { shop: h.domain, topic: "customers/data_request" } });
    const detail = JSON.parse(request.detail);
    expect(detail.data_request_id).toBe("99");
    expect(detail.refunds).toHaveLength(1);
    expect(detail.refunds[0]).toMatchObject({ refundGid: refundGid(refund.id), status: "VERIFIED", amount: "10.00", exposure: { status: "VERIFIED" } });
  });
});

describe("customers/redact", () => {
  it("removes the evidence of the listed orders' refunds and keeps the others", async () => {
    const kept = await verifiedRefund();
    const redacted = await verifiedRefund();
    const { mintRecord } = await import("../../app/refunds/records.server");
    const orderGid = `gid://shopify/Order/${redacted.order.id}`;
    const record = await mintRecord(
      h.db,
      {
        shop: h.domain,
        caption: "Refund",
        orderId: orderGid,
        amountMinor: 100n,
        currency: "USD",
        note: "Jane Doe, 12 Elm St",
        refundInput: JSON.stringify({ orderId: orderGid, note: "Jane Doe, 12 Elm St" }),
        shopifyOutcome: "created",
      },
      new Date(),
    );
    const body = `{"shop_id":1,"shop_domain":"${h.domain}","customer":{"id":7},"orders_to_redact":[${redacted.order.id}]}`;
    expect((await h.deliver(newDelivery("customers/redact", h.domain, body))).status).toBe(200);
    const gone = await operationFor(h.db, refundGid(redacted.refund.id));
    expect(gone.observations).toHaveLength(0);
    expect(await h.db.exposure.findUniqueOrThrow({ where: { operationId: gone.id } })).toMatchObject({ observed: null, result: null, nextDueAt: null });
    expect(
      (await h.db.exposure.findUniqueOrThrow({ where: { operationId: (await operationFor(h.db, refundGid(kept.refund.id))).id } })).observed,
    ).not.toBeNull();
    expect(gone.evaluations.every((e) => e.result === '{"redacted":true}')).toBe(true);
    expect(await h.db.webhookDelivery.count({ where: { orderGid: `gid://shopify/Order/${redacted.order.id}` } })).toBe(0);
    expect((await operationFor(h.db, refundGid(kept.refund.id))).observations.length).toBeGreaterThan(0);
    const scrubbed = await h.db.refundRecord.findUniqueOrThrow({ where: { id: record.id } });
    expect(scrubbed.note).toBe("[redacted on the customer's request]");
    expect(scrubbed.refundInput).not.toContain("Jane Doe");
    expect(scrubbed.revision).not.toBe(record.revision);
  });
});

describe("an order's number with a leading zero in a compliance body", () => {
  it("customers/redact is refused (400), not answered 'carried out' with the order's evidence still there", async () => {
    const { order, refund } = await verifiedRefund();
    const body = `{"shop_id":1,"shop_domain":"${h.domain}","customer":{"id":7},"orders_to_redact":["0${order.id}"]}`;
    const response = await h.deliver(newDelivery("customers/redact", h.domain, body));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/orders_to_redact\.0: .*without leading zeros/);
    expect((await operationFor(h.db, refundGid(refund.id))).observations.length).toBeGreaterThan(0);
  });

  it("customers/data_request is refused (400), not recorded as holding nothing for the order", async () => {
    const { order } = await verifiedRefund();
    const body = `{"shop_id":1,"shop_domain":"${h.domain}","orders_requested":["00${order.id}"],"customer":{"id":7},"data_request":{"id":100}}`;
    const response = await h.deliver(newDelivery("customers/data_request", h.domain, body));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/orders_requested\.0: .*without leading zeros/);
    expect(await h.db.complianceRequest.count({ where: { shop: h.domain, detail: { contains: '"data_request_id":"100"' } } })).toBe(0);
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

    // A staff member opened the app: their online session goes with the shop's offline one.
    expect((await embeddedFetch(h.app.url, domain, "303")(dataPath("/app", "routes/app._index"))).status).toBe(200);
    expect(await h.db.session.count({ where: { shop: domain, isOnline: true, userId: 303n } })).toBe(1);
    await h.app.shopify.uninstall(domain);
    expect(await h.db.session.count({ where: { shop: domain } })).toBe(0);
    // The delivery stored before the uninstall is opened as uninstall leaves every pending refund: not due.
    await h.worker.runOnce();
    const stopped = await operationFor(h.db, refundGid(pending.id));
    expect(stopped).toMatchObject({ status: "PENDING", nextDueAt: null });
    // Its verified refund's money at risk twice is read no more either.
    expect(await h.db.exposure.count({ where: { shop: domain, nextDueAt: { not: null } } })).toBe(0);
    expect(await h.db.exposure.count({ where: { shop: domain } })).toBe(1);
    const requestsBefore = h.app.shopify.api(domain).stats.graphqlRequests;
    h.clock.advance(2 * 24 * 3600_000);
    await h.worker.runOnce();
    expect(h.app.shopify.api(domain).stats.graphqlRequests).toBe(requestsBefore);

    // What people did in the app for this shop: a refund issued from it, a re-check.
    const { mintRecord } = await import("../../app/refunds/records.server");
    await mintRecord(
      h.db,
      {
        shop: domain,
        caption: "Refund of 5.00 USD",
        orderId: `gid://shopify/Order/${order.id}`,
        amountMinor: 500n,
        currency: "USD",
        note: "Customer Jane Doe called",
      },
      new Date(),
    );
    await h.db.reviewEvent.create({ data: { operationId: stopped.id, shop: domain, action: "recheck", actor: "42" } });
    // A history backfill asked for after the uninstall (from the CLI), with a line still staged; beside it the
    // install's, asked when the staff member's request first authenticated, stopped by the uninstall.
    const { requestBackfill } = await import("../../app/backfill/request.server");
    const { backfill } = await requestBackfill(h.db, domain, 30, "cli", new Date());
    await h.db.backfillLine.create({ data: { backfillId: backfill.id, line: 0, kind: "refund", agreementGid: "gid://shopify/SalesAgreement/1", data: "{}" } });
    const before = await rowsFor(domain);
    expect([before.RefundRecord, before.ReviewEvent, before.Backfill, before.BackfillLine]).toEqual([1, 1, 2, 1]);

    expect((await h.deliver(newDelivery("shop/redact", domain, `{"shop_id":1,"shop_domain":"${domain}"}`))).status).toBe(200);
    const left = await rowsFor(domain);
    expect(Object.keys(left)).toEqual(
      expect.arrayContaining(["RefundRecord", "ReviewEvent", "OperationReason", "Operation", "Session", "Backfill", "BackfillLine"]),
    );
    expect(Object.entries(left).filter(([, count]) => count > 0)).toEqual([]);
    const neighbour = await rowsFor(other);
    expect(neighbour.Operation).toBe(1);
    expect(neighbour.Session).toBe(1);
  });
});
