import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newDelivery, refundWebhookBody } from "../../fake-shopify/webhooks";
import { csvRecords } from "../support/csv";
import { dataPath, embeddedFetch } from "../support/embedded";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

// Issue 26, items 1 and 4: an order is its name (#1340) wherever a person reads it, never the number
// only the admin's address knows (9007199255858359), and never another order's name; the evidence
// page's story is told in a merchant's words, the engine's kept for Technical details.
let h: VerificationHarness;
let asShop: ReturnType<typeof embeddedFetch>;
beforeAll(async () => {
  h = await startVerificationHarness("names-shop.myshopify.com");
  asShop = embeddedFetch(h.app.url, h.domain);
});
afterAll(async () => h.close());
beforeEach(() => h.clock.freeze());

const askedForNames = () => h.app.shopify.api(h.domain).stats.byOperation.OrderNames ?? 0;

describe("a refund the app has not read back yet", () => {
  it("is shown by its order's name on the dashboard, the evidence page and in the CSV, asked of Shopify once for all its rows", async () => {
    const orders = [0, 1, 2].map(() => h.shop.createOrder({ amount: "40.00" }));
    // Shopify shows none of them for an hour: no read-back names their orders.
    const refunds = orders.map((order) => h.shop.createRefund(order.id, { amount: "10.00", visibleAfterMs: 3600_000 }));
    for (const refund of refunds) expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.worker.runOnce(); // opens the operations; their first read is a second away
    const ops = await Promise.all(refunds.map((refund) => operationFor(h.db, refundGid(refund.id))));
    expect(ops.map((op) => [op.status, op.orderName])).toEqual(Array(3).fill(["PENDING", null]));
    const before = askedForNames();

    const dashboard = await (await asShop(dataPath("/app", "routes/app._index"))).json();
    const shown = new Map(dashboard.rows.map((row: { refundId: string; orderName: string | null }) => [row.refundId, row.orderName]));
    expect(refunds.map((refund) => shown.get(String(refund.id)))).toEqual(orders.map((order) => order.name));
    expect(askedForNames() - before).toBe(1);

    const page = await (await asShop(`/app/refunds/${ops[1].id}`)).text();
    expect(page).toContain(`<title>Refund on ${orders[1].name} · Refund Verifier</title>`);
    expect(page).not.toContain(`order ${orders[1].id}`);
    const csv = csvRecords(await (await asShop("/app/refunds.csv?format=raw")).text());
    expect(refunds.map((refund) => csv.find((row) => row.refund_id === String(refund.id))?.order)).toEqual(orders.map((order) => order.name));
    // The names were kept: neither the page nor the export asked again.
    expect(askedForNames() - before).toBe(1);
  });
});

describe("an alert", () => {
  it("names the order of a verdict reached without its order's name in its Flow call", async () => {
    await h.db.flowTriggerUsage.create({ data: { shop: h.domain, definitionId: "refund-unverifiable", enabled: true, reportedAt: h.clock.now() } });
    const order = h.shop.createOrder({ amount: "30.00" });
    const refund = h.shop.createRefund(order.id, { amount: "5.00", visibleAfterMs: 30 * 86_400_000 });
    expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    // Reads of the order name it on the way; one decided while they failed (the timeout) has no name.
    const op = await operationFor(h.db, refundGid(refund.id));
    expect(op.status).toBe("UNVERIFIABLE");
    await h.db.operation.update({ where: { id: op.id }, data: { orderName: null } });
    await h.worker.runAlerts();
    const calls = await h.db.alertDelivery.findMany({ where: { shop: h.domain, channel: "flow", target: "refund-unverifiable" } });
    const flow = calls.find((call) => JSON.parse(call.payload!)["refund id"] === refundGid(refund.id))!;
    expect(flow.subject).toBe(`Refund unverifiable: $5.00 on ${order.name}`);
    expect(JSON.parse(flow.payload!)).toMatchObject({ "order name": order.name });
  });
});

describe("a refund Shopify recorded on another order", () => {
  it("keeps the name of the order it was for on its row, and its page names and links both orders", async () => {
    const meant = h.shop.createOrder({ amount: "60.00" });
    const other = h.shop.createOrder({ amount: "60.00" });
    const refund = h.shop.createRefund(other.id, { amount: "15.00" });
    // The delivery says the refund was for `meant`; Shopify's record puts it on `other`.
    const body = refundWebhookBody(h.shop, refund).replace(`"order_id":${refund.orderId}`, `"order_id":${meant.id}`);
    expect((await h.deliver(newDelivery("refunds/create", h.domain, body, h.clock.now()))).status).toBe(200);
    await h.settle();
    const op = await operationFor(h.db, refundGid(refund.id));
    expect([op.status, op.orderGid]).toEqual(["CONTRADICTED", `gid://shopify/Order/${meant.id}`]);

    const dashboard = await (await asShop(dataPath("/app", "routes/app._index"))).json();
    expect(dashboard.rows.find((row: { id: string }) => row.id === op.id).orderName).toBe(meant.name);
    const detail = await (await asShop(dataPath(`/app/refunds/${op.id}`, "routes/app.refunds.$id"))).json();
    expect(detail.lead.sentence).toBe(`Shopify recorded this refund on ${other.name}, not on ${meant.name}, the order it was for.`);
    expect(detail.lead.nextStep).toContain(`A refund issued from this page goes to ${meant.name}.`);
    expect(detail.lead.links.slice(0, 2).map((link: { label: string; url: string }) => [link.label, link.url])).toEqual([
      [`${meant.name} (the order it was for) in Shopify admin`, `shopify://admin/orders/${meant.id}`],
      [`${other.name} (where Shopify recorded it) in Shopify admin`, `shopify://admin/orders/${other.id}`],
    ]);
    const page = await (await asShop(`/app/refunds/${op.id}`)).text();
    expect(page).toContain(`Issue a refund on ${meant.name}`);
  });
});

describe("the evidence page's timeline", () => {
  it("tells the story in a merchant's words; the engine's words are inside Technical details only", async () => {
    const order = h.shop.createOrder({ amount: "70.00" });
    const refund = h.shop.createRefund(order.id, { amount: "7.00" });
    expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    const op = await operationFor(h.db, refundGid(refund.id));
    const html = await (await asShop(`/app/refunds/${op.id}`)).text();
    // What a person reads: the page's text, without its scripts (the loader's data rides along in one).
    const text = html
      .replace(/<script[\s\S]*?<\/script>/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");
    const story = text.slice(text.indexOf("Timeline"), text.indexOf("Technical details"));
    const technical = text.slice(text.indexOf("Technical details"));
    expect(story).toContain("Shopify told the app about this refund");
    expect(story).toContain("Found in Shopify");
    expect(story).toContain("Checked: Verified");
    for (const engineWord of ["refunds/create", "webhook", "observation", "evaluation", "attempt", "API 2026-10", "VERIFIED"])
      expect(story).not.toContain(engineWord);
    expect(technical).toContain("refunds/create webhook");
    expect(technical).toContain("evaluation VERIFIED, attempt");
  });
});
