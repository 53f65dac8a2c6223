import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedFetch } from "../support/embedded";
import { APPROVER, ASKER, CLERK, LIMITS_PATH, limitsOf, OWNER, refundFormPath as formPath, requestPath } from "../support/limits";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";

// Issue 44: limits the shop sets, and a second pair of eyes before money leaves for refunds issued
// in the app. Identity is Shopify's: the session token's user, the online token's account owner.

let h: VerificationHarness;
// The shop's people and the app's routes for them: test/support/limits.ts.
const shop = limitsOf(() => h);
const { as, saveLimits, askRefund, requestOn, heldRequest, requestPage, decide, approve } = shop;
const limitsPage = async (userId = OWNER) => (await as(userId)(LIMITS_PATH)).json();
const refundCreateCalls = () => h.app.shopify.api(h.domain).stats.refundCreateCalls;
const refundsInShopify = (orderId: bigint) => h.shop.orders.get(orderId)!.refundIds.length;

beforeAll(async () => {
  h = await startVerificationHarness("limits-shop.myshopify.com");
  await shop.meetStaff();
});
afterAll(async () => h?.close());

describe("the limits settings", () => {
  it("no limit is on until the shop sets one: the page says so and a large refund goes straight to Shopify", async () => {
    const page = await limitsPage();
    expect(page).toMatchObject({ currency: "USD", revision: 0, viewer: { accountOwner: true, maySetLimits: true } });
    expect(Object.values(page.limits).every((value) => value === "")).toBe(true);
    expect(page.people.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["Dana Whitfield", "Sam Lee", "Ada Lovelace", "Kit Marlowe"]));
    const order = h.shop.createOrder({ amount: "5000.00" });
    expect((await askRefund(ASKER, order.id, "4000.00")).status).toBe(200);
    expect(refundsInShopify(order.id)).toBe(1);
  });

  it("limits posted by staff the owner did not name are refused with 403, and nothing changes", async () => {
    const response = await saveLimits(CLERK, { perRefund: "1.00" });
    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe("Only the account owner, or staff the owner names, can change the refund limits.");
    expect(await h.db.refundLimits.count({ where: { shop: h.domain } })).toBe(0);
    expect((await limitsPage(CLERK)).viewer.maySetLimits).toBe(false);
  });

  it("negative, huge and non-numeric limits are 422 in words under each field, and nothing is saved", async () => {
    const response = await saveLimits(OWNER, { perRefund: "-100", shopDailyAmount: "5000000000", shopHourlyCount: "many" });
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.fieldErrors).toEqual({
      perRefund: "A limit cannot be below zero. Leave it empty for no limit.",
      shopDailyAmount: "At most $1,000,000,000.00. Leave it empty for no limit.",
      shopHourlyCount: "Enter a whole number of refunds, such as 20, or leave it empty for no limit.",
    });
    expect(await h.db.refundLimits.count({ where: { shop: h.domain } })).toBe(0);
  });

  it("two people saving at once from the same page: one is saved, the other is told, nothing is mixed", async () => {
    const [a, b] = await Promise.all([saveLimits(OWNER, { perRefund: "100" }, {}, 0), saveLimits(OWNER, { perRefund: "5" }, {}, 0)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = [a, b].find((r) => r.status === 409)!;
    expect((await loser.json()).message).toContain("Someone else saved the limits since you opened this page");
    // Put the test's limits in place: $100 a refund, Ada approves.
    expect((await saveLimits(OWNER, { perRefund: "100" }, { [APPROVER]: { approver: true } })).status).toBe(200);
    const page = await limitsPage();
    expect(page.limits.perRefund).toBe("100.00");
    expect(page.people.find((p: { userId: string }) => p.userId === APPROVER)).toMatchObject({ approver: true, setsLimits: false });
  });

  it("staff the owner names change the limits, but only the owner names who may", async () => {
    expect((await saveLimits(OWNER, { perRefund: "100" }, { [APPROVER]: { approver: true, setsLimits: true } })).status).toBe(200);
    const named = await saveLimits(APPROVER, { perRefund: "100", shopDailyCount: "500" }, { [APPROVER]: { approver: true, setsLimits: true } });
    expect(named.status).toBe(200);
    const widening = await saveLimits(APPROVER, { perRefund: "100" }, { [APPROVER]: { approver: true, setsLimits: true }, [CLERK]: { setsLimits: true } });
    expect(widening.status).toBe(403);
    expect((await widening.json()).message).toBe("Only the account owner names who may change the refund limits.");
    expect((await saveLimits(OWNER, { perRefund: "100" }, { [APPROVER]: { approver: true } })).status).toBe(200);
    expect((await limitsPage()).limits.shopDailyCount).toBe("");
  });
});

