import { describe, expect, it } from "vitest";
import { digestSummary } from "../../app/alerts/digest.server";
import { requestBackfill } from "../../app/backfill/request.server";
import { REFUND_CREATED } from "../../app/contracts/registry.server";
import { formatInstant } from "../../app/lib/time/format";
import { dayIn } from "../../app/lib/time/days";
import type { FakeDispute } from "../../fake-shopify/disputes";
import { disputeWebhookBody, newDelivery } from "../../fake-shopify/webhooks";
import { EVERY_ALERT_CHOICE, newAlertsShop, saveAlertSettings, useAlertsHarness } from "../support/alerts";
import { TEST_APP } from "../support/credentials";
import { dataPath } from "../support/embedded";
import { backfillToEnd, refundGid } from "../support/verification";

// Alerts for money at risk twice (contract shopify.refund.exposure, decision 028), through the app
// against the fake Shopify: a VERIFIED refund whose order has a chargeback open or lost, or gave the
// customer more back than they paid, is one AlertEvent per refund and kind, ever, sent by email,
// Slack, the digest and Flow's "Refund on a disputed order" like the other alerts (issue 43).

const ROUTE = "routes/app.settings.alerts";
const DAY = 24 * 3600_000;
const DETAILS = "read_shopify_payments_disputes";
const ZONE = "America/New_York";

const alerts = useAlertsHarness("exposure-alerts.myshopify.com", { webhooks: true });

type Shop = Awaited<ReturnType<typeof newShop>>;

/** A shop of its own per test, in a known time zone. */
const newShop = (name: string) => newAlertsShop(alerts.h, name, { timeZone: ZONE });
const saveSettings = (shop: Shop, fields: Record<string, string | string[]>) => saveAlertSettings(shop.asStaff, fields);

/** A refund of `amount` on a new order of 100.00, delivered, VERIFIED, its exposure judged clear. */
async function verifiedRefund(shop: Shop, amount: string) {
  const order = shop.shop.createOrder({ amount: "100.00" });
  const refund = shop.shop.createRefund(order.id, { amount });
  expect((await shop.deliver(refund)).status).toBe(200);
  await alerts.h.settle();
  await alerts.h.worker.runExposures();
  const op = await alerts.h.db.operation.findFirstOrThrow({ where: { shop: shop.domain, refundGid: refundGid(refund.id) } });
  expect(op.status).toBe("VERIFIED");
  expect(await exposureOf(op.id)).toMatchObject({ status: "VERIFIED" });
  return { order, refund, op };
}

const exposureOf = (operationId: string) => alerts.h.db.exposure.findUniqueOrThrow({ where: { operationId } });

/** Shopify tells the app of the dispute (disputes/create or disputes/update), and the exposure pass reads the order again. */
async function disputeDelivered(shop: Shop, topic: "disputes/create" | "disputes/update", dispute: FakeDispute) {
  const response = await alerts.h.deliver(newDelivery(topic, shop.domain, disputeWebhookBody(shop.shop, dispute), alerts.h.clock.now()));
  expect(response.status).toBe(200);
  await alerts.h.worker.runExposures();
}

const flowCallsOf = (shop: Shop, from: number) => alerts.h.app.shopify.flow.calls.slice(from).filter((c) => c.shop === shop.domain);
/** The refund's day as the alert names it for its proof, in the shop's time zone. */
const madeOn = (at: Date) => new Intl.DateTimeFormat("en-GB", { timeZone: ZONE, day: "numeric", month: "short", year: "numeric" }).format(at);

const eventsOf = (shop: Shop) =>
  alerts.h.db.alertEvent.findMany({
    where: { shop: shop.domain },
    orderBy: [{ createdAt: "asc" }, { verdict: "asc" }],
    select: { operationId: true, verdict: true, instantStatus: true },
  });
const evidenceUrl = (shop: Shop, operationId: string) => `https://admin.shopify.com/store/${shop.name}/apps/${TEST_APP.apiKey}/refunds/${operationId}`;
const disputeGid = (dispute: FakeDispute) => `gid://shopify/ShopifyPaymentsDispute/${dispute.id}`;

