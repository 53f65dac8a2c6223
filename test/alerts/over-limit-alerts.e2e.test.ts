import { describe, expect, it } from "vitest";
import { digestSummary } from "../../app/alerts/digest.server";
import { digestMessage } from "../../app/alerts/messages";
import { REFUND_CREATED } from "../../app/contracts/registry.server";
import { dayIn } from "../../app/lib/time/days";
import { newDelivery, refundWebhookBody } from "../../fake-shopify/webhooks";
import { EVERY_ALERT_CHOICE, saveAlertSettings, useAlertsHarness } from "../support/alerts";
import { TEST_APP } from "../support/credentials";
import { dataPath, embeddedFetch } from "../support/embedded";
import { installShop } from "../support/sessions";
import { refundGid } from "../support/verification";

// Issue 44, "People": a refund made outside the app (Shopify admin, POS, another app) cannot be
// stopped; one that went over the shop's limits becomes a LimitBreach once verified (decision 030),
// and the shop hears of it as of any alert: an instant alert and the digest, with the limit in words
// and who made it, through its alert settings ("Refunds over a limit").

const OWNER = "42";
const CLERK = "55"; // Rene Ortiz, who opened the app once
const STRANGER = "56"; // refunds in the admin, never opened the app
const ZONE = "UTC";
const DAY = 24 * 3600_000;
const LIMITS_PATH = dataPath("/app/settings/limits", "routes/app.settings.limits");

const alerts = useAlertsHarness("over-limit-alerts.myshopify.com");

type Shop = Awaited<ReturnType<typeof newShop>>;

/** A shop of its own per test whose limits are $100.00 a refund and $150.00 a day per staff member. */
async function newShop(name: string) {
  const domain = `${name}.myshopify.com`;
  await installShop(alerts.h.db, alerts.h.app.shopify, domain);
  await alerts.h.db.shopState.upsert({ where: { shop: domain }, create: { shop: domain, ianaTimezone: ZONE }, update: { ianaTimezone: ZONE } });
  alerts.h.app.shopify.addStaff(domain, { id: CLERK, firstName: "Rene", lastName: "Ortiz" });
  const as = (userId: string) => embeddedFetch(alerts.h.app.url, domain, userId);
  expect((await as(CLERK)(LIMITS_PATH)).status).toBe(200);
  const page = await (await as(OWNER)(LIMITS_PATH)).json();
  const limits = new URLSearchParams({ revision: String(page.revision), people: "", perRefund: "100", dailyPerStaff: "150" });
  expect((await as(OWNER)(LIMITS_PATH, { method: "POST", body: limits })).status).toBe(200);
  return { name, domain, shop: alerts.h.app.shopify.shop(domain), as };
}

/** A refund of `amount` made in Shopify admin by `staffUserId` (none: an app), delivered by its webhook and verified. */
async function refundMadeInAdmin(shop: Shop, amount: string, staffUserId?: string) {
  const order = shop.shop.createOrder({ amount: "5000.00" });
  const refund = shop.shop.createRefund(order.id, { amount, ...(staffUserId ? { staffUserId } : {}) });
  expect((await alerts.h.deliver(newDelivery("refunds/create", shop.domain, refundWebhookBody(shop.shop, refund), alerts.h.clock.now()))).status).toBe(200);
  await alerts.h.settle();
  await alerts.h.worker.runOnce();
  const op = await alerts.h.db.operation.findFirstOrThrow({ where: { shop: shop.domain, refundGid: refundGid(refund.id) }, include: { limitBreach: true } });
  expect(op.status).toBe("VERIFIED");
  return { order, op };
}

const eventsOf = (shop: Shop) =>
  alerts.h.db.alertEvent.findMany({
    where: { shop: shop.domain },
    orderBy: { createdAt: "asc" },
    select: { operationId: true, verdict: true, instantStatus: true },
  });
const evidenceUrl = (shop: Shop, operationId: string) => `https://admin.shopify.com/store/${shop.name}/apps/${TEST_APP.apiKey}/refunds/${operationId}`;