describe("a refund over a limit", () => {
  it("waits for approval instead of going to Shopify: recorded first, the limit in words, and to whom it went", async () => {
    const before = refundCreateCalls();
    const order = h.shop.createOrder({ amount: "300.00" });
    const response = await askRefund(ASKER, order.id, "180.00");
    expect(response.status).toBe(202);
    const body = await response.json();
    expect(body).toMatchObject({ ok: false, code: "AWAITING_APPROVAL" });
    expect(body.message).toContain("is waiting for approval. $180.00 is over the shop's limit of $100.00 per refund.");
    expect(body.message).toContain("Dana Whitfield (account owner) or Ada Lovelace can approve it");
    expect(refundCreateCalls()).toBe(before);
    expect(refundsInShopify(order.id)).toBe(0);
    const { record, request } = await requestOn(order.id);
    expect(record).toMatchObject({ status: "created", shopifyOutcome: "held", askedBy: ASKER, amountMinor: 18_000n, limitAmountMinor: 18_000n, calls: 0 });
    expect(request).toMatchObject({ state: "waiting", askedBy: ASKER });
    expect(request.expiresAt.getTime() - request.askedAt.getTime()).toBe(24 * 3600_000);
  });

  it("the same form posted twice (a double click) is one request", async () => {
    const order = h.shop.createOrder({ amount: "300.00" });
    const token = randomUUID();
    const [a, b] = await Promise.all([askRefund(ASKER, order.id, "150.00", token), askRefund(ASKER, order.id, "150.00", token)]);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(await h.db.refundRecord.count({ where: { orderId: `gid://shopify/Order/${order.id}` } })).toBe(1);
    expect(await h.db.refundApproval.count({ where: { recordId: (await requestOn(order.id)).record.id } })).toBe(1);
  });

  it("a refund at the limit goes through", async () => {
    const order = h.shop.createOrder({ amount: "300.00" });
    expect((await askRefund(ASKER, order.id, "100.00")).status).toBe(200);
    expect(refundsInShopify(order.id)).toBe(1);
  });
});