describe("a chargeback on a refunded order", () => {
  it("is one email and one Slack message saying to answer it with the refund's proof by its due date, naming the order, the money at risk and the evidence, however many workers run the pass", async () => {
    const shop = await newShop("chargeback-open");
    expect((await saveSettings(shop, { emailRecipients: "ops@shop.test", slackUrl: alerts.slack.webhookUrl, verdicts: EVERY_ALERT_CHOICE })).status).toBe(200);
    shop.shop.grantedScopes.add(DETAILS);
    const { order, op } = await verifiedRefund(shop, "40.00");
    alerts.h.clock.ms += DAY;
    const dispute = shop.shop.createDispute(order.id, { amount: "100.00", reason: "CREDIT_NOT_PROCESSED" });
    await disputeDelivered(shop, "disputes/create", dispute);
    expect(await exposureOf(op.id)).toMatchObject({ status: "CONTRADICTED", reason: "dispute_says_credit_not_processed", atRisk: "100.00", currency: "USD" });

    // Two workers at once turn the exposure into its event, then two at once group and send it; more passes add nothing.
    await alerts.racedPasses();

    const due = formatInstant(dispute.evidenceDueBy!.toISOString(), ZONE);
    const mails = alerts.mailsOf(shop);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.subject).toBe(
      `Refund Verifier · chargeback-open: Chargeback open: answer the dispute with the refund's proof by ${due}, $100.00 on ${order.name}`,
    );
    expect(mail.text).toContain(`• Chargeback open: answer the dispute with the refund's proof by ${due}: $100.00 on ${order.name}`);
    expect(mail.text).toContain(
      `The customer disputes the charge on ${order.name} saying the refund never came, but you refunded $40.00 on it. Answer the dispute with this refund's proof: refunded $40.00 on ${madeOn(op.startedAt)} (the card reference is on the evidence page once Shopify shows it).`,
    );
    expect(mail.text).toContain(`Evidence: ${evidenceUrl(shop, op.id)}`);
    expect(mail.html).toContain(`href="${evidenceUrl(shop, op.id)}"`);
    const slackMessages = alerts.slackOf(shop);
    expect(slackMessages).toHaveLength(1);
    expect(slackMessages[0].body.text).toBe(mail.subject);
    expect(JSON.stringify(slackMessages[0].body)).toContain(evidenceUrl(shop, op.id));

    expect(await eventsOf(shop)).toEqual([{ operationId: op.id, verdict: "CHARGEBACK_OPEN", instantStatus: "grouped" }]);
    expect(JSON.parse((await exposureOf(op.id)).alertedReasons)).toEqual(["CHARGEBACK_OPEN"]);
  });

  it("opened, then lost: 'chargeback open' then 'paid twice', once each; the same state read again sends nothing new, a dispute won un-sends nothing", async () => {
    const shop = await newShop("chargeback-lost");
    await saveSettings(shop, { emailRecipients: "ops@shop.test", verdicts: EVERY_ALERT_CHOICE });
    const lost = await verifiedRefund(shop, "50.00");
    const won = await verifiedRefund(shop, "20.00");
    alerts.h.clock.ms += DAY;
    const [a, b] = [shop.shop.createDispute(lost.order.id, { amount: "100.00" }), shop.shop.createDispute(won.order.id, { amount: "100.00" })];
    await disputeDelivered(shop, "disputes/create", a);
    await disputeDelivered(shop, "disputes/create", b);
    await alerts.passes();
    await alerts.passes();
    // Without the disputes' details the money at stake is the refund's own, and no due date is known.
    expect(alerts.mailsOf(shop).map((m) => m.subject)).toEqual(["Refund Verifier · chargeback-lost: 2 refunds need a look ($70.00)"]);
    expect(alerts.mailsOf(shop)[0].text).toContain(`• Chargeback open: answer the dispute with the refund's proof: $50.00 on ${lost.order.name}`);
    expect(alerts.mailsOf(shop)[0].text).toContain(
      `A chargeback is open on ${lost.order.name}, which you refunded $50.00: if it is lost, the customer is paid twice. Answer it with this refund's proof: refunded $50.00 on ${madeOn(lost.op.startedAt)} (the card reference is on the evidence page once Shopify shows it).`,
    );

    alerts.h.clock.ms += 5 * DAY;
    shop.shop.updateDispute(a.id, { status: "LOST" });
    shop.shop.updateDispute(b.id, { status: "WON" });
    await disputeDelivered(shop, "disputes/update", shop.shop.disputes.get(a.id)!);
    await disputeDelivered(shop, "disputes/update", shop.shop.disputes.get(b.id)!);
    expect(await exposureOf(lost.op.id)).toMatchObject({ status: "CONTRADICTED", reason: "chargeback_lost_after_refund" });
    expect(await exposureOf(won.op.id)).toMatchObject({ status: "VERIFIED" });
    await alerts.passes();
    await alerts.passes();
    const mails = alerts.mailsOf(shop);
    expect(mails.map((m) => m.subject)).toEqual([expect.any(String), `Refund Verifier · chargeback-lost: Paid twice, $50.00 on ${lost.order.name}`]);
    expect(mails[1].text).toContain(
      `A chargeback on ${lost.order.name} was lost after you refunded $50.00 on it: the customer got $50.00 back twice, from you and from their bank.`,
    );

    // Read again every day for a week: the same judgement, nothing new.
    for (let day = 0; day < 7; day++) {
      alerts.h.clock.ms += DAY + 1000;
      await alerts.h.worker.runExposures();
      await alerts.passes();
    }
    expect(alerts.mailsOf(shop)).toHaveLength(2);
    expect((await eventsOf(shop)).map((e) => [e.operationId, e.verdict]).sort()).toEqual(
      [
        [lost.op.id, "CHARGEBACK_OPEN"],
        [lost.op.id, "PAID_TWICE"],
        [won.op.id, "CHARGEBACK_OPEN"],
      ].sort(),
    );
    expect(JSON.parse((await exposureOf(lost.op.id)).alertedReasons)).toEqual(["CHARGEBACK_OPEN", "PAID_TWICE"]);
    expect(JSON.parse((await exposureOf(won.op.id)).alertedReasons)).toEqual(["CHARGEBACK_OPEN"]);

    // The digest of the day the chargeback was lost counts it.
    const lostOn = dayIn((await exposureOf(lost.op.id)).decidedAt!, "UTC");
    const tomorrow = dayIn(new Date(Date.parse(`${lostOn}T12:00:00Z`) + DAY), "UTC");
    const summary = await digestSummary(alerts.h.db, REFUND_CREATED.contract, shop.domain, tomorrow, "UTC");
    expect(summary.atRiskTwice).toEqual([{ headline: "Paid twice", count: 1 }]);
  });
});

