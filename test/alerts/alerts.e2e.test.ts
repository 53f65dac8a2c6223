import { openSecret } from "../../app/lib/crypto/secret-box.server";
import { slackUrlBoundTo } from "../../app/alerts/settings-view";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { processDue } from "../../app/verification/runtime.server";
import { openDeliveredRefunds } from "../../app/verification/intake.server";
import { REFUND_CREATED } from "../../app/contracts/registry.server";
import { dayIn, startOfDay } from "../../app/lib/time/days";
import { dataPath, embeddedFetch } from "../support/embedded";
import { installShop, sealedAsV1 } from "../support/sessions";
import { refundGid } from "../support/verification";
import { saveAlertSettings, useAlertsHarness } from "../support/alerts";
import { newDelivery, refundWebhookBody, signBody } from "../../fake-shopify/webhooks";
import { TEST_APP } from "../support/credentials";
import { reloadConfig } from "../../app/lib/config/env.server";

const ROUTE = "routes/app.settings.alerts";

const alerts = useAlertsHarness("alerts-shop.myshopify.com", { env: { ALERTS_FROM: "Refund Verifier <alerts@verifier.test>" } });

/** A shop of its own per test, installed, so that settings and workflows do not leak between tests. */
async function newShop(name: string) {
  const domain = `${name}.myshopify.com`;
  await installShop(alerts.h.db, alerts.h.app.shopify, domain);
  const shop = alerts.h.app.shopify.shop(domain);
  const deliver = (refund: Parameters<typeof refundWebhookBody>[1]) => alerts.h.deliver(newDelivery("refunds/create", domain, refundWebhookBody(shop, refund)));
  return { domain, shop, deliver, asStaff: embeddedFetch(alerts.h.app.url, domain) };
}

/** A refund and `count` more of the same amount on its order inside the window: the first VERIFIED, the `count` after it CONTRADICTED as its duplicates. */
async function duplicates(shop: Awaited<ReturnType<typeof newShop>>, count: number, amount = "10.00") {
  const order = shop.shop.createOrder({ amount: "10000.00" });
  const [original, ...refunds] = Array.from({ length: count + 1 }, () => shop.shop.createRefund(order.id, { amount }));
  for (const refund of [original, ...refunds]) expect((await shop.deliver(refund)).status).toBe(200);
  return { order, original, refunds };
}

