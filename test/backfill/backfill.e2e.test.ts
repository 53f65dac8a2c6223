import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestBackfill } from "../../app/backfill/request.server";
import { summarySentence, type BackfillSummary } from "../../app/backfill/summary.server";
import { seedHistory, type SeededHistory } from "../../fake-shopify/history";
import { deliveryHeaders, newDelivery, refundWebhookBody } from "../../fake-shopify/webhooks";
import { TEST_APP } from "../support/credentials";
import { installShop } from "../support/sessions";
import { backfillToEnd, startVerificationHarness, type VerificationHarness } from "../support/verification";

let h: VerificationHarness;
beforeAll(async () => {
  h = await startVerificationHarness("history-shop.myshopify.com");
});
afterAll(async () => h.close());

const runToEnd = (shop: string, passes?: number) => backfillToEnd(h, shop, passes);

async function newShop(name: string) {
  const domain = `${name}.myshopify.com`;
  await installShop(h.db, h.app.shopify, domain);
  return { domain, shop: h.app.shopify.shop(domain), api: h.app.shopify.api(domain) };
}

describe("a history of 2,000 refunds, backfilled through one bulk operation", () => {
  let domain: string;
  let seeded: SeededHistory;
  let shopifyRequests: number;

  beforeAll(async () => {
    const shop = await newShop("history-2000");
    domain = shop.domain;
    seeded = seedHistory(shop.shop, 2000, { days: 50 });
    const before = shop.api.stats.graphqlRequests;
    await requestBackfill(h.db, domain, 60, "dashboard", h.clock.now());
    const backfill = await runToEnd(domain);
    expect(backfill.message).toBeNull();
    expect(backfill.state).toBe("done");
    shopifyRequests = shop.api.stats.graphqlRequests - before;
  });

  it("gives every refund in the window the verdict the history contract implies, and opens none outside it", async () => {
    const operations = await h.db.operation.findMany({ where: { shop: domain } });
    expect(operations).toHaveLength(seeded.inWindow);
    const byRefund = new Map(operations.map((op) => [op.refundGid, op]));
    const mismatches: string[] = [];
    for (const [refund, expected] of seeded.expected) {
      const op = byRefund.get(refund);
      if (expected.verdict === "OUTSIDE_WINDOW") {
        if (op) mismatches.push(`${refund}: opened although created before the window`);
        continue;
      }
      const reason = "reason" in expected ? expected.reason : null;
      if (op?.status !== expected.verdict || (reason && op.reason !== reason))
        mismatches.push(`${refund}: ${op?.status}/${op?.reason}, expected ${expected.verdict}/${reason}`);
    }
    expect(mismatches).toEqual([]);
    expect(operations.every((op) => op.origin === "backfill" && op.contractId === "shopify.refund.history" && op.orderName?.startsWith("#"))).toBe(true);
  });

  it("reads the whole history in a handful of requests: no read-back per refund", () => {
    // bulkOperationRunQuery, a few polls of its state; never nodes(ids:) for 2,000 refunds.
    expect(shopifyRequests).toBeLessThanOrEqual(10);
  });

  it("keeps the bulk read as each verdict's evidence, at the time Shopify completed it", async () => {
    const backfill = await h.db.backfill.findFirstOrThrow({ where: { shop: domain } });
    const op = await h.db.operation.findFirstOrThrow({ where: { shop: domain, status: "FAILED" }, include: { observations: true } });
    const read = op.observations.find((o) => o.channel === "refund_bulk_read")!;
    expect(read.observedAt.toISOString()).toBe(backfill.readAt!.toISOString());
    expect(JSON.parse(read.data!).data.refund.transactions.nodes.map((t: { status: string }) => t.status)).toEqual(["FAILURE"]);
  });

  it("sums the history up for the dashboard and the CLI", async () => {
    const backfill = await h.db.backfill.findFirstOrThrow({ where: { shop: domain } });
    const summary = JSON.parse(backfill.summary!) as BackfillSummary;
    const count = (verdict: string, reason?: string) =>
      [...seeded.expected.values()].filter((e) => e.verdict === verdict && (!reason || ("reason" in e && e.reason === reason))).length;
    expect(summary).toMatchObject({
      refunds: seeded.inWindow,
      verified: count("VERIFIED"),
      duplicates: count("CONTRADICTED", "duplicate_refund_in_history"),
      failed: count("FAILED"),
      outsideWindow: count("OUTSIDE_WINDOW"),
      alreadyWatched: 0,
    });
    expect(summarySentence(summary)).toBe(
      `${seeded.inWindow} refunds in 60 days: ${summary.verified} verified, ${summary.duplicates} duplicates, ${summary.wrongAmount} with a wrong amount, ${summary.failed} gateway failures`,
    );
    expect(backfill.refundsVerified).toBe(seeded.inWindow);
    expect(await h.db.backfillLine.count({ where: { backfillId: backfill.id } })).toBe(0);
  });
});