describe("the Flow trigger 'Refund on a disputed order'", () => {
  it("starts the shop's workflow once per refund, when a dispute first puts it at risk, with the amounts and the dispute's status; not again when it is lost; a shop without a workflow gets no call", async () => {
    const withFlow = await newShop("disputed-flow-on");
    const without = await newShop("disputed-flow-off");
    expect(await (await alerts.h.app.shopify.setFlowWorkflow(withFlow.domain, "refund-on-disputed-order", true)).text()).toBe("recorded");
    withFlow.shop.grantedScopes.add(DETAILS);
    const before = alerts.h.app.shopify.flow.calls.length;
    const ours = await verifiedRefund(withFlow, "25.50");
    const theirs = await verifiedRefund(without, "25.50");
    alerts.h.clock.ms += DAY;
    const dispute = withFlow.shop.createDispute(ours.order.id, { amount: "100.00", reason: "PRODUCT_NOT_RECEIVED" });
    await disputeDelivered(withFlow, "disputes/create", dispute);
    await disputeDelivered(without, "disputes/create", without.shop.createDispute(theirs.order.id, { amount: "100.00" }));
    await Promise.all([alerts.h.worker.runAlerts(), alerts.h.newWorker().runAlerts()]);
    await alerts.h.worker.runAlerts();

    const calls = flowCallsOf(withFlow, before);
    expect(calls.map((c) => [c.handle, c.ranWorkflows])).toEqual([["refund-on-disputed-order", true]]);
    expect(calls[0].payload).toEqual({
      order_id: ours.order.id.toString(),
      "order name": ours.order.name,
      reasons:
        "A chargeback was opened on this order after the refund. Answer it with this refund's proof before it is lost. | This order has an open chargeback: if it is lost, the customer is paid twice. Answer it with this refund's proof.",
      classes: "open chargeback",
      amount: "25.50",
      "currency code": "USD",
      "amount at risk": "100.00",
      "at risk currency code": "USD",
      "dispute id": disputeGid(dispute),
      "dispute status": "NEEDS_RESPONSE",
      "dispute reason": "PRODUCT_NOT_RECEIVED",
      "evidence due by": dispute.evidenceDueBy!.toISOString(),
      "refund id": refundGid(ours.refund.id),
      origin: "webhook",
      "evidence url": evidenceUrl(withFlow, ours.op.id),
    });
    expect(flowCallsOf(without, before)).toEqual([]);

    // Lost: the shop hears 'paid twice' by its channels, but the workflow started once for this refund.
    alerts.h.clock.ms += DAY;
    withFlow.shop.updateDispute(dispute.id, { status: "LOST" });
    await disputeDelivered(withFlow, "disputes/update", withFlow.shop.disputes.get(dispute.id)!);
    await alerts.passes();
    await alerts.h.newWorker().runAlerts();
    expect((await eventsOf(withFlow)).map((e) => e.verdict)).toEqual(["CHARGEBACK_OPEN", "PAID_TWICE"]);
    expect(flowCallsOf(withFlow, before)).toHaveLength(1);
    const log = await alerts.h.db.alertDelivery.findMany({ where: { shop: withFlow.domain, channel: "flow" } });
    expect(log.map((d) => [d.target, d.status, d.subject])).toEqual([
      ["refund-on-disputed-order", "delivered", `Refund on a disputed order: $100.00 on ${ours.order.name}`],
    ]);
    const page = await (await withFlow.asStaff(dataPath("/app/settings/alerts", ROUTE))).json();
    expect(page.flowTriggers).toContainEqual(
      expect.objectContaining({ handle: "refund-on-disputed-order", name: "Refund on a disputed order", enabled: true }),
    );
  });
});