describe("Shopify Flow triggers", () => {
  it("a CONTRADICTED verdict in a shop with an enabled workflow makes exactly one flowTriggerReceive with the documented payload; none in a shop without one", async () => {
    const withFlow = await newShop("flow-on");
    const without = await newShop("flow-off");
    alerts.h.app.shopify.webhookTarget = { appUrl: alerts.h.app.url };
    expect((await alerts.h.app.shopify.setFlowWorkflow(withFlow.domain, "refund-contradicted", true)).status).toBe(200);
    const before = alerts.h.app.shopify.flow.calls.length;
    const { order, refunds } = await duplicates(withFlow, 2, "12.50");
    await duplicates(without, 2);
    await alerts.h.settle();
    await alerts.h.worker.runOnce();
    await alerts.h.worker.runOnce();

    const calls = alerts.h.app.shopify.flow.calls.slice(before);
    expect(calls.map((c) => c.shop)).toEqual([withFlow.domain, withFlow.domain]);
    const op = await alerts.h.db.operation.findFirstOrThrow({ where: { shop: withFlow.domain, refundGid: refundGid(refunds[0].id) } });
    const call = calls.find((c) => c.payload["refund id"] === refundGid(refunds[0].id))!;
    expect(call).toMatchObject({ handle: "refund-contradicted", ranWorkflows: true });
    expect(call.payload).toEqual({
      order_id: order.id.toString(),
      "order name": order.name,
      verdict: "Contradicted",
      // Which refund it repeats, as the e-mail says (the pair was made within a second).
      reasons: expect.stringMatching(
        new RegExp(`^Made (in the same second as|1 second after) another refund of \\$12\\.50 on ${order.name}\\. Do not retry\\.$`),
      ),
      classes: "duplicate side effect",
      amount: "12.50",
      "currency code": "USD",
      "refund id": refundGid(refunds[0].id),
      origin: "webhook",
      "evidence url": `https://admin.shopify.com/store/flow-on/apps/${TEST_APP.apiKey}/refunds/${op.id}`,
    });
    // Sent once: more passes, another worker, and the delivery log says delivered.
    await alerts.h.newWorker().runOnce();
    expect(alerts.h.app.shopify.flow.calls.slice(before)).toHaveLength(2);
    const log = await alerts.h.db.alertDelivery.findMany({ where: { shop: withFlow.domain, channel: "flow" } });
    expect(log.map((d) => d.status)).toEqual(["delivered", "delivered"]);
  });

  it("a workflow turned off stops the calls; an older callback does not undo a newer one", async () => {
    const shop = await newShop("flow-toggle");
    alerts.h.app.shopify.webhookTarget = { appUrl: alerts.h.app.url };
    await alerts.h.app.shopify.setFlowWorkflow(shop.domain, "refund-contradicted", true);
    alerts.h.clock.advance(1_000); // the merchant turns it off a second later (Flow stamps each callback)
    await alerts.h.app.shopify.setFlowWorkflow(shop.domain, "refund-contradicted", false);
    const older = JSON.stringify({
      flow_trigger_definition_id: "refund-contradicted",
      has_enabled_flow: true,
      shop_id: 1,
      shopify_domain: shop.domain,
      timestamp: "2020-01-01T00:00:00Z",
    });
    const stale = await fetch(`${alerts.h.app.url}/flow/trigger-lifecycle`, {
      method: "POST",
      headers: { "X-Shopify-Hmac-Sha256": signBody(older, TEST_APP.secret) },
      body: older,
    });
    expect([stale.status, await stale.text()]).toEqual([200, "stale"]);
    const before = alerts.h.app.shopify.flow.calls.length;
    await duplicates(shop, 2);
    await alerts.h.settle();
    await alerts.h.worker.runOnce();
    expect(alerts.h.app.shopify.flow.calls.length).toBe(before);
  });

  it("refuses a lifecycle callback with a bad signature (401) and stores nothing; a malformed one is a 400; a trigger it does not know is acknowledged, not stored", async () => {
    const shop = await newShop("flow-forged");
    const body = JSON.stringify({
      flow_trigger_definition_id: "refund-contradicted",
      has_enabled_flow: true,
      shop_id: 1,
      shopify_domain: shop.domain,
      timestamp: new Date().toISOString(),
    });
    const post = (text: string, hmac: string) =>
      fetch(`${alerts.h.app.url}/flow/trigger-lifecycle`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Shopify-Hmac-Sha256": hmac },
        body: text,
      });
    expect((await post(body, signBody(body, "not-the-app-secret"))).status).toBe(401);
    expect((await post(body, "")).status).toBe(401);
    expect((await post(`${body} `, signBody(body, TEST_APP.secret))).status).toBe(401);
    expect(await alerts.h.db.flowTriggerUsage.count({ where: { shop: shop.domain } })).toBe(0);
    const notJson = "{not json";
    expect((await post(notJson, signBody(notJson, TEST_APP.secret))).status).toBe(400);
    const wrongShape = JSON.stringify({ has_enabled_flow: "yes" });
    const refused = await post(wrongShape, signBody(wrongShape, TEST_APP.secret));
    expect([refused.status, await refused.text()]).toEqual([400, expect.stringContaining("flow_trigger_definition_id")]);
    const unknown = body.replace('"refund-contradicted"', '"Refund created"');
    const acknowledged = await post(unknown, signBody(unknown, TEST_APP.secret));
    expect([acknowledged.status, await acknowledged.text()]).toEqual([200, "unknown_trigger"]);
    expect(await alerts.h.db.flowTriggerUsage.count({ where: { shop: shop.domain } })).toBe(0);
    // Flow may call before the merchant's first visit stored a session (managed install): kept, so the workflow can be turned on.
    const early = body.replace(shop.domain, "not-opened-yet.myshopify.com");
    expect((await post(early, signBody(early, TEST_APP.secret))).status).toBe(200);
    expect(await alerts.h.db.flowTriggerUsage.count({ where: { shop: "not-opened-yet.myshopify.com" } })).toBe(1);
    expect((await post(body, signBody(body, TEST_APP.secret))).status).toBe(200);
    expect(await alerts.h.db.flowTriggerUsage.findMany({ where: { shop: shop.domain } })).toMatchObject([
      { definitionId: "refund-contradicted", enabled: true },
    ]);
  });

  it("Flow refusing the payload (userErrors) is recorded as not delivered, with Flow's words, and never sent again", async () => {
    const shop = await newShop("flow-refused");
    alerts.h.app.shopify.webhookTarget = { appUrl: alerts.h.app.url };
    await alerts.h.app.shopify.setFlowWorkflow(shop.domain, "refund-failed-at-gateway", true);
    const trigger = alerts.h.app.shopify.flow.triggers.find((t) => t.handle === "refund-failed-at-gateway")!;
    const fields = trigger.fields;
    trigger.fields = fields.filter((f) => f.key !== "origin");
    try {
      const order = shop.shop.createOrder({ amount: "50.00" });
      const refund = shop.shop.createRefund(order.id, { amount: "20.00", status: "FAILURE" });
      await shop.deliver(refund);
      await alerts.h.settle();
      await alerts.h.worker.runOnce();
      await alerts.h.worker.runOnce();
      const [delivery] = await alerts.h.db.alertDelivery.findMany({ where: { shop: shop.domain, channel: "flow" } });
      expect(delivery).toMatchObject({ status: "failed", attempts: 1, error: "Flow refused the trigger: Unknown field: origin" });
    } finally {
      trigger.fields = fields;
    }
  });
});