describe("alerts for the history", () => {
  it("are recorded, but no instant message and no Flow workflow is started for a refund of the past", async () => {
    const domain = "history-2000.myshopify.com";
    await h.worker.runAlerts();
    const needPerson = await h.db.operation.count({ where: { shop: domain, status: { in: ["CONTRADICTED", "FAILED", "UNVERIFIABLE"] } } });
    const events = await h.db.alertEvent.findMany({ where: { shop: domain } });
    expect(needPerson).toBeGreaterThan(0);
    expect(events).toHaveLength(needPerson);
    expect(events.every((e) => e.instantStatus === "not_wanted")).toBe(true);
    expect(await h.db.alertDelivery.count({ where: { shop: domain } })).toBe(0);
  });
});

describe("one backfill at a time, and none twice", () => {
  it("a second request while one runs shows the running one and starts nothing", async () => {
    const { domain, api } = await newShop("history-twice");
    const first = await requestBackfill(h.db, domain, 60, "dashboard", h.clock.now());
    const second = await requestBackfill(h.db, domain, 30, "dashboard", h.clock.now());
    expect([first.created, second.created, second.backfill.id]).toEqual([true, false, first.backfill.id]);
    await runToEnd(domain);
    expect(api.bulk.stats.started).toBe(1);
  });

  it("a refund whose webhook arrives while the backfill reads it has one operation, the webhook's", async () => {
    const { domain, shop } = await newShop("history-overlap");
    const order = shop.createOrder({ amount: "80.00", createdAt: new Date(Date.now() - 5 * 86_400_000) });
    const refund = shop.createRefund(order.id, { amount: "20.00", createdAt: new Date(Date.now() - 3 * 86_400_000) });
    await requestBackfill(h.db, domain, 60, "dashboard", h.clock.now());
    await h.worker.runBackfills(); // the bulk query starts, and reads this refund
    const delivery = newDelivery("refunds/create", domain, refundWebhookBody(shop, refund));
    expect((await h.deliver(delivery)).status).toBe(200);
    const backfill = await runToEnd(domain);
    const operations = await h.db.operation.findMany({ where: { shop: domain } });
    expect(operations.map((op) => op.origin)).toEqual(["webhook"]);
    expect(JSON.parse(backfill.summary!)).toMatchObject({ refunds: 1, alreadyWatched: 1 });
  });

  it("asks for no more than 60 days without read_all_orders, and says so", async () => {
    const { domain } = await newShop("history-long");
    const request = await requestBackfill(h.db, domain, 200, "cli", h.clock.now());
    expect(request.backfill.days).toBe(60);
    expect(request.notice).toContain("read_all_orders");
    await runToEnd(domain);
  });
});