describe("approving", () => {
  it("an approver approves: the refund is issued once with the record's key, and the audit says who and when", async () => {
    const { order, record, request } = await heldRequest();
    const before = refundCreateCalls();
    const page = await requestPage(APPROVER, request.id);
    expect(page.request).toMatchObject({
      state: "waiting",
      askedBy: "Sam Lee",
      amount: "$180.00",
      limits: "$180.00 is over the shop's limit of $100.00 per refund.",
    });
    expect(page.viewer.mayDecide).toBe(true);
    const response = await approve(APPROVER, request.id, { note: "Damaged in transit, photos seen" });
    expect(response.status).toBe(200);
    expect(refundCreateCalls()).toBe(before + 1);
    expect(refundsInShopify(order.id)).toBe(1);
    const after = await requestOn(order.id);
    expect(after.record).toMatchObject({ id: record.id, shopifyOutcome: "created", calls: 1 });
    expect(after.request).toMatchObject({ state: "approved", decidedBy: APPROVER, decisionNote: "Damaged in transit, photos seen" });
    expect(JSON.parse(after.request.decidedLimits!)).toEqual([{ kind: "per_refund", currency: "USD", limitMinor: "10000", amountMinor: "18000", own: false }]);
  });

  it("a staff member approving their own request is refused, even as an approver", async () => {
    expect((await saveLimits(OWNER, { perRefund: "100" }, { [APPROVER]: { approver: true }, [ASKER]: { approver: true } })).status).toBe(200);
    try {
      const { order, request } = await heldRequest();
      const response = await approve(ASKER, request.id);
      expect(response.status).toBe(403);
      expect((await response.json()).message).toBe("You asked for this refund: someone else must approve or decline it.");
      expect((await requestPage(ASKER, request.id)).viewer).toEqual({
        mayDecide: false,
        why: "You asked for this refund: someone else must approve or decline it.",
      });
      expect(refundsInShopify(order.id)).toBe(0);
    } finally {
      expect((await saveLimits(OWNER, { perRefund: "100" }, { [APPROVER]: { approver: true } })).status).toBe(200);
    }
  });

  it("a non-approver posting the approve form (forged or replayed) is refused with 403, and nothing is refunded", async () => {
    const { order, request } = await heldRequest();
    const forged = await decide(CLERK, request.id, { intent: "approve", limitsRevision: String((await limitsPage()).revision) });
    expect(forged.status).toBe(403);
    expect((await decide(CLERK, request.id, { intent: "decline", reason: "no" })).status).toBe(403);
    expect(refundsInShopify(order.id)).toBe(0);
    expect((await requestOn(order.id)).request.state).toBe("waiting");
  });

  it("two approvers clicking at once: one refund, and the second is told who won", async () => {
    const { order, request } = await heldRequest();
    const revision = String((await limitsPage()).revision);
    const before = refundCreateCalls();
    const [a, b] = await Promise.all([
      decide(OWNER, request.id, { intent: "approve", limitsRevision: revision }),
      decide(APPROVER, request.id, { intent: "approve", limitsRevision: revision }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = await [a, b].find((r) => r.status === 409)!.json();
    const winner = (await requestOn(order.id)).request.decidedBy === OWNER ? "Dana Whitfield" : "Ada Lovelace";
    expect(loser).toMatchObject({ code: "ALREADY_DECIDED" });
    expect(loser.message).toContain(`${winner} approved it`);
    expect(refundCreateCalls()).toBe(before + 1);
    expect(refundsInShopify(order.id)).toBe(1);
  });

  it("an approval given after the limit was lowered is asked again, with the limit as it is now", async () => {
    const { order, request } = await heldRequest();
    const seen = await requestPage(APPROVER, request.id);
    expect((await saveLimits(OWNER, { perRefund: "50" }, { [APPROVER]: { approver: true } })).status).toBe(200);
    const stale = await decide(APPROVER, request.id, { intent: "approve", limitsRevision: String(seen.limitsNow.revision) });
    expect(stale.status).toBe(409);
    const body = await stale.json();
    expect(body.code).toBe("LIMITS_CHANGED");
    expect(body.message).toContain("Now: $180.00 is over the shop's limit of $50.00 per refund.");
    expect(refundsInShopify(order.id)).toBe(0);
    expect((await approve(APPROVER, request.id)).status).toBe(200);
    expect(refundsInShopify(order.id)).toBe(1);
    expect((await saveLimits(OWNER, { perRefund: "100" }, { [APPROVER]: { approver: true } })).status).toBe(200);
  });

  it("an approver removed after opening the request can no longer approve it", async () => {
    const { order, request } = await heldRequest();
    const seen = await requestPage(APPROVER, request.id);
    expect((await saveLimits(OWNER, { perRefund: "100" })).status).toBe(200);
    try {
      const response = await decide(APPROVER, request.id, { intent: "approve", limitsRevision: String(seen.limitsNow.revision) });
      expect(response.status).toBe(403);
      expect((await response.json()).code).toBe("NOT_APPROVER");
      expect(refundsInShopify(order.id)).toBe(0);
    } finally {
      expect((await saveLimits(OWNER, { perRefund: "100" }, { [APPROVER]: { approver: true } })).status).toBe(200);
    }
  });

  it("an order refunded elsewhere since the request asks again, like a recent refund; yes, another refund issues it", async () => {
    const { order, request } = await heldRequest();
    h.shop.createRefund(order.id, { amount: "20.00" });
    const response = await approve(APPROVER, request.id);
    expect(response.status).toBe(409);
    const body = await response.json();
    expect(body.code).toBe("RECENT_REFUND");
    expect(body.message).toContain("since this refund was asked for.");
    expect(refundsInShopify(order.id)).toBe(1);
    expect((await approve(APPROVER, request.id, { confirmAnother: "yes" })).status).toBe(200);
    expect(refundsInShopify(order.id)).toBe(2);
    expect((await requestOn(order.id)).record).toMatchObject({ confirmedAnother: true, confirmedBy: APPROVER });
  });

  it("what Shopify can still refund is checked again: an order refunded meanwhile past the request refuses it and it keeps waiting", async () => {
    const { order, request } = await heldRequest("180.00");
    h.shop.createRefund(order.id, { amount: "250.00" });
    const response = await approve(APPROVER, request.id, { confirmAnother: "yes" });
    expect(response.status).toBe(409);
    expect((await response.json()).code).toBe("OVER_TENDERED");
    expect((await requestOn(order.id)).request.state).toBe("waiting");
  });

  it("another shop's request id is a 404 that changes nothing", async () => {
    const { request } = await heldRequest();
    const other = "other-limits-shop.myshopify.com";
    h.app.shopify.addShop(other);
    const { installShop } = await import("../support/sessions");
    await installShop(h.db, h.app.shopify, other);
    const elsewhere = (path: string, init?: RequestInit) => embeddedFetch(h.app.url, other, OWNER)(path, init);
    expect((await elsewhere(requestPath(request.id))).status).toBe(404);
    const forged = await elsewhere(requestPath(request.id), { method: "POST", body: new URLSearchParams({ intent: "approve", limitsRevision: "0" }) });
    expect(forged.status).toBe(404);
    expect((await h.db.refundApproval.findUniqueOrThrow({ where: { id: request.id } })).state).toBe("waiting");
  });
});

describe("declining and expiring", () => {
  it("a decline needs a reason, and says it to the person who asked; the same form again is told too", async () => {
    const order = h.shop.createOrder({ amount: "300.00" });
    const token = randomUUID();
    expect((await askRefund(ASKER, order.id, "180.00", token)).status).toBe(202);
    const { request } = await requestOn(order.id);
    const empty = await decide(APPROVER, request.id, { intent: "decline", reason: "  " });
    expect(empty.status).toBe(422);
    expect((await decide(APPROVER, request.id, { intent: "decline", reason: "Customer already got store credit" })).status).toBe(200);
    const { record } = await requestOn(order.id);
    expect(record).toMatchObject({ status: "failed", shopifyOutcome: "not_sent" });
    expect(record.failureReason).toMatch(/^Ada Lovelace declined it at .*: Customer already got store credit\. Nothing was refunded\.$/);
    const again = await askRefund(ASKER, order.id, "180.00", token);
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe(record.failureReason);
    expect((await approve(OWNER, request.id)).status).toBe(409);
    expect(refundsInShopify(order.id)).toBe(0);
  });

  it("a request nobody decided in a day expires: the worker settles it, and an approval after is refused", async () => {
    const { order, request } = await heldRequest();
    h.clock.advance(24 * 3600_000 + 60_000);
    await h.worker.runOnce();
    const after = await requestOn(order.id);
    expect(after.request.state).toBe("expired");
    expect(after.record).toMatchObject({ status: "failed", shopifyOutcome: "not_sent" });
    expect(after.record.failureReason).toContain("Nobody approved it within a day");
    const response = await approve(OWNER, request.id);
    expect(response.status).toBe(409);
    expect((await response.json()).message).toContain("Nobody approved it within a day");
    expect(refundsInShopify(order.id)).toBe(0);
  });

  it("a request past its day that the worker has not reached yet is refused as expired all the same", async () => {
    const { order, request } = await heldRequest();
    await h.db.refundApproval.update({ where: { id: request.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const response = await approve(OWNER, request.id);
    expect(response.status).toBe(410);
    expect((await response.json()).code).toBe("REQUEST_EXPIRED");
    expect(refundsInShopify(order.id)).toBe(0);
  });
});

describe("limits that count what already left", () => {
  it("one refund split into several under the per-refund limit: the daily total catches it", async () => {
    expect((await saveLimits(OWNER, { perRefund: "100", dailyPerStaff: "150" }, { [APPROVER]: { approver: true } })).status).toBe(200);
    const splitter = "123";
    const first = h.shop.createOrder({ amount: "300.00" });
    expect((await askRefund(splitter, first.id, "90.00")).status).toBe(200);
    const second = h.shop.createOrder({ amount: "300.00" });
    const response = await askRefund(splitter, second.id, "90.00");
    expect(response.status).toBe(202);
    expect((await response.json()).message).toContain(
      "$90.00 would bring your refunds in 24 hours to $180.00, over the shop's limit of $150.00 a day per staff member.",
    );
    expect(refundsInShopify(second.id)).toBe(0);
  });

  it("two refunds at the same instant cannot both take the shop's last refund of the hour", async () => {
    // A shop of its own, with nothing refunded yet: one refund an hour.
    const domain = "burst-limits.myshopify.com";
    const { installShop } = await import("../support/sessions");
    await installShop(h.db, h.app.shopify, domain);
    const shop = h.app.shopify.shop(domain);
    const [owner, clerk] = [embeddedFetch(h.app.url, domain, OWNER), embeddedFetch(h.app.url, domain, CLERK)];
    const page = await (await owner(LIMITS_PATH)).json();
    const saved = await owner(LIMITS_PATH, {
      method: "POST",
      body: new URLSearchParams({ revision: String(page.revision), people: "", shopHourlyCount: "1" }),
    });
    expect(saved.status).toBe(200);
    const [a, b] = [shop.createOrder({ amount: "50.00" }), shop.createOrder({ amount: "50.00" })];
    const ask = (as: typeof owner, orderId: bigint) =>
      as(formPath(orderId), { method: "POST", body: new URLSearchParams({ intent: "issue", amount: "10.00", formToken: randomUUID() }) });
    const answers = await Promise.all([ask(owner, a.id), ask(clerk, b.id)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 202]);
    expect(shop.orders.get(a.id)!.refundIds.length + shop.orders.get(b.id)!.refundIds.length).toBe(1);
    const held = await answers.find((r) => r.status === 202)!.json();
    expect(held.message).toContain("This would be the shop's 2nd refund in an hour, over the shop's limit of 1 an hour.");
  });
});
