import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newDelivery, refundWebhookBody } from "../../fake-shopify/webhooks";
import { startAlertsHarness, type AlertsHarness } from "../support/alerts";
import { dataPath, embeddedFetch } from "../support/embedded";
import { installShop } from "../support/sessions";
import { alertsAction } from "../../app/screens/alert-settings.server";

// Alerts go to real people: a staff member's button, and names merchants choose, must not become
// a spam cannon or a channel-wide ping.
const ROUTE = "routes/app.settings.alerts";
let harness: AlertsHarness;

beforeAll(async () => {
  harness = await startAlertsHarness("alerts-abuse.myshopify.com");
});
afterAll(async () => harness?.close());

async function shopWithAlerts(name: string) {
  const { h, slack } = harness;
  const domain = `${name}.myshopify.com`;
  await installShop(h.db, h.app.shopify, domain);
  const asStaff = embeddedFetch(h.app.url, domain);
  const form = new URLSearchParams({
    intent: "save",
    revision: "0",
    delivery: "instant",
    digestHour: "8",
    emailRecipients: "ops@shop.test",
    slackUrl: slack.webhookUrl,
  });
  for (const verdict of ["CONTRADICTED", "FAILED", "UNVERIFIABLE"]) form.append("verdicts", verdict);
  expect((await asStaff(dataPath("/app/settings/alerts", ROUTE), { method: "POST", body: form })).status).toBe(200);
  return { domain, asStaff, shop: h.app.shopify.shop(domain) };
}

describe("Send a test alert", () => {
  it("pressed ten times at once sends one test per channel, and the rest are told to wait (429)", async () => {
    const { domain, asStaff } = await shopWithAlerts("test-flood");
    const press = () => asStaff(dataPath("/app/settings/alerts", ROUTE), { method: "POST", body: new URLSearchParams({ intent: "test" }) });
    const answers = await Promise.all(Array.from({ length: 10 }, press));
    const statuses = answers.map((a) => a.status).sort();
    // Each press that queued a channel's test is answered 200: on a busy machine two presses can
    // interleave, one queuing the email and the other the Slack message (issue 29's stressed runs).
    const queued = statuses.filter((s) => s === 200).length;
    expect(queued).toBeGreaterThanOrEqual(1);
    expect(queued).toBeLessThanOrEqual(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10 - queued);
    expect((await answers.find((a) => a.status === 429)!.json()).fieldErrors.form).toMatch(/less than a minute ago/);
    const tests = await harness.h.db.alertDelivery.findMany({ where: { shop: domain, kind: "test" } });
    expect(tests.map((t) => t.channel).sort()).toEqual(["email", "slack"]);
  });

  it("two presses a millisecond apart across a minute's edge still send one test per channel", async () => {
    const { domain } = await shopWithAlerts("test-minute-edge");
    const edge = Math.ceil(Date.now() / 60_000) * 60_000;
    const press = (at: number) => alertsAction(harness.h.db, domain, formData({ intent: "test" }), new Date(at));
    const answers = await Promise.all([press(edge - 1), press(edge + 1)]);
    const tests = await harness.h.db.alertDelivery.findMany({ where: { shop: domain, kind: "test" } });
    expect(tests.map((t) => t.channel).sort()).toEqual(["email", "slack"]);
    expect(answers.some((a) => a.ok)).toBe(true);
  });
});

function formData(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

describe("names merchants choose", () => {
  it("an order named with a Slack mention pings nobody: the message's text is escaped like its blocks", async () => {
    const { h, slack } = harness;
    const { domain, shop } = await shopWithAlerts("mentions");
    const order = shop.createOrder({ amount: "50.00" });
    order.name = "<!channel> #1001";
    const refund = shop.createRefund(order.id, { amount: "20.00", recordedAmount: "21.00" });
    await h.deliver(newDelivery("refunds/create", domain, refundWebhookBody(shop, refund)));
    await h.settle();
    h.clock.advance(10 * 60_000);
    await h.worker.runAlerts();
    await h.worker.runAlerts();
    const posted = slack.messages.filter((m) => JSON.stringify(m.body).includes("1001"));
    expect(posted.length).toBeGreaterThan(0);
    for (const message of posted) {
      expect(JSON.stringify(message.body)).not.toContain("<!channel>");
      expect(message.body.text).toContain("&lt;!channel&gt;");
    }
  });
});
