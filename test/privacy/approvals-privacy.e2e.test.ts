import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newDelivery } from "../../fake-shopify/webhooks";
import { dataPath, embeddedFetch } from "../support/embedded";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";

// Issue 44's rows under the compliance webhooks: an approver's words may name the customer, and
// shop/redact leaves nothing of the shop's limits, requests or breaches.

let h: VerificationHarness;
const LIMITS_PATH = dataPath("/app/settings/limits", "routes/app.settings.limits");
const as = (userId: string) => embeddedFetch(h.app.url, h.domain, userId);

beforeAll(async () => {
  h = await startVerificationHarness("approvals-privacy.myshopify.com");
  const page = await (await as("42")(LIMITS_PATH)).json();
  const saved = await as("42")(LIMITS_PATH, { method: "POST", body: new URLSearchParams({ revision: String(page.revision), people: "", perRefund: "100" }) });
  expect(saved.status).toBe(200);
});
afterAll(async () => h?.close());

/** A refund over the limit, asked for by staff member 77 and declined by the owner with `reason`. */
async function declined(reason: string) {
  const order = h.shop.createOrder({ amount: "400.00" });
  const asked = await as("77")(dataPath(`/app/orders/${order.id}/refund`, "routes/app.orders.$orderId.refund"), {
    method: "POST",
    body: new URLSearchParams({ intent: "issue", amount: "150.00", formToken: randomUUID() }),
  });
  expect(asked.status).toBe(202);
  const record = await h.db.refundRecord.findFirstOrThrow({ where: { orderId: `gid://shopify/Order/${order.id}` } });
  const request = await h.db.refundApproval.findUniqueOrThrow({ where: { recordId: record.id } });
  const path = dataPath(`/app/approvals/${request.id}`, "routes/app.approvals.$id");
  expect((await as("42")(path, { method: "POST", body: new URLSearchParams({ intent: "decline", reason }) })).status).toBe(200);
  return { order, record, request };
}

describe("refund requests under the compliance webhooks", () => {
  it("customers/redact takes the approver's words off the customer's orders, and only theirs", async () => {
    const theirs = await declined("Jane Roe already has a replacement");
    const other = await declined("Out of policy");
    const body = JSON.stringify({ shop_id: 1, shop_domain: h.domain, customer: { id: 7 }, orders_to_redact: [String(theirs.order.id)] }).replace(
      `"${theirs.order.id}"`,
      String(theirs.order.id),
    );
    expect((await h.deliver(newDelivery("customers/redact", h.domain, body))).status).toBe(200);
    const redacted = "[redacted on the customer's request]";
    expect((await h.db.refundApproval.findUniqueOrThrow({ where: { id: theirs.request.id } })).decisionNote).toBe(redacted);
    expect(await h.db.refundRecord.findUniqueOrThrow({ where: { id: theirs.record.id } })).toMatchObject({ failureReason: redacted, outcomeDetail: redacted });
    expect((await h.db.refundApproval.findUniqueOrThrow({ where: { id: other.request.id } })).decisionNote).toBe("Out of policy");
  });

  it("shop/redact removes the shop's limits, requests and breaches", async () => {
    expect(await h.db.refundLimits.count({ where: { shop: h.domain } })).toBe(1);
    await h.app.shopify.uninstall(h.domain);
    const body = JSON.stringify({ shop_id: 1, shop_domain: h.domain });
    expect((await h.deliver(newDelivery("shop/redact", h.domain, body))).status).toBe(200);
    expect(await h.db.refundLimits.count({ where: { shop: h.domain } })).toBe(0);
    expect(await h.db.refundApproval.count({ where: { shop: h.domain } })).toBe(0);
    expect(await h.db.limitBreach.count({ where: { shop: h.domain } })).toBe(0);
  });
});
