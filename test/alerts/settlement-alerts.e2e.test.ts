import { describe, expect, it } from "vitest";
import { digestSummary } from "../../app/alerts/digest.server";
import { requestBackfill } from "../../app/backfill/request.server";
import { REFUND_CREATED } from "../../app/contracts/registry.server";
import { dayIn } from "../../app/lib/time/days";
import type { FakeRefund } from "../../fake-shopify/shop";
import { EVERY_ALERT_CHOICE, newAlertsShop, saveAlertSettings, useAlertsHarness } from "../support/alerts";
import { TEST_APP } from "../support/credentials";
import { dataPath } from "../support/embedded";
import { backfillToEnd, refundGid } from "../support/verification";

// Alerts for where a verified refund's money went (contract shopify.refund.settled), through the
// app against the fake Shopify: a settlement that needs a person is an AlertEvent the grouping,
// email, Slack, digest and Flow machinery sends once, in a merchant's words (issue 28).

const ROUTE = "routes/app.settings.alerts";
const DAY = 24 * 3600_000;
const WITH_PAYOUTS = "read_orders,write_orders,read_shopify_payments_accounts,read_shopify_payments_payouts";

const alerts = useAlertsHarness("settlement-alerts.myshopify.com", { webhooks: true });

type Shop = Awaited<ReturnType<typeof newShop>>;

/** A shop of its own per test that lets the app read its payouts. */
const newShop = (name: string) => newAlertsShop(alerts.h, name, { scope: WITH_PAYOUTS });
const saveSettings = (shop: Shop, fields: Record<string, string | string[]>) => saveAlertSettings(shop.asStaff, fields);

/** A refund of `amount` on a new order paid through `gateway`, delivered and VERIFIED at the created level. */
async function verifiedRefund(shop: Shop, amount: string, gateway = "shopify_payments") {
  const order = shop.shop.createOrder({ amount: "100.00", gateway });
  const refund = shop.shop.createRefund(order.id, { amount });
  expect((await shop.deliver(refund)).status).toBe(200);
  await alerts.h.settle();
  const op = await alerts.h.db.operation.findFirstOrThrow({ where: { shop: shop.domain, refundGid: refundGid(refund.id) } });
  expect(op.status).toBe("VERIFIED");
  return { order, refund, op };
}

const settlementOf = (shop: Shop, refund: FakeRefund) => alerts.h.db.settlement.findFirst({ where: { shop: shop.domain, refundGid: refundGid(refund.id) } });
const decided = (s: { status: string }) => s.status !== "PENDING";

/** Runs settlement passes, moving the clock to each next due read, until the refund's settlement is decided or 55 days have passed (the contract gives up at 50). */
async function followMoney(shop: Shop, refund: FakeRefund) {
  const end = alerts.h.clock.ms + 55 * DAY;
  for (let pass = 0; pass < 500; pass++) {
    await alerts.h.worker.runSettlements();
    const settlement = await settlementOf(shop, refund);
    if (settlement && decided(settlement)) return settlement;
    if (!settlement?.nextDueAt || settlement.nextDueAt.getTime() > end) return settlement;
    if (settlement.nextDueAt.getTime() > alerts.h.clock.ms) alerts.h.clock.ms = settlement.nextDueAt.getTime();
  }
  throw new Error("followMoney: too many passes");
}

/** The refunds of the shop's Flow calls since the `from`th call. */
const flowCallsOf = (shop: Shop, from: number) =>
  alerts.h.app.shopify.flow.calls
    .slice(from)
    .filter((c) => c.shop === shop.domain)
    .map((c) => c.payload["refund id"]);
const evidenceUrl = (shop: Shop, operationId: string) => `https://admin.shopify.com/store/${shop.name}/apps/${TEST_APP.apiKey}/refunds/${operationId}`;

