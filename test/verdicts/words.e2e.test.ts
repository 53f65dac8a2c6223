import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newDelivery, refundWebhookBody } from "../../fake-shopify/webhooks";
import { csvRecords } from "../support/csv";
import { dataPath, embeddedFetch } from "../support/embedded";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";
import { limitsOf } from "../support/limits";
import { MADE_IN } from "../../app/verdicts/made";
import { MADE_LABELS, ORIGIN_LABELS } from "../../app/verdicts/words";

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

describe("where a refund was made, in a merchant's words (decision 031)", () => {
  it("every screen that lists a refund says where it was made and by whom, as Shopify named them; how the app learned of it only under Technical details", async () => {
    const people = limitsOf(() => h);
    await people.meetStaff(); // Dana Whitfield (42), Sam Lee, Ada Lovelace (88) and Kit Marlowe open the app: Shopify names them
    const order = h.shop.createOrder({ amount: "400.00" });
    const anOrder = () => h.shop.createOrder({ amount: "40.00" }).id;
    const cases = {
      admin: h.shop.createRefund(order.id, { amount: "10.00", staffUserId: "42" }),
      app: h.shop.createRefund(order.id, { amount: "13.00", app: "Returns Pro" }),
      // A staff member who never opened the app (303) fails a refund in the admin: it needs review.
      unnamed: h.shop.createRefund(anOrder(), { amount: "11.00", staffUserId: "303", status: "FAILURE" }),
      pos: h.shop.createRefund(anOrder(), { amount: "12.00", pos: true }),
    };
    const nobody = h.shop.createRefund(anOrder(), { amount: "14.00" });
    for (const refund of [...Object.values(cases), nobody]) expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    // Ada Lovelace refunds another order from the app's form (one refunded minutes ago would ask "another refund?").
    const hers = h.shop.createOrder({ amount: "60.00" });
    expect((await people.askRefund("88", hers.id, "15.00")).status).toBe(200);
    await h.app.shopify.flushWebhooks();
    await h.settle();
    const thisApp = await h.db.operation.findFirstOrThrow({ where: { shop: h.domain, orderGid: `gid://shopify/Order/${hers.id}`, origin: "app" } });
    const expected = new Map([
      [refundGid(cases.admin.id), "Made in Shopify admin by Dana Whitfield"],
      [refundGid(cases.unnamed.id), "Made in Shopify admin by a staff member"],
      [refundGid(cases.pos.id), "Made on Point of Sale"],
      [refundGid(cases.app.id), "Made by the app Returns Pro"],
      [thisApp.refundGid, "Made in this app by Ada Lovelace"],
      [refundGid(nobody.id), "Made in Shopify; who made it is not known"],
    ]);
    const idOf = (gid: string) => gid.split("/").pop()!;

    // The dashboard's rows, and its filter by where they were made.
    const dashboard = await (await asShop(dataPath("/app?range=all", "routes/app._index"))).json();
    for (const [gid, words] of expected) expect(dashboard.rows.find((r: { refundId: string }) => r.refundId === idOf(gid))?.made, gid).toBe(words);
    const fromPos = await (await asShop(dataPath("/app?range=all&made=pos", "routes/app._index"))).json();
    expect(fromPos.rows.map((r: { refundId: string }) => r.refundId)).toEqual([String(cases.pos.id)]);
    const notKnown = await (await asShop(dataPath("/app?range=all&made=unknown", "routes/app._index"))).json();
    expect(notKnown.rows.map((r: { refundId: string }) => r.refundId)).toContain(String(nobody.id));
    expect(notKnown.rows.map((r: { refundId: string }) => r.refundId)).not.toContain(String(cases.admin.id));

    // The evidence page's header says where it was made; how the app learned of it is in Technical details.
    const adminOp = await operationFor(h.db, refundGid(cases.admin.id));
    const html = await (await asShop(`/app/refunds/${adminOp.id}`)).text();
    const text = html
      .replace(/<script[\s\S]*?<\/script>/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&#x27;/g, "'")
      .replace(/\s+/g, " ");
    expect(text).toContain("$10.00 USD · Made in Shopify admin by Dana Whitfield");
    const technical = text.slice(text.indexOf("Technical details"));
    expect(text.slice(0, text.indexOf("Technical details"))).not.toContain("Shopify's notice of the refund");
    expect(technical).toContain("How the app learned of it: Shopify's notice of the refund (webhook)");
    expect(technical).toContain("Where Shopify says it was made: madeIn admin, user 42");

    // The review queue's item.
    const queue = await (await asShop(dataPath("/app/review", "routes/app.review"))).json();
    expect(queue.items.find((i: { refundId: string }) => i.refundId === String(cases.unnamed.id))?.made).toBe("Made in Shopify admin by a staff member");
    const queueHtml = await (await asShop("/app/review")).text();
    expect(queueHtml).toContain("Made in Shopify admin by a staff member");

    // The CSV: a column at the end for people, the stored values for scripts.
    const csv = csvRecords(await (await asShop("/app/refunds.csv?range=all")).text());
    for (const [gid, words] of expected) expect(csv.find((r) => r["Refund ID"] === gid)?.["Where it was made"], gid).toBe(words);
    expect(Object.keys(csv[0]).at(-1)).toBe("Where it was made");
    expect(csv.find((r) => r["Refund ID"] === refundGid(cases.admin.id))?.Source).toBe("Shopify's notice of the refund");
    const raw = csvRecords(await (await asShop("/app/refunds.csv?range=all&format=raw")).text());
    expect(Object.keys(raw[0]).slice(-3)).toEqual(["made_in", "made_by_user_id", "made_by_app"]);
    const rawOf = (gid: string) => raw.find((r) => r.refund_id === idOf(gid))!;
    expect([rawOf(refundGid(cases.admin.id)).made_in, rawOf(refundGid(cases.admin.id)).made_by_user_id]).toEqual(["admin", "42"]);
    expect([rawOf(refundGid(cases.app.id)).made_in, rawOf(refundGid(cases.app.id)).made_by_app]).toEqual(["app", "Returns Pro"]);
    expect([rawOf(thisApp.refundGid).made_in, rawOf(thisApp.refundGid).made_by_user_id]).toEqual(["this_app", "88"]);

    // The order page's block.
    const block = await (await asShop(`/app/api/orders/${order.id}/refunds`)).json();
    const ops = await h.db.operation.findMany({ where: { shop: h.domain, orderGid: `gid://shopify/Order/${order.id}` } });
    for (const refund of block.refunds as { id: string; made: string }[])
      expect(refund.made).toBe(expected.get(ops.find((op) => op.id === refund.id)!.refundGid));
    expect(block.refunds).toHaveLength(2);
  });

  it("the labels of the dashboard's filter and of how the app learned of a refund", () => {
    expect(MADE_IN.map((m) => MADE_LABELS[m])).toEqual(["In this app", "In Shopify admin", "On Point of Sale", "By another app", "Not known"]);
    expect(ORIGIN_LABELS).toEqual({
      webhook: "Shopify's notice of the refund",
      reconciliation: "The app's sweep of recently changed orders",
      app: "Issued from this app's refund form",
      backfill: "The shop's history, read at install",
    });
  });
});
