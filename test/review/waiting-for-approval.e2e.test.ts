import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath } from "../support/embedded";
import { APPROVER, ASKER, CLERK, limitsOf, OWNER } from "../support/limits";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

// Issue 44, what people see: the review queue puts the refunds waiting for an approver above what
// needs review (who asked, how much, the order, the limit in words, when asked and when it expires,
// a link to the request), and says why a refund made outside the app over a limit is on it.

let h: VerificationHarness;
const shop = limitsOf(() => h);
const { as } = shop;
const queue = async (query = "") => (await as(APPROVER)(dataPath(`/app/review${query}`, "routes/app.review"))).json();

beforeAll(async () => {
  h = await startVerificationHarness("review-limits.myshopify.com");
  await shop.meetStaff();
});
afterAll(async () => h?.close());

async function saveLimits(fields: Record<string, string>) {
  expect((await shop.saveLimits(OWNER, fields, { [APPROVER]: { approver: true } })).status).toBe(200);
}

/** Sam Lee asks for a refund of `amount` on a new order: over the limit, it waits. */
async function ask(amount: string) {
  const order = h.shop.createOrder({ amount: "300.00" });
  const body = new URLSearchParams({ intent: "issue", amount, formToken: randomUUID() });
  expect((await as(ASKER)(dataPath(`/app/orders/${order.id}/refund`, "routes/app.orders.$orderId.refund"), { method: "POST", body })).status).toBe(202);
  const record = await h.db.refundRecord.findFirstOrThrow({ where: { orderId: `gid://shopify/Order/${order.id}` } });
  return { order, record, request: await h.db.refundApproval.findUniqueOrThrow({ where: { recordId: record.id } }) };
}

describe("the review queue's waiting requests", () => {
  it("none waiting: nothing to show", async () => {
    expect((await queue()).waiting).toEqual([]);
  });

  it("each request waiting, oldest (first to expire) first: who asked, how much, the order, the limit in words, when asked and when it expires", async () => {
    await saveLimits({ perRefund: "100" });
    const first = await ask("180.00");
    h.clock.advance(60_000);
    const second = await ask("150.00");
    const page = await queue();
    expect(page.waiting).toHaveLength(2);
    expect(page.waiting.map((r: { id: string }) => r.id)).toEqual([first.request.id, second.request.id]);
    expect(page.waiting[0]).toMatchObject({
      id: first.request.id,
      state: "waiting",
      sysId: first.record.sysId,
      amount: "$180.00",
      currency: "USD",
      orderName: first.order.name,
      askedBy: "Sam Lee",
      askedAt: first.request.askedAt.toISOString(),
      expiresAt: first.request.expiresAt.toISOString(),
      limits: "$180.00 is over the shop's limit of $100.00 per refund.",
    });
    expect(page.timeZone).toBeTruthy();
  });

  it("decided or past their day, requests leave the list", async () => {
    const page = await queue();
    const [first] = page.waiting;
    const decline = new URLSearchParams({ intent: "decline", reason: "Store credit already given" });
    expect((await as(APPROVER)(dataPath(`/app/approvals/${first.id}`, "routes/app.approvals.$id"), { method: "POST", body: decline })).status).toBe(200);
    expect((await queue()).waiting.map((r: { id: string }) => r.id)).not.toContain(first.id);
    await h.db.refundApproval.updateMany({ where: { shop: h.domain, state: "waiting" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await queue()).waiting).toEqual([]);
  });

  it("are shown with the refunds that need review, not in the shop's history or the resolved tab", async () => {
    const { request } = await ask("200.00");
    expect((await queue()).waiting.map((r: { id: string }) => r.id)).toEqual([request.id]);
    expect((await queue("?view=history")).waiting).toEqual([]);
    expect((await queue("?view=resolved")).waiting).toEqual([]);
  });
});

describe("a refund made outside the app over a limit, on the queue", () => {
  it("says why in words, with who made it, and wears 'Over a limit'", async () => {
    const order = h.shop.createOrder({ amount: "500.00" });
    const refund = h.shop.createRefund(order.id, { amount: "180.00", staffUserId: CLERK });
    expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    await h.worker.runOnce();
    const op = await operationFor(h.db, refundGid(refund.id));
    const item = (await queue()).items.find((i: { id: string }) => i.id === op.id);
    expect(item).toMatchObject({
      status: "VERIFIED",
      overLimit: true,
      atRiskTwice: false,
      reasonText: "Made outside the app by Kit Marlowe, over the shop's limit: $180.00 is over the shop's limit of $100.00 per refund.",
    });
  });
});