describe("a refund whose payout failed", () => {
  it("is one email and one Slack message naming the refund and its failed payout, with the evidence link, however often and by however many workers the alert pass runs", async () => {
    const shop = await newShop("payout-failed");
    expect((await saveSettings(shop, { emailRecipients: "ops@shop.test", slackUrl: alerts.slack.webhookUrl, verdicts: EVERY_ALERT_CHOICE })).status).toBe(200);
    const { order, refund, op } = await verifiedRefund(shop, "40.00");
    shop.shop.payments.failPayout(refund.transactionIds[0], "FAILED");
    expect(await followMoney(shop, refund)).toMatchObject({ status: "CONTRADICTED", reason: "payout_failed", payoutStatus: "FAILED", alertedVerdict: null });

    // Two workers at once turn the settlement into its event, then two at once group and send it.
    await alerts.racedPasses();

    const mails = alerts.mailsOf(shop);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.subject).toBe(`Refund Verifier · payout-failed: Payout failed, $40.00 on ${order.name}`);
    expect(mail.text).toContain("1 refund in payout-failed needs a person: 1 × payout failed. Amount: $40.00.");
    expect(mail.text).toContain(`• Payout failed: $40.00 on ${order.name}`);
    expect(mail.text).toContain(`The payout that carried the $40.00 refund on ${order.name} failed at your bank: the money is not settled.`);
    expect(mail.text).toContain(`Evidence: ${evidenceUrl(shop, op.id)}`);
    expect(mail.html).toContain(`href="${evidenceUrl(shop, op.id)}"`);
    const slackMessages = alerts.slackOf(shop);
    expect(slackMessages).toHaveLength(1);
    expect(slackMessages[0].body.text).toBe(mail.subject);
    expect(JSON.stringify(slackMessages[0].body)).toContain(`The payout that carried the $40.00 refund on ${order.name} failed at your bank`);

    expect(await alerts.h.db.alertEvent.findMany({ where: { shop: shop.domain }, select: { operationId: true, verdict: true, instantStatus: true } })).toEqual([
      { operationId: op.id, verdict: "PAYOUT_FAILED", instantStatus: "grouped" },
    ]);
    expect(await settlementOf(shop, refund)).toMatchObject({ alertedVerdict: "CONTRADICTED" });
    const log = await alerts.h.db.alertDelivery.findMany({ where: { shop: shop.domain } });
    expect(log.map((d) => [d.channel, d.status, d.eventCount]).sort()).toEqual([
      ["email", "delivered", 1],
      ["slack", "delivered", 1],
    ]);

    // The digest of the day counts it among the refunds whose money did not settle.
    const settledOn = dayIn((await settlementOf(shop, refund))!.decidedAt!, "UTC");
    const tomorrow = dayIn(new Date(Date.parse(`${settledOn}T12:00:00Z`) + DAY), "UTC");
    const summary = await digestSummary(alerts.h.db, REFUND_CREATED.contract, shop.domain, tomorrow, "UTC");
    expect(summary.moneyProblems).toEqual([{ headline: "Payout failed", count: 1 }]);
  });

  it("starts the shop's Flow workflow on 'Refund payout failed' once, with the payout's id and status; a shop without one gets no call", async () => {
    const withFlow = await newShop("payout-flow-on");
    const without = await newShop("payout-flow-off");
    expect(await (await alerts.h.app.shopify.setFlowWorkflow(withFlow.domain, "refund-payout-failed", true)).text()).toBe("recorded");
    const before = alerts.h.app.shopify.flow.calls.length;
    const failing = await verifiedRefund(withFlow, "25.50");
    const other = await verifiedRefund(without, "25.50");
    withFlow.shop.payments.failPayout(failing.refund.transactionIds[0], "CANCELED");
    without.shop.payments.failPayout(other.refund.transactionIds[0], "FAILED");
    const settlement = await followMoney(withFlow, failing.refund);
    expect(settlement).toMatchObject({ status: "CONTRADICTED", reason: "payout_failed", payoutStatus: "CANCELED" });
    expect(await followMoney(without, other.refund)).toMatchObject({ status: "CONTRADICTED", reason: "payout_failed" });
    await Promise.all([alerts.h.worker.runAlerts(), alerts.h.newWorker().runAlerts()]);
    await alerts.h.worker.runAlerts();

    const calls = alerts.h.app.shopify.flow.calls.slice(before);
    expect(calls.map((c) => [c.shop, c.handle, c.ranWorkflows])).toEqual([[withFlow.domain, "refund-payout-failed", true]]);
    expect(calls[0].payload).toEqual({
      order_id: failing.order.id.toString(),
      "order name": failing.order.name,
      verdict: "Contradicted",
      reasons: `Shopify canceled the payout that carried the $25.50 refund on ${failing.order.name}: the money is not settled. Check the payout in Shopify Payments.`,
      classes: "payout failed",
      amount: "25.50",
      "currency code": "USD",
      "refund id": refundGid(failing.refund.id),
      origin: "webhook",
      "evidence url": evidenceUrl(withFlow, failing.op.id),
      "payout id": settlement!.payoutGid,
      "payout status": "CANCELED",
    });
    expect(settlement!.payoutGid).toMatch(/^gid:\/\/shopify\/ShopifyPaymentsPayout\/\d+$/);
    // Once: more passes and another worker call nothing more; the log says delivered.
    alerts.h.clock.advance(3600_000);
    await alerts.h.newWorker().runAlerts();
    expect(alerts.h.app.shopify.flow.calls.slice(before)).toHaveLength(1);
    const log = await alerts.h.db.alertDelivery.findMany({ where: { shop: withFlow.domain, channel: "flow" } });
    expect(log.map((d) => [d.target, d.status, d.subject])).toEqual([
      ["refund-payout-failed", "delivered", `Refund payout failed: $25.50 on ${failing.order.name}`],
    ]);
    // The alerts page lists the trigger as used.
    const page = await (await withFlow.asStaff(dataPath("/app/settings/alerts", ROUTE))).json();
    expect(page.flowTriggers).toContainEqual(expect.objectContaining({ handle: "refund-payout-failed", name: "Refund payout failed", enabled: true }));
  });
});