describe("when Shopify's bulk read goes wrong", () => {
  it("a bulk operation that FAILED: the backfill fails, says why, and verifies nothing", async () => {
    const { domain, shop, api } = await newShop("history-failed");
    seedHistory(shop, 20);
    api.bulk.failNext = "TIMEOUT";
    await requestBackfill(h.db, domain, 60, "dashboard", h.clock.now());
    const backfill = await runToEnd(domain);
    expect(backfill.state).toBe("failed");
    expect(backfill.message).toContain("TIMEOUT");
    expect(await h.db.operation.count({ where: { shop: domain } })).toBe(0);
    expect(backfill.activeShop).toBeNull();
  });

  it.each([
    ["says EXPIRED", true],
    ["still says COMPLETED, but its URL answers 404", false],
  ])("a result that %s: the history is read again, once, and verified", async (_, statusToo) => {
    const { domain, shop, api } = await newShop(`history-expired-${statusToo}`);
    const seeded = seedHistory(shop, 30);
    await requestBackfill(h.db, domain, 60, "dashboard", h.clock.now());
    await h.worker.runBackfills();
    h.clock.advance(api.bulk.runMs); // the operation completes
    api.bulk.expireResults(statusToo);
    const backfill = await runToEnd(domain);
    expect([backfill.state, backfill.bulkRuns, api.bulk.stats.started]).toEqual(["done", 2, 2]);
    expect(await h.db.operation.count({ where: { shop: domain } })).toBe(seeded.inWindow);
  });

  it("a line that is not JSON: its refund is not decided on half its evidence, and the summary says so; every other refund is verified", async () => {
    const { domain, shop, api } = await newShop("history-bad-line");
    const seeded = seedHistory(shop, 30);
    api.bulk.corruptNextLineOf = "OrderTransaction";
    await requestBackfill(h.db, domain, 60, "dashboard", h.clock.now());
    const backfill = await runToEnd(domain);
    expect(backfill.state).toBe("done");
    const summary = JSON.parse(backfill.summary!) as BackfillSummary;
    expect(summary).toMatchObject({ badLines: 1, unreadable: 1, refunds: seeded.inWindow });
    expect(summarySentence(summary)).toContain("1 not verified (Shopify's answer about them could not be read)");
    expect(await h.db.operation.count({ where: { shop: domain } })).toBe(seeded.inWindow - 1);
  });

  it("Shopify at its limit of bulk queries: the backfill waits, says so, and starts when one ends", async () => {
    const { domain, shop, api } = await newShop("history-busy");
    seedHistory(shop, 5);
    api.bulk.concurrencyLimit = 0;
    await requestBackfill(h.db, domain, 60, "dashboard", h.clock.now());
    await h.worker.runBackfills();
    const waiting = await h.db.backfill.findFirstOrThrow({ where: { shop: domain } });
    expect([waiting.state, waiting.message]).toEqual(["queued", "Shopify is running other bulk queries for this shop; the backfill starts when one ends."]);
    api.bulk.concurrencyLimit = 5;
    h.clock.advance(60_000);
    expect((await runToEnd(domain)).state).toBe("done");
  });
});

describe("bulk_operations/finish", () => {
  it("makes the backfill reading that operation due at once, before its next poll", async () => {
    const { domain, shop, api } = await newShop("history-finish");
    seedHistory(shop, 10);
    api.bulk.runMs = 5_000;
    h.clock.freeze();
    const { backfill } = await requestBackfill(h.db, domain, 60, "dashboard", h.clock.now());
    await h.worker.runBackfills(); // starts the bulk query
    await h.worker.runBackfills(); // Shopify has not finished: the next poll is 10 s away
    const polling = await h.db.backfill.findUniqueOrThrow({ where: { id: backfill.id } });
    expect([polling.state, polling.nextDueAt!.getTime()]).toEqual(["reading", h.clock.ms + 10_000]);
    h.clock.advance(5_000); // Shopify finishes the operation and sends bulk_operations/finish
    await h.app.shopify.flushWebhooks();
    const woken = await h.db.backfill.findUniqueOrThrow({ where: { id: backfill.id } });
    // Due when the webhook came (the app's route stamps its own, wall, clock), not at the poll 5 s on.
    expect(woken.nextDueAt!.getTime()).toBeLessThanOrEqual(Date.now());
    await h.worker.runBackfills();
    expect((await h.db.backfill.findUniqueOrThrow({ where: { id: backfill.id } })).state).toBe("done");
  });

  it("refuses a tampered delivery (401), and answers a signed one without an operation id with 422", async () => {
    const delivery = newDelivery("bulk_operations/finish", h.domain, JSON.stringify({ admin_graphql_api_id: "gid://shopify/BulkOperation/1" }));
    const tampered = await fetch(`${h.app.url}/webhooks/bulk_operations/finish`, {
      method: "POST",
      headers: deliveryHeaders(delivery, TEST_APP.secret),
      body: delivery.body.replace("/1", "/2"),
    });
    expect(tampered.status).toBe(401);
    const noId = await h.deliver(newDelivery("bulk_operations/finish", h.domain, JSON.stringify({ status: "completed" })));
    expect(noId.status).toBe(422);
  });
});