describe("email and Slack alerts", () => {
  it("refuses a Slack URL that is not Slack's and an invalid email address, with words on the field; nothing is saved", async () => {
    const shop = await newShop("bad-settings");
    const response = await saveAlertSettings(shop.asStaff, {
      emailRecipients: "ops@shop.test, not-an-address",
      slackUrl: "https://hooks.evil.example/services/T/B/x",
      verdicts: ["CONTRADICTED"],
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { fieldErrors: Record<string, string> };
    expect(body.fieldErrors.emailRecipients).toBe("Not an email address: not-an-address.");
    expect(body.fieldErrors.slackUrl).toContain(`starts with ${alerts.slack.origin}/services/`);
    expect(await alerts.h.db.alertSettings.count({ where: { shop: shop.domain } })).toBe(0);
  });

  it("stores the Slack URL sealed, shows only its last four characters, and a stale form is a 409", async () => {
    const shop = await newShop("sealed-slack");
    expect(
      (await saveAlertSettings(shop.asStaff, { emailRecipients: "ops@shop.test", slackUrl: alerts.slack.webhookUrl, verdicts: ["CONTRADICTED"] })).status,
    ).toBe(200);
    const row = await alerts.h.db.alertSettings.findUniqueOrThrow({ where: { shop: shop.domain } });
    expect(JSON.stringify(row)).not.toContain("abcdefghijklmnopqrstuvwx");
    expect(row.slackUrlSealed).toMatch(/^v2:/);
    const page = await shop.asStaff(dataPath("/app/settings/alerts", ROUTE));
    const text = await page.text();
    expect(text).not.toContain("abcdefghijklmnopqrstuvwx");
    expect(JSON.parse(text).settings).toMatchObject({
      slackConfigured: true,
      slackHint: expect.stringMatching(/…uvwx$/),
      emailRecipients: ["ops@shop.test"],
      revision: 1,
    });
    const stale = await saveAlertSettings(shop.asStaff, { emailRecipients: "someone@shop.test", verdicts: ["FAILED"] });
    expect(stale.status).toBe(409);
    expect((await alerts.h.db.alertSettings.findUniqueOrThrow({ where: { shop: shop.domain } })).emailRecipients).toBe("ops@shop.test");
  });

  it("a Slack URL copied from one shop's settings row into another's sends that shop nothing: it is sealed for its own shop", async () => {
    const owner = await newShop("slack-owner");
    const other = await newShop("slack-copied");
    expect(
      (await saveAlertSettings(owner.asStaff, { emailRecipients: "ops@shop.test", slackUrl: alerts.slack.webhookUrl, verdicts: ["CONTRADICTED"] })).status,
    ).toBe(200);
    expect((await saveAlertSettings(other.asStaff, { emailRecipients: "ops@other.test", verdicts: ["CONTRADICTED"] })).status).toBe(200);
    // Someone with write access to the database copies the owner's sealed URL into the other shop's row.
    const sealed = await alerts.h.db.alertSettings.findUniqueOrThrow({ where: { shop: owner.domain } });
    await alerts.h.db.alertSettings.update({
      where: { shop: other.domain },
      data: { slackUrlSealed: sealed.slackUrlSealed, slackUrlHint: sealed.slackUrlHint },
    });
    await duplicates(other, 1);
    await alerts.h.settle();
    alerts.h.clock.advance(31_000);
    await alerts.h.worker.runAlerts();
    await alerts.h.worker.runAlerts();
    expect(alerts.slack.messages).toHaveLength(0);
    const log = await (await other.asStaff(dataPath("/app/settings/alerts", ROUTE))).json();
    const slackDelivery = log.deliveries.find((d: { channel: string }) => d.channel === "slack");
    expect(slackDelivery).toMatchObject({ status: "failed", error: expect.stringContaining("cannot be read") });
  });

  it("a Slack URL sealed before secrets were bound to their row (v1) still sends, and is sealed again, bound, at its first send", async () => {
    const shop = await newShop("slack-v1");
    expect(
      (await saveAlertSettings(shop.asStaff, { emailRecipients: "ops@shop.test", slackUrl: alerts.slack.webhookUrl, verdicts: ["CONTRADICTED"] })).status,
    ).toBe(200);
    const legacy = sealedAsV1(alerts.slack.webhookUrl, alerts.secretKey);
    await alerts.h.db.alertSettings.update({ where: { shop: shop.domain }, data: { slackUrlSealed: legacy } });
    await duplicates(shop, 1);
    await alerts.h.settle();
    alerts.h.clock.advance(31_000);
    await alerts.h.worker.runAlerts();
    expect(alerts.slack.messages).toHaveLength(1);
    const row = await alerts.h.db.alertSettings.findUniqueOrThrow({ where: { shop: shop.domain } });
    expect(row.slackUrlSealed).toMatch(/^v2:/);
    expect(openSecret(row.slackUrlSealed!, alerts.secretKey, slackUrlBoundTo(shop.domain))).toBe(alerts.slack.webhookUrl);
  });

  it("50 duplicates decided together are one email and one Slack message, with amounts, orders and evidence links", async () => {
    const shop = await newShop("burst");
    expect(
      (
        await saveAlertSettings(shop.asStaff, {
          emailRecipients: "ops@shop.test, Owner@Shop.test",
          slackUrl: alerts.slack.webhookUrl,
          verdicts: ["CONTRADICTED", "FAILED", "UNVERIFIABLE"],
        })
      ).status,
    ).toBe(200);
    const { order } = await duplicates(shop, 50, "1.25");
    await alerts.h.settle();
    expect(await alerts.h.db.operation.count({ where: { shop: shop.domain, status: "CONTRADICTED" } })).toBe(50);
    // The group waits for 30 s without a new verdict before it is sent.
    expect(alerts.mailbox.messages).toHaveLength(0);
    alerts.h.clock.advance(31_000);
    await alerts.h.worker.runAlerts();
    await alerts.h.worker.runAlerts();
    await alerts.h.newWorker().runAlerts();

    expect(alerts.mailbox.messages).toHaveLength(1);
    expect(alerts.mailbox.recipients[0].sort()).toEqual(["ops@shop.test", "owner@shop.test"]);
    const mail = alerts.mailbox.messages[0];
    expect(mail.subject).toBe("Refund Verifier · burst: 50 refunds need a look ($62.50)");
    expect(mail.from?.text).toContain("alerts@verifier.test");
    expect(mail.text).toContain("50 refunds in burst need a person: 50 × duplicate refund. Amount: $62.50.");
    expect(mail.text).toContain(`Duplicate refund: $1.25 on ${order.name}`);
    expect(mail.text).toContain("…and 30 more in the review queue");
    expect(mail.html).toMatch(/href="https:\/\/admin\.shopify\.com\/store\/burst\/apps\/[^/]+\/refunds\/[0-9a-f-]+"/);
    expect(alerts.slack.messages).toHaveLength(1);
    expect(alerts.slack.messages[0].body.text).toBe(mail.subject);
    const log = await (await shop.asStaff(dataPath("/app/settings/alerts", ROUTE))).json();
    expect(log.deliveries.map((d: { channel: string; status: string; eventCount: number }) => [d.channel, d.status, d.eventCount]).sort()).toEqual([
      ["email", "delivered", 50],
      ["slack", "delivered", 50],
    ]);
  });

  it("a wrong amount's email and Slack message say both amounts, in the evidence page's own sentence", async () => {
    const shop = await newShop("wrong-amount-words");
    expect(
      (await saveAlertSettings(shop.asStaff, { emailRecipients: "ops@shop.test", slackUrl: alerts.slack.webhookUrl, verdicts: ["CONTRADICTED"] })).status,
    ).toBe(200);
    const order = shop.shop.createOrder({ amount: "50.00" });
    expect((await shop.deliver(shop.shop.createRefund(order.id, { amount: "20.57", recordedAmount: "21.00" }))).status).toBe(200);
    await alerts.h.settle();
    alerts.h.clock.advance(31_000);
    await alerts.h.worker.runAlerts();
    await alerts.h.worker.runAlerts();
    const op = await alerts.h.db.operation.findFirstOrThrow({ where: { shop: shop.domain, status: "CONTRADICTED" } });
    const page = await (await shop.asStaff(dataPath(`/app/refunds/${op.id}`, "routes/app.refunds.$id"))).json();
    const sentence = "Shopify recorded $21.00; the refund asked for $20.57 ($0.43 more).";
    expect(page.lead.sentence).toBe(sentence);
    expect(alerts.mailbox.messages).toHaveLength(1);
    expect(alerts.mailbox.messages[0].text).toContain(sentence);
    expect(alerts.mailbox.messages[0].text).not.toMatch(/provider|since the operation/);
    expect(JSON.stringify(alerts.slack.messages[0].body)).toContain(sentence);
  });

  it("an unreachable mail server and a Slack 503 are tried again later; a Slack 404 is not delivered, with why, and a person can send it again", async () => {
    const shop = await newShop("faults");
    await saveAlertSettings(shop.asStaff, { emailRecipients: "ops@shop.test", slackUrl: alerts.slack.webhookUrl, verdicts: ["CONTRADICTED"] });
    const smtpUrl = process.env.SMTP_URL;
    process.env.SMTP_URL = "smtp://127.0.0.1:9";
    reloadConfig();
    try {
      await duplicates(shop, 2);
      await alerts.h.settle();
      expect(await alerts.h.db.operation.count({ where: { shop: shop.domain, status: "CONTRADICTED" } })).toBe(2);
      alerts.slack.answerWith(503, "service_unavailable");
      alerts.h.clock.advance(31_000);
      await alerts.h.worker.runAlerts();
      const pending = await alerts.h.db.alertDelivery.findMany({ where: { shop: shop.domain }, orderBy: { channel: "asc" } });
      expect(pending.map((d) => [d.channel, d.status, d.attempts])).toEqual([
        ["email", "pending", 1],
        ["slack", "pending", 1],
      ]);
      expect(pending[0].error).toMatch(/^The mail server could not be reached \(.*ECONNREFUSED.*\)\.$/);
      expect(pending[1].error).toBe("Slack answered 503: service_unavailable.");
    } finally {
      process.env.SMTP_URL = smtpUrl;
      reloadConfig();
    }
    alerts.slack.answerWith(404, "no_service");
    alerts.h.clock.advance(31_000);
    await alerts.h.worker.runAlerts();
    const after = await alerts.h.db.alertDelivery.findMany({ where: { shop: shop.domain }, orderBy: { channel: "asc" } });
    expect(after.map((d) => [d.channel, d.status])).toEqual([
      ["email", "delivered"],
      ["slack", "failed"],
    ]);
    expect(after[1].error).toContain("Slack refused the message (404: no_service)");
    expect(alerts.mailbox.messages).toHaveLength(1);

    // A person sends it again from the log once Slack works.
    const resend = await shop.asStaff(dataPath("/app/settings/alerts", ROUTE), {
      method: "POST",
      body: new URLSearchParams({ intent: "resend", id: after[1].id }),
    });
    expect(resend.status).toBe(200);
    await alerts.h.worker.runAlerts();
    expect(alerts.slack.messages).toHaveLength(1);
    expect((await alerts.h.db.alertDelivery.findUniqueOrThrow({ where: { id: after[1].id } })).status).toBe("delivered");
  });
});

describe("the daily digest", () => {
  it("arrives once at the shop's local morning, with counts, money at risk, the review queue and the change since the day before", async () => {
    const shop = await newShop("digest");
    // A zone where it is now about 2 in the night: the digest hour (08:00) has not come today.
    const offset = ((((2 - new Date().getUTCHours()) % 24) + 36) % 24) - 12;
    const zone = offset === 0 ? "Etc/GMT" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
    shop.shop.ianaTimezone = zone;
    await saveAlertSettings(shop.asStaff, {
      emailRecipients: "owner@shop.test",
      verdicts: ["CONTRADICTED", "FAILED", "UNVERIFIABLE"],
      delivery: "digest",
      digestHour: "8",
    });
    await duplicates(shop, 2, "7.00");
    const order = shop.shop.createOrder({ amount: "30.00" });
    await shop.deliver(shop.shop.createRefund(order.id, { amount: "30.00" }));
    await alerts.h.settle();
    expect(alerts.mailbox.messages).toHaveLength(0);

    // 07:59 the next morning there: not yet; 08:00: the digest; later that day and another worker: nothing more.
    const tomorrow = new Date(Date.parse(`${dayIn(new Date(), zone)}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const eight = startOfDay(tomorrow, zone).getTime() + 8 * 3600_000;
    alerts.h.clock.ms = eight - 60_000;
    await alerts.h.worker.runAlerts();
    expect(alerts.mailbox.messages).toHaveLength(0);
    alerts.h.clock.ms = eight;
    await alerts.h.worker.runAlerts();
    alerts.h.clock.ms = eight + 3 * 3600_000;
    await alerts.h.worker.runAlerts();
    await alerts.h.newWorker().runAlerts();
    expect(alerts.mailbox.messages).toHaveLength(1);
    const mail = alerts.mailbox.messages[0];
    expect(mail.subject).toMatch(/^Refund Verifier · digest: \d{4}-\d{2}-\d{2}, 4 refunds, 2 open reviews$/);
    expect(mail.text).toContain("Verified: 2 (2 more than the day before)");
    expect(mail.text).toContain("Contradicted: 2 (2 more than the day before)");
    expect(mail.text).toContain("Money at risk (refunds waiting for review): $14.00.");
    expect(mail.text).toContain("Review queue: 2 open items.");
    expect(mail.text).toMatch(/Oldest open: Duplicate refund: \$7\.00 on #\d+, decided .*(GMT[+-]\d+|UTC)/); // Etc/GMT, chosen between 02:00 and 03:00 UTC, is written "UTC"
    // No instant alerts in digest mode.
    expect(await alerts.h.db.alertDelivery.count({ where: { shop: shop.domain, kind: "instant" } })).toBe(0);

    alerts.h.clock.ms = eight + 24 * 3600_000;
    await alerts.h.worker.runAlerts();
    expect(alerts.mailbox.messages).toHaveLength(2);
  });
});

describe("at most once", () => {
  it("a verdict whose alert pass never ran is owed: two workers later send one alert", async () => {
    const shop = await newShop("owed");
    await saveAlertSettings(shop.asStaff, { emailRecipients: "ops@shop.test", verdicts: ["CONTRADICTED"] });
    const { refunds } = await duplicates(shop, 2);
    // Verification alone, as a worker killed right after its verdicts leaves things.
    await openDeliveredRefunds({ db: alerts.h.db, now: () => alerts.h.clock.now(), workerId: "test", logger: alerts.h.worker.deps.logger }, REFUND_CREATED);
    for (let i = 0; i < 5; i++) {
      await processDue(alerts.h.worker.deps);
      alerts.h.clock.advance(21_000);
    }
    // Each fake shop numbers its own refunds: the same id may exist in another test's shop.
    const ops = await alerts.h.db.operation.findMany({ where: { shop: shop.domain, refundGid: { in: refunds.map((r) => refundGid(r.id)) } } });
    expect(ops.map((op) => [op.status, op.alertedVerdict])).toEqual([
      ["CONTRADICTED", null],
      ["CONTRADICTED", null],
    ]);
    await Promise.all([alerts.h.worker.runAlerts(), alerts.h.newWorker().runAlerts()]);
    alerts.h.clock.advance(31_000);
    await Promise.all([alerts.h.worker.runAlerts(), alerts.h.newWorker().runAlerts()]);
    await alerts.h.worker.runAlerts();
    expect(alerts.mailbox.messages).toHaveLength(1);
    expect(await alerts.h.db.alertEvent.count({ where: { shop: shop.domain } })).toBe(2);
  });

  it("a mail server that drops the connection after the message is handed over: uncertain, never sent again on its own", async () => {
    const shop = await newShop("dropped");
    await saveAlertSettings(shop.asStaff, { emailRecipients: "ops@shop.test", verdicts: ["CONTRADICTED"] });
    const dropping = await startDroppingSmtp();
    const smtpUrl = process.env.SMTP_URL;
    process.env.SMTP_URL = dropping.url;
    reloadConfig();
    try {
      await duplicates(shop, 2);
      await alerts.h.settle();
      alerts.h.clock.advance(31_000);
      await alerts.h.worker.runAlerts();
      alerts.h.clock.advance(3600_000);
      await alerts.h.worker.runAlerts();
    } finally {
      process.env.SMTP_URL = smtpUrl;
      reloadConfig();
      await dropping.close();
    }
    // Only this shop's message counts: another test's alert may pass through the same server.
    expect(dropping.messagesHandedOver().filter((data) => data.includes("dropped")).length).toBe(1);
    const [delivery] = await alerts.h.db.alertDelivery.findMany({ where: { shop: shop.domain } });
    expect(delivery).toMatchObject({
      status: "uncertain",
      attempts: 1,
      error: expect.stringMatching(/^The connection to the mail server broke while sending .*: it may or may not have arrived\.$/),
    });
  });

  it("a send whose worker died mid-way becomes uncertain when its claim runs out; a group left half-written is finished", async () => {
    const shop = await newShop("half-done");
    await saveAlertSettings(shop.asStaff, { emailRecipients: "ops@shop.test", verdicts: ["CONTRADICTED"] });
    await duplicates(shop, 2);
    await alerts.h.settle();
    // As a worker leaves them when killed: its events taken into a group with no message yet, and another send claimed.
    const events = await alerts.h.db.alertEvent.findMany({ where: { shop: shop.domain } });
    expect(events).toHaveLength(2);
    await alerts.h.db.alertEvent.updateMany({
      where: { shop: shop.domain },
      data: { instantStatus: "grouping", groupId: "crashed-group", groupedAt: alerts.h.clock.now() },
    });
    const stuck = await alerts.h.db.alertDelivery.create({
      data: {
        shop: shop.domain,
        kind: "test",
        channel: "email",
        target: "ops@shop.test",
        subject: "claimed",
        body: "",
        payload: "{}",
        dedupeKey: "test:stuck",
        status: "sending",
        claimedBy: "worker-dead",
        claimedUntil: new Date(alerts.h.clock.ms + 60_000),
        nextAttemptAt: alerts.h.clock.now(),
        createdAt: alerts.h.clock.now(),
      },
    });
    await alerts.h.worker.runAlerts();
    expect(alerts.mailbox.messages).toHaveLength(0);
    alerts.h.clock.advance(61_000);
    await alerts.h.worker.runAlerts();
    expect((await alerts.h.db.alertDelivery.findUniqueOrThrow({ where: { id: stuck.id } })).status).toBe("uncertain");
    expect(alerts.mailbox.messages).toHaveLength(1);
    expect(alerts.mailbox.messages[0].subject).toBe("Refund Verifier · half-done: 2 refunds need a look ($20.00)");
    expect(await alerts.h.db.alertEvent.findMany({ where: { shop: shop.domain }, select: { instantStatus: true } })).toEqual([
      { instantStatus: "grouped" },
      { instantStatus: "grouped" },
    ]);
  });

  it("app/uninstalled while verdicts wait to be grouped: nothing is sent", async () => {
    const shop = await newShop("leaving");
    await saveAlertSettings(shop.asStaff, { emailRecipients: "ops@shop.test", slackUrl: alerts.slack.webhookUrl, verdicts: ["CONTRADICTED"] });
    alerts.h.app.shopify.webhookTarget = { appUrl: alerts.h.app.url };
    await alerts.h.app.shopify.setFlowWorkflow(shop.domain, "refund-contradicted", true);
    await duplicates(shop, 2);
    await alerts.h.settle();
    // Decided, their Flow calls made at once; the email and Slack message wait for the group to close.
    const flowBefore = alerts.h.app.shopify.flow.calls.length;
    expect(await alerts.h.db.alertEvent.count({ where: { shop: shop.domain, instantStatus: "pending" } })).toBe(2);
    await alerts.h.app.shopify.uninstall(shop.domain);
    expect(await alerts.h.db.session.count({ where: { shop: shop.domain } })).toBe(0);
    alerts.h.clock.advance(31_000);
    await alerts.h.worker.runAlerts();
    expect(alerts.mailbox.messages).toHaveLength(0);
    expect(alerts.slack.messages).toHaveLength(0);
    expect(alerts.h.app.shopify.flow.calls.length).toBe(flowBefore);
    expect(await alerts.h.db.alertDelivery.count({ where: { shop: shop.domain, channel: { not: "flow" } } })).toBe(0);
  });
});

/** An SMTP server that takes the whole message, then drops the connection instead of answering 250. */
async function startDroppingSmtp() {
  const handedOver: string[] = [];
  const server = createServer((socket) => {
    let inData = false;
    let buffer = "";
    socket.write("220 dropping.test ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString();
      if (inData) {
        if (buffer.includes("\r\n.\r\n")) {
          handedOver.push(buffer);
          socket.destroy();
        }
        return;
      }
      let end: number;
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, end).toUpperCase();
        buffer = buffer.slice(end + 2);
        if (line.startsWith("EHLO")) socket.write("250-dropping.test\r\n250 8BITMIME\r\n");
        else if (line.startsWith("DATA")) {
          inData = true;
          socket.write("354 go ahead\r\n");
          return;
        } else if (line.startsWith("QUIT")) socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    messagesHandedOver: () => handedOver,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
