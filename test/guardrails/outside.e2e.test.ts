import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedBreaches } from "../../app/guardrails/limits";
import { dataPath, embeddedFetch } from "../support/embedded";
import { refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

// Issue 44: nothing stops a refund made outside the app (Shopify admin, POS, other apps); one over
// a limit is shown to the owner: a reason kept with its verdict (LimitBreach) and a review item.

let h: VerificationHarness;
const CLERK = "55";
const LIMITS_PATH = dataPath("/app/settings/limits", "routes/app.settings.limits");

beforeAll(async () => {
  h = await startVerificationHarness("outside-limits.myshopify.com");
  h.app.shopify.addStaff(h.domain, { id: CLERK, firstName: "Rene", lastName: "Ortiz" });
});
afterAll(async () => h?.close());

async function saveLimits(fields: Record<string, string>) {
  const asOwner = embeddedFetch(h.app.url, h.domain, "42");
  const page = await (await asOwner(LIMITS_PATH)).json();
  const response = await asOwner(LIMITS_PATH, { method: "POST", body: new URLSearchParams({ revision: String(page.revision), people: "", ...fields }) });
  expect(response.status).toBe(200);
}

/** A refund made in Shopify admin, its refunds/create delivered, verified by the worker. */
async function refundMadeInAdmin(amount: string, staffUserId?: string) {
  const order = h.shop.createOrder({ amount: "5000.00" });
  const refund = h.shop.createRefund(order.id, { amount, ...(staffUserId ? { staffUserId } : {}) });
  expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
  await h.settle();
  await h.worker.runOnce();
  const op = await h.db.operation.findFirstOrThrow({ where: { refundGid: refundGid(refund.id) }, include: { limitBreach: true } });
  expect(op.status).toBe("VERIFIED");
  return op;
}

const breachOf = (op: { limitBreach: { limits: string } | null }) => (op.limitBreach ? storedBreaches.parse(JSON.parse(op.limitBreach.limits)) : null);

describe("a refund made outside the app", () => {
  it("before the shop set any limit is not judged", async () => {
    const op = await refundMadeInAdmin("900.00", CLERK);
    expect(op.limitBreach).toBeNull();
    expect(op.reviewState).toBe("none");
  });

  it("over the per-refund limit: kept as over the limit, with who made it (their day counts what they refunded before the limits), on the review queue", async () => {
    await saveLimits({ perRefund: "100", dailyPerStaff: "150" });
    const op = await refundMadeInAdmin("180.00", CLERK);
    expect(breachOf(op)).toEqual([
      { kind: "per_refund", currency: "USD", limitMinor: "10000", amountMinor: "18000", own: false },
      { kind: "staff_daily", currency: "USD", limitMinor: "15000", amountMinor: "18000", totalMinor: "108000", own: false },
    ]);
    expect(op.limitBreach?.staffUserId).toBe(CLERK);
    expect(op.reviewState).toBe("open");
  });

  it("within the limits is left alone; a person's refunds in 24 hours add up, in the app or not", async () => {
    const first = await refundMadeInAdmin("60.00", "56");
    expect(first.limitBreach).toBeNull();
    expect(first.reviewState).toBe("none");
    const second = await refundMadeInAdmin("95.00", "56");
    expect(breachOf(second)).toEqual([{ kind: "staff_daily", currency: "USD", limitMinor: "15000", amountMinor: "9500", totalMinor: "15500", own: false }]);
  });

  it("made by no person (an app, an automation): the per-refund limit still counts, a daily limit of nobody does not", async () => {
    const small = await refundMadeInAdmin("120.00");
    expect(breachOf(small)).toEqual([{ kind: "per_refund", currency: "USD", limitMinor: "10000", amountMinor: "12000", own: false }]);
    expect(small.limitBreach?.staffUserId).toBeNull();
  });

  it("made before the shop first saved limits and verified after is not judged against them", async () => {
    const order = h.shop.createOrder({ amount: "5000.00" });
    const refund = h.shop.createRefund(order.id, { amount: "700.00", staffUserId: CLERK, createdAt: new Date(Date.now() - 3600_000) });
    expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    await h.worker.runOnce();
    const op = await h.db.operation.findFirstOrThrow({ where: { refundGid: refundGid(refund.id) }, include: { limitBreach: true } });
    expect(op.status).toBe("VERIFIED");
    expect(op.limitBreach).toBeNull();
  });

  it("is judged once: another pass adds nothing", async () => {
    const before = await h.db.limitBreach.count({ where: { shop: h.domain } });
    await h.worker.runOnce();
    await h.worker.runOnce();
    expect(await h.db.limitBreach.count({ where: { shop: h.domain } })).toBe(before);
  });
});
