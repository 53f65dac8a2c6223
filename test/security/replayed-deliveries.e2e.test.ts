import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { complianceBodies, newDelivery, refundWebhookBody, shopWebhookBody } from "../../fake-shopify/webhooks";
import { installShop } from "../support/sessions";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";

// Attacks with deliveries Shopify really signed. Shopify's HMAC covers the body only: the
// X-Shopify-Shop-Domain header (and every other header) is the sender's to choose.
const VICTIM = "victim-shop.myshopify.com";
const ATTACKER = "attacker-shop.myshopify.com";
let h: VerificationHarness;

beforeAll(async () => {
  h = await startVerificationHarness(VICTIM);
  await installShop(h.db, h.app.shopify, ATTACKER);
});
afterAll(async () => h.close());

/** The victim's verified refunds, and what they hold: what an attack must not touch. */
async function victimHoldings() {
  const [operations, observations, sessions, requests] = await Promise.all([
    h.db.operation.count({ where: { shop: VICTIM } }),
    h.db.observation.count({ where: { operation: { shop: VICTIM } } }),
    h.db.session.count({ where: { shop: VICTIM } }),
    h.db.complianceRequest.count({ where: { shop: VICTIM } }),
  ]);
  return { operations, observations, sessions, requests };
}

async function victimRefund() {
  const shop = h.app.shopify.shop(VICTIM);
  const order = shop.createOrder({ amount: "40.00" });
  const refund = shop.createRefund(order.id, { amount: "10.00" });
  await h.deliver(newDelivery("refunds/create", VICTIM, refundWebhookBody(shop, refund)));
  await h.settle();
  return order;
}

describe("a signed body of one shop, posted under another shop's header", () => {
  it("shop/redact: refused (401), the named shop's verdicts and session stay", async () => {
    await victimRefund();
    const before = await victimHoldings();
    expect(before.operations).toBeGreaterThan(0);
    const response = await h.deliver(newDelivery("shop/redact", VICTIM, complianceBodies.shopRedact(ATTACKER)));
    expect(response.status).toBe(401);
    expect(await victimHoldings()).toEqual(before);
  });

  it("customers/redact: refused (401), the evidence of the named shop's orders stays", async () => {
    const order = await victimRefund();
    const before = await victimHoldings();
    const response = await h.deliver(newDelivery("customers/redact", VICTIM, complianceBodies.customersRedact(ATTACKER, [order.id])));
    expect(response.status).toBe(401);
    expect(await victimHoldings()).toEqual(before);
  });

  it("customers/data_request: refused (401), nothing recorded for the named shop", async () => {
    const order = await victimRefund();
    const response = await h.deliver(newDelivery("customers/data_request", VICTIM, complianceBodies.dataRequest(ATTACKER, [order.id])));
    expect(response.status).toBe(401);
    expect((await victimHoldings()).requests).toBe(0);
  });

  it("app/uninstalled: refused (401), the named shop stays installed", async () => {
    const response = await h.deliver(newDelivery("app/uninstalled", VICTIM, shopWebhookBody(h.app.shopify.shop(ATTACKER))));
    expect(response.status).toBe(401);
    expect((await victimHoldings()).sessions).toBe(1);
  });
});

describe("a shop's own signed delivery, replayed", () => {
  it("app/uninstalled while Shopify still takes the app's token there: nothing is stopped", async () => {
    const response = await h.deliver(newDelivery("app/uninstalled", VICTIM, shopWebhookBody(h.app.shopify.shop(VICTIM))));
    expect(response.status).toBe(200);
    expect((await victimHoldings()).sessions).toBe(1);
    expect((await h.db.shopState.findUnique({ where: { shop: VICTIM } }))?.uninstalledAt ?? null).toBeNull();
  });

  it("shop/redact for a shop that has the app installed: nothing is erased", async () => {
    await victimRefund();
    const before = await victimHoldings();
    const response = await h.deliver(newDelivery("shop/redact", VICTIM, complianceBodies.shopRedact(VICTIM)));
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/installed/);
    expect(await victimHoldings()).toEqual(before);
  });

  it("a compliance delivery sent again with its webhook id is carried out once", async () => {
    const order = await victimRefund();
    const delivery = newDelivery("customers/data_request", VICTIM, complianceBodies.dataRequest(VICTIM, [order.id]));
    for (let i = 0; i < 3; i++) expect((await h.deliver(delivery)).status).toBe(200);
    expect((await victimHoldings()).requests).toBe(1);
  });
});