describe("money that never settled", () => {
  it("50 days without a paid payout: one alert saying so, in days", async () => {
    const shop = await newShop("never-settled");
    await saveSettings(shop, { emailRecipients: "ops@shop.test", verdicts: EVERY_ALERT_CHOICE });
    const { order, refund } = await verifiedRefund(shop, "7.00");
    shop.shop.payments.withhold(refund.transactionIds[0]);
    expect(await followMoney(shop, refund)).toMatchObject({ status: "UNVERIFIABLE", reason: "not_settled_before_timeout" });
    await alerts.passes();
    await alerts.passes();
    const mails = alerts.mailsOf(shop);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Refund Verifier · never-settled: Never settled, $7.00 on ${order.name}`);
    expect(mails[0].text).toContain(`The $7.00 refund on ${order.name} has not settled 50 days after it was made. Shopify Payments' ledger does not show it.`);
    expect(await alerts.h.db.alertEvent.findMany({ where: { shop: shop.domain }, select: { verdict: true } })).toEqual([{ verdict: "NOT_SETTLED" }]);
  });
});

describe("what alerts nothing", () => {
  it("a refund settled (payout PAID), and one through another gateway, alert nothing; a failed payout beside them alerts alone", async () => {
    const shop = await newShop("settled-quietly");
    await saveSettings(shop, { emailRecipients: "ops@shop.test", slackUrl: alerts.slack.webhookUrl, verdicts: EVERY_ALERT_CHOICE });
    await alerts.h.app.shopify.setFlowWorkflow(shop.domain, "refund-payout-failed", true);
    const flowBefore = alerts.h.app.shopify.flow.calls.length;
    const paid = await verifiedRefund(shop, "11.00");
    expect(await followMoney(shop, paid.refund)).toMatchObject({ status: "VERIFIED", money: "paid" });
    // Days later, so that another payout carries it: a payout that fails fails every refund it carries.
    const paypal = await verifiedRefund(shop, "12.00", "paypal");
    const failed = await verifiedRefund(shop, "13.00");
    shop.shop.payments.failPayout(failed.refund.transactionIds[0], "FAILED");
    expect(await followMoney(shop, paypal.refund)).toMatchObject({ status: "GATEWAY_ONLY" });
    expect(await followMoney(shop, failed.refund)).toMatchObject({ status: "CONTRADICTED" });
    await alerts.passes();
    await alerts.passes();

    const mails = alerts.mailsOf(shop);
    expect(mails.map((m) => m.subject)).toEqual([`Refund Verifier · settled-quietly: Payout failed, $13.00 on ${failed.order.name}`]);
    for (const quiet of [paid, paypal]) expect(mails[0].text).not.toContain(quiet.order.name!);
    expect(alerts.slackOf(shop)).toHaveLength(1);
    expect(flowCallsOf(shop, flowBefore)).toEqual([refundGid(failed.refund.id)]);
    expect(await alerts.h.db.alertEvent.findMany({ where: { shop: shop.domain }, select: { operationId: true } })).toEqual([{ operationId: failed.op.id }]);
    expect((await settlementOf(shop, paid.refund))!.alertedVerdict).toBeNull();
  });

  it("a history of VERIFIED refunds sends nothing: their settlements, even a failed payout among them, are the digest's, not an instant alert or a workflow", async () => {
    const shop = await newShop("settled-history");
    await saveSettings(shop, { emailRecipients: "ops@shop.test", verdicts: EVERY_ALERT_CHOICE });
    await alerts.h.app.shopify.setFlowWorkflow(shop.domain, "refund-payout-failed", true);
    const flowBefore = alerts.h.app.shopify.flow.calls.length;
    // Refunds of the past weeks, their payouts long paid but one, which failed at the bank.
    const history = [20, 15, 10, 5].map((daysAgo, i) => {
      const order = shop.shop.createOrder({ amount: "100.00", createdAt: new Date(alerts.h.clock.ms - (daysAgo + 1) * DAY) });
      const refund = shop.shop.createRefund(order.id, { amount: `${20 + i}.00`, createdAt: new Date(alerts.h.clock.ms - daysAgo * DAY) });
      return { order, refund };
    });
    shop.shop.payments.failPayout(history[1].refund.transactionIds[0], "FAILED");
    await requestBackfill(alerts.h.db, shop.domain, 60, "dashboard", alerts.h.clock.now());
    expect(await backfillToEnd(alerts.h, shop.domain)).toMatchObject({ state: "done" });
    const ops = await alerts.h.db.operation.findMany({ where: { shop: shop.domain } });
    expect(ops.map((op) => [op.status, op.origin])).toEqual(history.map(() => ["VERIFIED", "backfill"]));
    for (const { refund } of history) await followMoney(shop, refund);
    const settlements = await alerts.h.db.settlement.findMany({ where: { shop: shop.domain }, orderBy: { amount: "asc" } });
    expect(settlements.map((s) => [s.amount, s.status, s.payoutStatus])).toEqual([
      ["20.00", "VERIFIED", "PAID"],
      ["21.00", "CONTRADICTED", "FAILED"],
      ["22.00", "VERIFIED", "PAID"],
      ["23.00", "VERIFIED", "PAID"],
    ]);
    await alerts.passes();
    await alerts.passes();
    expect(await alerts.h.db.alertEvent.findMany({ where: { shop: shop.domain }, select: { verdict: true, instantStatus: true } })).toEqual([
      { verdict: "PAYOUT_FAILED", instantStatus: "not_wanted" },
    ]);

    // A refund made now, whose payout fails: alerted, alone.
    const live = await verifiedRefund(shop, "30.00");
    shop.shop.payments.failPayout(live.refund.transactionIds[0], "FAILED");
    expect(await followMoney(shop, live.refund)).toMatchObject({ status: "CONTRADICTED" });
    await alerts.passes();
    await alerts.passes();
    const mails = alerts.mailsOf(shop);
    expect(mails.map((m) => m.subject)).toEqual([`Refund Verifier · settled-history: Payout failed, $30.00 on ${live.order.name}`]);
    for (const { order } of history) expect(mails[0].text).not.toContain(order.name!);
    expect(flowCallsOf(shop, flowBefore)).toEqual([refundGid(live.refund.id)]);
  });
});