describe("more back than was paid", () => {
  it("store credit, then cash past what was paid: the refund that took the order past it is one 'more back than paid' alert (two classes, one kind), the store credit before it none; no Flow call without a dispute", async () => {
    const shop = await newShop("more-back");
    await saveSettings(shop, { emailRecipients: "ops@shop.test", verdicts: EVERY_ALERT_CHOICE });
    await alerts.h.app.shopify.setFlowWorkflow(shop.domain, "refund-on-disputed-order", true);
    const before = alerts.h.app.shopify.flow.calls.length;
    const order = shop.shop.createOrder({ amount: "60.00" });
    const credit = shop.shop.createRefund(order.id, { storeCredit: "60.00" });
    alerts.h.clock.ms += 2 * DAY;
    const cash = shop.shop.createRefund(order.id, { amount: "60.00" });
    for (const refund of [credit, cash]) expect((await shop.deliver(refund)).status).toBe(200);
    await alerts.h.settle();
    await alerts.h.worker.runExposures();
    const cashOp = await alerts.h.db.operation.findFirstOrThrow({ where: { shop: shop.domain, refundGid: refundGid(cash.id) } });
    expect(await exposureOf(cashOp.id)).toMatchObject({ status: "CONTRADICTED", classes: JSON.stringify(["more back than paid", "store credit and cash"]) });
    await alerts.passes();
    await alerts.passes();

    const events = await eventsOf(shop);
    expect(events.map((e) => [e.verdict, e.operationId])).toEqual([["MORE_BACK_THAN_PAID", cashOp.id]]);
    const mails = alerts.mailsOf(shop);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(`• More back than paid: $60.00 on ${order.name}`);
    expect(mails[0].text).toContain(`${order.name} was refunded to store credit and to the customer's payment: together, $60.00 more than the customer paid.`);
    expect(flowCallsOf(shop, before)).toEqual([]);
  });
});

