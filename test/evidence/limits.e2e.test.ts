import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath } from "../support/embedded";
import { APPROVER, ASKER, CLERK, limitsOf, OWNER } from "../support/limits";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

// Issue 44, what people see: the evidence page keeps the refund limits' audit trail. A refund that
// waited for approval says who asked and when, the limits it went over, who approved it, when,
// their note and the limits in force then; one made outside the app over a limit says so in words,
// with who made it where Shopify said.

let h: VerificationHarness;
const shop = limitsOf(() => h);
const { as } = shop;

beforeAll(async () => {
  h = await startVerificationHarness("evidence-limits.myshopify.com");
  await shop.meetStaff();
  expect((await shop.saveLimits(OWNER, { perRefund: "100" }, { [APPROVER]: { approver: true } })).status).toBe(200);
});
afterAll(async () => h?.close());

const evidenceOf = async (operationId: string) => (await as(OWNER)(dataPath(`/app/refunds/${operationId}`, "routes/app.refunds.$id"))).json();
const LIMIT = "$180.00 is over the shop's limit of $100.00 per refund.";

describe("the evidence page's refund limits", () => {
  it("a refund issued after an approval: asked by whom and when, the limits it went over, approved by whom, when, their note, the limits in force then", async () => {
    const order = h.shop.createOrder({ amount: "300.00" });
    const ask = new URLSearchParams({ intent: "issue", amount: "180.00", formToken: randomUUID() });
    expect((await as(ASKER)(dataPath(`/app/orders/${order.id}/refund`, "routes/app.orders.$orderId.refund"), { method: "POST", body: ask })).status).toBe(202);
    const record = await h.db.refundRecord.findFirstOrThrow({ where: { orderId: `gid://shopify/Order/${order.id}` } });
    const request = await h.db.refundApproval.findUniqueOrThrow({ where: { recordId: record.id } });
    const requestPath = dataPath(`/app/approvals/${request.id}`, "routes/app.approvals.$id");
    const revision = String((await (await as(APPROVER)(requestPath)).json()).limitsNow.revision);
    const approve = new URLSearchParams({ intent: "approve", limitsRevision: revision, note: "Damaged in transit, photos seen" });
    expect((await as(APPROVER)(requestPath, { method: "POST", body: approve })).status).toBe(200);
    await h.settle();
    const sent = await h.db.refundRecord.findUniqueOrThrow({ where: { id: record.id } });
    const op = await operationFor(h.db, sent.refundRef!);
    const decided = await h.db.refundApproval.findUniqueOrThrow({ where: { id: request.id } });

    const page = await evidenceOf(op.id);
    expect(page.limits).toEqual({
      approval: {
        requestId: request.id,
        state: "approved",
        askedBy: "Sam Lee",
        askedAt: request.askedAt.toISOString(),
        expiresAt: request.expiresAt.toISOString(),
        over: LIMIT,
        decidedBy: "Ada Lovelace",
        decidedAt: decided.decidedAt!.toISOString(),
        note: "Damaged in transit, photos seen",
        limitsWhenDecided: LIMIT,
      },
      overLimit: null,
    });
    // The two steps in its timeline, and both instants in the shop's time zone for the page.
    expect(page.timeline).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ at: request.askedAt.toISOString(), title: "Asked for approval by Sam Lee", detail: LIMIT }),
        expect.objectContaining({ at: decided.decidedAt!.toISOString(), title: "Approved by Ada Lovelace", detail: "Damaged in transit, photos seen" }),
      ]),
    );
    expect(Object.keys(page.times)).toEqual(expect.arrayContaining([request.askedAt.toISOString(), decided.decidedAt!.toISOString()]));
  });

  it("a refund made outside the app over a limit: the reason in words, with the staff member's name", async () => {
    const order = h.shop.createOrder({ amount: "500.00" });
    const refund = h.shop.createRefund(order.id, { amount: "180.00", staffUserId: CLERK });
    expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    await h.worker.runOnce();
    const op = await operationFor(h.db, refundGid(refund.id));
    const page = await evidenceOf(op.id);
    expect(page.limits).toEqual({
      approval: null,
      overLimit: { madeBy: "Kit Marlowe", sentence: `Made outside the app by Kit Marlowe, over the shop's limit: ${LIMIT}` },
    });
  });

  it("made outside the app by no person (an app, an automation): the same words without a name", async () => {
    const order = h.shop.createOrder({ amount: "500.00" });
    const refund = h.shop.createRefund(order.id, { amount: "180.00" });
    expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    await h.worker.runOnce();
    const page = await evidenceOf((await operationFor(h.db, refundGid(refund.id))).id);
    expect(page.limits.overLimit).toEqual({ madeBy: null, sentence: `Made outside the app, over the shop's limit: ${LIMIT}` });
  });

  it("a refund within the limits says nothing of them", async () => {
    const order = h.shop.createOrder({ amount: "500.00" });
    const refund = h.shop.createRefund(order.id, { amount: "40.00", staffUserId: CLERK });
    expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    await h.worker.runOnce();
    expect((await evidenceOf((await operationFor(h.db, refundGid(refund.id))).id)).limits).toBeNull();
  });
});