describe("the alert settings", () => {
  it("money alerts are on for a shop that saved its settings before they existed, and off once a person unticks Money problems", async () => {
    const before = await newShop("money-default");
    const unticked = await newShop("money-unticked");
    // As a row saved before "Money problems" was a choice holds it.
    await alerts.h.db.alertSettings.create({
      data: { shop: before.domain, emailRecipients: "ops@shop.test", verdicts: "CONTRADICTED,FAILED,UNVERIFIABLE", revision: 1 },
    });
    expect((await saveSettings(unticked, { emailRecipients: "ops@shop.test", verdicts: ["CONTRADICTED", "FAILED", "UNVERIFIABLE"] })).status).toBe(200);
    const page = async (shop: Shop) => (await (await shop.asStaff(dataPath("/app/settings/alerts", ROUTE))).json()).settings.verdicts;
    expect(await page(before)).toEqual(EVERY_ALERT_CHOICE);
    expect(await page(unticked)).toEqual(["CONTRADICTED", "FAILED", "UNVERIFIABLE"]);

    for (const shop of [before, unticked]) {
      const { refund } = await verifiedRefund(shop, "14.00");
      shop.shop.payments.failPayout(refund.transactionIds[0], "FAILED");
      expect(await followMoney(shop, refund)).toMatchObject({ status: "CONTRADICTED" });
    }
    await alerts.passes();
    await alerts.passes();
    expect(alerts.mailsOf(before)).toHaveLength(1);
    expect(alerts.mailsOf(unticked)).toHaveLength(0);
    // Recorded all the same, for the digest.
    expect(await alerts.h.db.alertEvent.findMany({ where: { shop: unticked.domain }, select: { verdict: true, instantStatus: true } })).toEqual([
      { verdict: "PAYOUT_FAILED", instantStatus: "not_wanted" },
    ]);
    // Ticking it again turns them back on.
    expect((await saveSettings(unticked, { emailRecipients: "ops@shop.test", verdicts: EVERY_ALERT_CHOICE, revision: "1" })).status).toBe(200);
    expect(await page(unticked)).toEqual(EVERY_ALERT_CHOICE);
  });
});
