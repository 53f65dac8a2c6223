import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installShop } from "../support/sessions";
import { dataPath, embeddedFetch } from "../support/embedded";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";
import { newDelivery, refundWebhookBody } from "../../fake-shopify/webhooks";
import type { FakeRefund } from "../../fake-shopify/shop";

// Issue 28, what people see: the evidence page's Money section says where a verified refund's
// money is (contract shopify.refund.settled), with the sentence a support agent pastes to the customer.

let h: VerificationHarness;
const WITH_PAYOUTS = "read_orders,write_orders,read_shopify_payments_accounts,read_shopify_payments_payouts";
const NO_SCOPE = "no-payouts-shop.myshopify.com";
const NO_ACCOUNT = "no-account-shop.myshopify.com";

/**
 * Staff member 42 opens the app in the shop: their first request's token exchange stores the shop's
 * offline session with the scopes the fake answers (the app's own). What the shop granted besides is
 * written after it, as the app records Shopify's answer (app/shops/scopes.server.ts).
 */
async function openedBy42(domain: string) {
  expect((await embeddedFetch(h.app.url, domain)(dataPath("/app/settings/alerts", "routes/app.settings.alerts"))).status).toBe(200);
}

beforeAll(async () => {
  h = await startVerificationHarness("money-page-shop.myshopify.com");
  await openedBy42(h.domain);
  await h.db.session.updateMany({ where: { shop: h.domain, isOnline: false }, data: { scope: WITH_PAYOUTS } });
  await installShop(h.db, h.app.shopify, NO_SCOPE);
  // Shopify answers that this shop did not grant the payouts scope (the app asks it; its session says the same).
  h.app.shopify.shop(NO_SCOPE).grantedScopes.delete("read_shopify_payments_payouts");
  await installShop(h.db, h.app.shopify, NO_ACCOUNT);
  await openedBy42(NO_ACCOUNT);
  await h.db.session.updateMany({ where: { shop: NO_ACCOUNT, isOnline: false }, data: { scope: WITH_PAYOUTS } });
  h.app.shopify.shop(NO_ACCOUNT).payments.account = "none";
});
afterAll(async () => h.close());

/** A refund of `amount` on a new order of `domain`, delivered and VERIFIED at the created level. */
async function verifiedRefund(domain: string, amount: string): Promise<FakeRefund> {
  const shop = h.app.shopify.shop(domain);
  const order = shop.createOrder({ amount: "100.00", gateway: "shopify_payments" });
  const refund = shop.createRefund(order.id, { amount });
  expect((await h.deliver(newDelivery("refunds/create", domain, refundWebhookBody(shop, refund), h.clock.now()))).status).toBe(200);
  await h.settle();
  expect((await operationFor(h.db, refundGid(refund.id))).status).toBe("VERIFIED");
  return refund;
}

const settlementOf = (refund: FakeRefund) => h.db.settlement.findFirst({ where: { refundGid: refundGid(refund.id) } });

/** Settlement passes, the clock moved to each next due read, until the settlement is decided and has its card reference. */
async function untilSettled(refund: FakeRefund) {
  for (let pass = 0; pass < 200; pass++) {
    await h.worker.runSettlements();
    const settlement = await settlementOf(refund);
    if (settlement && settlement.status !== "PENDING" && settlement.arn) return settlement;
    if (!settlement?.nextDueAt) throw new Error(`not followed: ${JSON.stringify(settlement)}`);
    if (settlement.nextDueAt.getTime() > h.clock.ms) h.clock.ms = settlement.nextDueAt.getTime();
  }
  throw new Error("untilSettled: too many passes");
}

async function evidence(domain: string, refund: FakeRefund) {
  const op = await operationFor(h.db, refundGid(refund.id));
  const response = await embeddedFetch(h.app.url, domain)(dataPath(`/app/refunds/${op.id}`, "routes/app.refunds.$id"));
  expect(response.status).toBe(200);
  return response.json();
}

describe("the evidence page's Money section", () => {
  it("a refund whose payout was paid: Settled, the payout, the day it was sent, the ARN, and the customer's sentence with it", async () => {
    const refund = await verifiedRefund(h.domain, "25.00");
    const settlement = await untilSettled(refund);
    expect(settlement).toMatchObject({ status: "VERIFIED", money: "paid", payoutStatus: "PAID" });
    const { money, times, timeZone, now } = await evidence(h.domain, refund);
    expect(money.shown).toBe(true);
    expect(money.headline).toMatchObject({ title: "Settled", tone: "success" });
    const processedAt = settlement!.processedAt!.toISOString();
    expect(money.followed).toMatchObject({
      payoutStatus: "PAID",
      payoutLabel: "Paid",
      payoutNumber: settlement!.payoutGid!.split("/").pop(),
      processedAt,
      references: [settlement!.arn],
    });
    // The day it was sent, formatted with the page's other instants (the shop's zone).
    expect(times[processedAt]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d\s[AP]M E[SD]T$/);
    // "3 Dec" in the shop's zone; the year only for a day of another year.
    const year = (d: Date) => new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric" }).format(d);
    const day = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      day: "numeric",
      month: "short",
      ...(year(settlement!.processedAt!) === year(new Date(now)) ? {} : { year: "numeric" }),
    }).format(settlement!.processedAt!);
    expect(money.sentence).toBe(`Your refund of $25.00 was sent to your card on ${day}; your bank can trace it with reference ${settlement!.arn}.`);
    expect(settlement!.arn).toMatch(/^\d{23}$/);
  });

  it("a shop that has not granted the payouts scope: the headline says so, and nothing else is shown", async () => {
    const refund = await verifiedRefund(NO_SCOPE, "11.00");
    await h.worker.runSettlements();
    const { money } = await evidence(NO_SCOPE, refund);
    expect(money).toMatchObject({ shown: true, followed: null, sentence: null, knowledge: { kind: "not_granted" } });
    expect(money.headline.title).toBe("Not followed to the payout");
    expect(money.headline.detail).toMatch(/Grant it read access to payouts/);
  });

  it("a shop without Shopify Payments: not followed, and why; before the app has asked Shopify, not followed yet", async () => {
    const refund = await verifiedRefund(NO_ACCOUNT, "12.00");
    const { money } = await evidence(NO_ACCOUNT, refund);
    expect(money).toMatchObject({ shown: true, followed: null, sentence: null, knowledge: { kind: "no_account" } });
    expect(money.headline).toMatchObject({
      title: "Not followed to the payout",
      detail: "This shop has no Shopify Payments account: Shopify shows no payouts to follow.",
    });
    // The scopes just granted (app/scopes_update forgets the last answer): Shopify not asked yet.
    await h.db.shopState.updateMany({ where: { shop: NO_ACCOUNT }, data: { paymentsAccount: null, paymentsCheckedAt: null } });
    const before = (await evidence(NO_ACCOUNT, refund)).money;
    expect(before).toMatchObject({ shown: true, followed: null, knowledge: { kind: "not_yet" }, headline: { title: "Not followed yet" } });
  });

  it("a refund that is not verified has no Money section", async () => {
    const shop = h.app.shopify.shop(h.domain);
    const order = shop.createOrder({ amount: "50.00" });
    const refund = shop.createRefund(order.id, { amount: "20.00", recordedAmount: "21.00" });
    expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    const { money } = await evidence(h.domain, refund);
    expect(money).toMatchObject({ shown: false, followed: null, knowledge: { kind: "not_verified" } });
  });
});