describe("a refund made outside the app over a limit", () => {
  it("is one email and one Slack message naming who made it and the limits in words, with the evidence link, however many workers run the passes; the digest of its day lists it", async () => {
    const shop = await newShop("over-limit");
    expect(
      (await saveAlertSettings(shop.as(OWNER), { emailRecipients: "ops@shop.test", slackUrl: alerts.slack.webhookUrl, verdicts: EVERY_ALERT_CHOICE })).status,
    ).toBe(200);
    const { order, op } = await refundMadeInAdmin(shop, "180.00", CLERK);
    expect(op.limitBreach).toMatchObject({ staffUserId: CLERK });

    await Promise.all([alerts.h.worker.runAlerts(), alerts.h.newWorker().runAlerts()]);
    alerts.h.clock.advance(31_000);
    await Promise.all([alerts.h.worker.runAlerts(), alerts.h.newWorker().runAlerts()]);
    await alerts.passes();
    await alerts.h.newWorker().runOnce();

    const sentence = `Rene Ortiz refunded $180.00 on ${order.name} outside the app (Shopify admin, POS or another app), where nothing could stop it. $180.00 is over the shop's limit of $100.00 per refund; and $180.00 would bring Rene Ortiz's refunds in 24 hours to $180.00, over the shop's limit of $150.00 a day per staff member.`;
    const mails = alerts.mailsOf(shop);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Refund Verifier · over-limit: Refund over a limit, $180.00 on ${order.name}`);
    expect(mails[0].text).toContain(`• Refund over a limit: $180.00 on ${order.name}`);
    expect(mails[0].text).toContain(sentence);
    expect(mails[0].text).toContain(`Evidence: ${evidenceUrl(shop, op.id)}`);
    const posted = alerts.slackOf(shop);
    expect(posted).toHaveLength(1);
    expect(posted[0].body.text).toBe(mails[0].subject);
    expect(JSON.stringify(posted[0].body)).toContain("Rene Ortiz refunded $180.00");
    expect(await eventsOf(shop)).toEqual([{ operationId: op.id, verdict: "OVER_LIMIT", instantStatus: "grouped" }]);

    // The morning after: the digest names it, with its limits in words.
    const day = dayIn(op.limitBreach!.createdAt, ZONE);
    const summary = await digestSummary(alerts.h.db, REFUND_CREATED.contract, shop.domain, dayIn(new Date(Date.parse(`${day}T12:00:00Z`) + DAY), ZONE), ZONE);
    const digest = digestMessage(summary, ZONE).text;
    expect(digest).toContain("Refunds over a limit made outside the app: 1.");
    expect(digest).toContain(`Over a limit: ${sentence}`);
  });

  it("made by a staff member who never opened the app, or by no person (an app): said so, the shop's per-refund limit in words", async () => {
    const shop = await newShop("over-limit-who");
    await saveAlertSettings(shop.as(OWNER), { emailRecipients: "ops@shop.test", verdicts: EVERY_ALERT_CHOICE });
    const stranger = await refundMadeInAdmin(shop, "120.00", STRANGER);
    const nobody = await refundMadeInAdmin(shop, "130.00");
    await alerts.passes();
    await alerts.passes();
    const text = alerts
      .mailsOf(shop)
      .map((m) => m.text)
      .join("\n");
    expect(text).toContain(
      `Staff member 56 refunded $120.00 on ${stranger.order.name} outside the app (Shopify admin, POS or another app), where nothing could stop it. $120.00 is over the shop's limit of $100.00 per refund.`,
    );
    expect(text).toContain(
      `$130.00 was refunded on ${nobody.order.name} outside the app, by no staff member Shopify named (an app or an automation), where nothing could stop it. $130.00 is over the shop's limit of $100.00 per refund.`,
    );
  });
});

describe("the alert settings", () => {
  it("'Refunds over a limit' is a choice of its own: on for a shop that saved before it existed, off once unticked (kept for the digest)", async () => {
    const before = await newShop("over-limit-default");
    const unticked = await newShop("over-limit-unticked");
    const only = await newShop("over-limit-only");
    // As a row saved before "Refunds over a limit" was a choice holds it.
    await alerts.h.db.alertSettings.create({
      data: { shop: before.domain, emailRecipients: "ops@shop.test", verdicts: "CONTRADICTED,FAILED,UNVERIFIABLE,MONEY,AT_RISK_TWICE", revision: 1 },
    });
    expect(
      (await saveAlertSettings(unticked.as(OWNER), { emailRecipients: "ops@shop.test", verdicts: EVERY_ALERT_CHOICE.filter((c) => c !== "OVER_LIMIT") }))
        .status,
    ).toBe(200);
    expect((await saveAlertSettings(only.as(OWNER), { emailRecipients: "ops@shop.test", verdicts: ["OVER_LIMIT"] })).status).toBe(200);
    const chosen = async (shop: Shop) =>
      (await (await shop.as(OWNER)(dataPath("/app/settings/alerts", "routes/app.settings.alerts"))).json()).settings.verdicts;
    expect(await chosen(before)).toEqual(EVERY_ALERT_CHOICE);
    expect(await chosen(unticked)).toEqual(EVERY_ALERT_CHOICE.filter((c) => c !== "OVER_LIMIT"));
    expect(await chosen(only)).toEqual(["OVER_LIMIT"]);

    for (const shop of [before, unticked, only]) await refundMadeInAdmin(shop, "140.00", CLERK);
    await alerts.passes();
    await alerts.passes();
    expect(alerts.mailsOf(before)).toHaveLength(1);
    expect(alerts.mailsOf(only)).toHaveLength(1);
    expect(alerts.mailsOf(unticked)).toHaveLength(0);
    expect((await eventsOf(unticked)).map((e) => [e.verdict, e.instantStatus])).toEqual([["OVER_LIMIT", "not_wanted"]]);
  });
});