describe("the alert settings", () => {
  it("'Money at risk twice' is a choice of its own: on for a shop that saved before it existed, off once unticked, whatever Contradicted says", async () => {
    const before = await newShop("twice-default");
    const unticked = await newShop("twice-unticked");
    const onlyTwice = await newShop("twice-only");
    // As a row saved before "Money at risk twice" was a choice holds it.
    await alerts.h.db.alertSettings.create({
      data: { shop: before.domain, emailRecipients: "ops@shop.test", verdicts: "CONTRADICTED,FAILED,UNVERIFIABLE,MONEY", revision: 1 },
    });
    expect((await saveSettings(unticked, { emailRecipients: "ops@shop.test", verdicts: ["CONTRADICTED", "FAILED", "UNVERIFIABLE", "MONEY"] })).status).toBe(
      200,
    );
    expect((await saveSettings(onlyTwice, { emailRecipients: "ops@shop.test", verdicts: ["AT_RISK_TWICE"] })).status).toBe(200);
    const page = async (shop: Shop) => (await (await shop.asStaff(dataPath("/app/settings/alerts", ROUTE))).json()).settings.verdicts;
    expect(await page(before)).toEqual(EVERY_ALERT_CHOICE);
    expect(await page(unticked)).toEqual(["CONTRADICTED", "FAILED", "UNVERIFIABLE", "MONEY"]);
    expect(await page(onlyTwice)).toEqual(["AT_RISK_TWICE"]);

    for (const shop of [before, unticked, onlyTwice]) {
      const { order } = await verifiedRefund(shop, "14.00");
      alerts.h.clock.ms += DAY;
      await disputeDelivered(shop, "disputes/create", shop.shop.createDispute(order.id, { amount: "100.00" }));
    }
    await alerts.passes();
    await alerts.passes();
    expect(alerts.mailsOf(before)).toHaveLength(1);
    expect(alerts.mailsOf(onlyTwice)).toHaveLength(1);
    expect(alerts.mailsOf(unticked)).toHaveLength(0);
    // Recorded all the same, for the digest.
    expect((await eventsOf(unticked)).map((e) => [e.verdict, e.instantStatus])).toEqual([["CHARGEBACK_OPEN", "not_wanted"]]);
  });
});

describe("refunds of the shop's history", () => {
  it("a chargeback open on one is news (it has a due date ahead); one lost before the app first read the order is the digest's; one lost later is news", async () => {
    const shop = await newShop("twice-history");
    await saveSettings(shop, { emailRecipients: "ops@shop.test", verdicts: EVERY_ALERT_CHOICE });
    const history = [20, 15, 10].map((daysAgo, i) => {
      const order = shop.shop.createOrder({ amount: "100.00", createdAt: new Date(alerts.h.clock.ms - (daysAgo + 1) * DAY) });
      const refund = shop.shop.createRefund(order.id, { amount: `${30 + i}.00`, createdAt: new Date(alerts.h.clock.ms - daysAgo * DAY) });
      return { order, refund };
    });
    shop.shop.createDispute(history[0].order.id, { amount: "100.00" });
    shop.shop.createDispute(history[1].order.id, { amount: "100.00", status: "LOST" });
    await requestBackfill(alerts.h.db, shop.domain, 60, "dashboard", alerts.h.clock.now());
    expect(await backfillToEnd(alerts.h, shop.domain)).toMatchObject({ state: "done" });
    const ops = await alerts.h.db.operation.findMany({ where: { shop: shop.domain }, orderBy: { amount: "asc" } });
    expect(ops.map((op) => [op.amount, op.status, op.origin])).toEqual(history.map((_, i) => [`${30 + i}.00`, "VERIFIED", "backfill"]));
    await alerts.h.worker.runExposures();
    await alerts.passes();
    await alerts.passes();
    expect((await eventsOf(shop)).map((e) => [e.operationId, e.verdict, e.instantStatus]).sort()).toEqual(
      [
        [ops[0].id, "CHARGEBACK_OPEN", "grouped"],
        [ops[1].id, "PAID_TWICE", "not_wanted"],
      ].sort(),
    );
    expect(alerts.mailsOf(shop).map((m) => m.subject)).toEqual([
      `Refund Verifier · twice-history: Chargeback open: answer the dispute with the refund's proof, $30.00 on ${history[0].order.name}`,
    ]);

    // Days later a chargeback on the third is lost: news.
    alerts.h.clock.ms += 3 * DAY;
    await disputeDelivered(shop, "disputes/create", shop.shop.createDispute(history[2].order.id, { amount: "100.00", status: "LOST" }));
    await alerts.passes();
    await alerts.passes();
    expect(alerts.mailsOf(shop).map((m) => m.subject)).toEqual([
      expect.any(String),
      `Refund Verifier · twice-history: Paid twice, $32.00 on ${history[2].order.name}`,
    ]);
  });
});
