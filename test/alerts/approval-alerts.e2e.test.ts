import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { formatInstant } from "../../app/lib/time/format";
import { saveAlertSettings, useAlertsHarness } from "../support/alerts";
import { TEST_APP } from "../support/credentials";
import { dataPath, embeddedFetch } from "../support/embedded";
import { installShop } from "../support/sessions";

// Issue 44, "People": a refund over a limit waits for a second pair of eyes (decision 030), and the
// people concerned hear of it outside the app: the approvers when it is asked for (by their own
// email, the shop's Slack and Flow's "Refund waiting for approval"), the person who asked when it is
// declined or expires. Each message once, whatever the passes, workers and crashes.

const OWNER = "42"; // Dana Whitfield, the fake shop's account owner: dana.whitfield@example.com
const ASKER = "77";
const APPROVER = "88";
const CLERK = "99";
const NO_EMAIL = "66";
const ZONE = "America/New_York";
const DAY = 24 * 3600_000;

const alerts = useAlertsHarness("approval-alerts.myshopify.com", { webhooks: true });

type Shop = Awaited<ReturnType<typeof newShop>>;

/**
 * A shop of its own per test, in a known time zone, whose staff have each opened the app once (the
 * app knows people by the online sessions Shopify gave it): Sam asks, Ada approves, Kit does
 * neither, and Noor approves but Shopify gave no email address for her.
 */
async function newShop(name: string) {
  const domain = `${name}.myshopify.com`;
  await installShop(alerts.h.db, alerts.h.app.shopify, domain);
  await alerts.h.db.shopState.upsert({ where: { shop: domain }, create: { shop: domain, ianaTimezone: ZONE }, update: { ianaTimezone: ZONE } });
  alerts.h.app.shopify.addStaff(domain, { id: ASKER, firstName: "Sam", lastName: "Lee" });
  alerts.h.app.shopify.addStaff(domain, { id: APPROVER, firstName: "Ada", lastName: "Lovelace" });
  alerts.h.app.shopify.addStaff(domain, { id: CLERK, firstName: "Kit", lastName: "Marlowe" });
  alerts.h.app.shopify.addStaff(domain, { id: NO_EMAIL, firstName: "Noor", lastName: "Haddad", email: "" });
  const as = (userId: string) => embeddedFetch(alerts.h.app.url, domain, userId);
  for (const id of [OWNER, ASKER, APPROVER, CLERK, NO_EMAIL]) expect((await as(id)(LIMITS_PATH)).status).toBe(200);
  const shop = { name, domain, shop: alerts.h.app.shopify.shop(domain), as };
  // $100.00 a refund; Ada and Noor approve, as the owner always may.
  await saveLimits(shop, { perRefund: "100" }, [APPROVER, NO_EMAIL]);
  return shop;
}

const LIMITS_PATH = dataPath("/app/settings/limits", "routes/app.settings.limits");

async function saveLimits(shop: Pick<Shop, "as">, fields: Record<string, string>, approvers: string[]) {
  const page = await (await shop.as(OWNER)(LIMITS_PATH)).json();
  const body = new URLSearchParams({ revision: String(page.revision), people: approvers.join(","), ...fields });
  for (const id of approvers) body.set(`approver.${id}`, "on");
  expect((await shop.as(OWNER)(LIMITS_PATH, { method: "POST", body })).status).toBe(200);
}

/** Sam asks for a refund of `amount` on a new order of $300.00, over the shop's $100.00: it waits for approval. */
async function heldRequest(shop: Shop, amount = "180.00", note?: string) {
  const order = shop.shop.createOrder({ amount: "300.00" });
  const body = new URLSearchParams({ intent: "issue", amount, formToken: randomUUID(), ...(note ? { note } : {}) });
  const response = await shop.as(ASKER)(dataPath(`/app/orders/${order.id}/refund`, "routes/app.orders.$orderId.refund"), { method: "POST", body });
  expect(response.status).toBe(202);
  const record = await alerts.h.db.refundRecord.findFirstOrThrow({ where: { orderId: `gid://shopify/Order/${order.id}` } });
  return { order, request: await alerts.h.db.refundApproval.findUniqueOrThrow({ where: { recordId: record.id } }) };
}

const requestPath = (id: string) => dataPath(`/app/approvals/${id}`, "routes/app.approvals.$id");
const decline = (shop: Shop, id: string, reason: string) =>
  shop.as(APPROVER)(requestPath(id), { method: "POST", body: new URLSearchParams({ intent: "decline", reason }) });
async function approve(shop: Shop, id: string) {
  const page = await (await shop.as(APPROVER)(requestPath(id))).json();
  return shop.as(APPROVER)(requestPath(id), {
    method: "POST",
    body: new URLSearchParams({ intent: "approve", limitsRevision: String(page.limitsNow.revision) }),
  });
}

const requestUrl = (shop: Shop, id: string) => `https://admin.shopify.com/store/${shop.name}/apps/${TEST_APP.apiKey}/approvals/${id}`;
const mailsOf = (shop: Shop) =>
  alerts.mailbox.messages.flatMap((mail, i) => (mail.subject?.includes(`· ${shop.name}:`) ? [{ mail, to: alerts.mailbox.recipients[i] }] : []));
const slackOf = (shop: Shop) => alerts.slack.messages.filter((m) => m.body.text?.includes(`· ${shop.name}:`));
const flowCallsOf = (shop: Shop) => alerts.h.app.shopify.flow.calls.filter((c) => c.shop === shop.domain);
const deliveriesOf = (shop: Shop) =>
  alerts.h.db.alertDelivery.findMany({
    where: { shop: shop.domain },
    orderBy: [{ channel: "asc" }, { target: "asc" }],
    select: { kind: true, channel: true, target: true, status: true, error: true },
  });

describe("a refund waiting for approval", () => {
  it("is mailed to each approver at their own address and posted once to the shop's Slack: who asked, how much, which order, the limit in words, when it expires, the link; never to the person who asked, however many passes and workers", async () => {
    const shop = await newShop("ask-approvers");
    // No verdict ticked: a request for approval is not an alert a shop silences.
    expect((await saveAlertSettings(shop.as(OWNER), { emailRecipients: "ops@shop.test", slackUrl: alerts.slack.webhookUrl, verdicts: [] })).status).toBe(200);
    const { order, request } = await heldRequest(shop, "180.00", "Arrived broken");

    await Promise.all([alerts.h.worker.runAlerts(), alerts.h.newWorker().runAlerts()]);
    await alerts.h.worker.runAlerts();
    alerts.h.clock.advance(3600_000);
    await alerts.h.newWorker().runAlerts();

    const expires = formatInstant(request.expiresAt.toISOString(), ZONE);
    const mails = mailsOf(shop);
    expect(mails.map((m) => m.to).sort()).toEqual([["ada.lovelace@example.com"], ["dana.whitfield@example.com"]]);
    for (const { mail } of mails) {
      expect(mail.subject).toBe(`Refund Verifier · ask-approvers: Sam Lee asks you to approve a $180.00 refund on ${order.name}`);
      expect(mail.text).toContain(
        `Sam Lee asked to refund $180.00 on ${order.name}, over the shop's refund limits: $180.00 is over the shop's limit of $100.00 per refund.`,
      );
      expect(mail.text).toContain(`The refund's note: Arrived broken`);
      expect(mail.text).toContain(`Nothing has been refunded yet. It waits for an approver until ${expires}; then it expires and nothing is refunded.`);
      expect(mail.text).toContain(`Approve or decline: ${requestUrl(shop, request.id)}`);
      expect(mail.html).toContain(`href="${requestUrl(shop, request.id)}"`);
    }
    const posted = slackOf(shop);
    expect(posted).toHaveLength(1);
    expect(posted[0].body.text).toBe(`Refund Verifier · ask-approvers: Sam Lee asks you to approve a $180.00 refund on ${order.name}`);
    expect(JSON.stringify(posted[0].body)).toContain(`<${requestUrl(shop, request.id)}|Approve or decline>`);
    expect(JSON.stringify(posted[0].body)).toContain(expires);

    const log = await deliveriesOf(shop);
    expect(log.map((d) => [d.kind, d.channel, d.target, d.status])).toEqual([
      ["approval", "email", "ada.lovelace@example.com", "delivered"],
      ["approval", "email", "dana.whitfield@example.com", "delivered"],
      ["approval", "slack", expect.stringMatching(/\/services\/…uvwx$/), "delivered"],
    ]);
    expect((await alerts.h.db.refundApproval.findUniqueOrThrow({ where: { id: request.id } })).askNotifiedAt).not.toBeNull();
  });

  it("a pass that stopped before it marked the request (a crash) sends nothing again", async () => {
    const shop = await newShop("ask-crash");
    await saveAlertSettings(shop.as(OWNER), { slackUrl: alerts.slack.webhookUrl, verdicts: [] });
    const { request } = await heldRequest(shop);
    await alerts.h.worker.runAlerts();
    expect(mailsOf(shop)).toHaveLength(2);
    expect(slackOf(shop)).toHaveLength(1);
    // As if the worker had died after queueing the messages and before marking the request told.
    await alerts.h.db.refundApproval.update({ where: { id: request.id }, data: { askNotifiedAt: null } });
    await Promise.all([alerts.h.worker.runAlerts(), alerts.h.newWorker().runAlerts()]);
    expect(mailsOf(shop)).toHaveLength(2);
    expect(slackOf(shop)).toHaveLength(1);
    expect(await alerts.h.db.alertDelivery.count({ where: { shop: shop.domain } })).toBe(3);
  });

  it("a shop with no alert settings at all still tells its approvers by email", async () => {
    const shop = await newShop("ask-no-settings");
    const { order } = await heldRequest(shop, "120.00");
    await alerts.h.worker.runAlerts();
    expect(mailsOf(shop).map((m) => [m.to, m.mail.subject])).toEqual(
      expect.arrayContaining([
        [["dana.whitfield@example.com"], `Refund Verifier · ask-no-settings: Sam Lee asks you to approve a $120.00 refund on ${order.name}`],
        [["ada.lovelace@example.com"], expect.any(String)],
      ]),
    );
    expect(mailsOf(shop)).toHaveLength(2);
    expect(slackOf(shop)).toEqual([]);
  });

  it("a request decided before the pass reached it tells the approvers nothing; a message still waiting to be sent when it was decided is not sent", async () => {
    const shop = await newShop("ask-decided");
    await saveAlertSettings(shop.as(OWNER), { slackUrl: alerts.slack.webhookUrl, verdicts: [] });
    const early = await heldRequest(shop);
    expect((await approve(shop, early.request.id)).status).toBe(200);
    await alerts.h.worker.runAlerts();
    expect(mailsOf(shop)).toEqual([]);
    expect(slackOf(shop)).toEqual([]);

    // Slack is busy at the first try (503: nothing posted, tried again later); meanwhile Ada declines.
    const late = await heldRequest(shop);
    alerts.slack.answerWith(503, "busy");
    await alerts.h.worker.runAlerts();
    expect(mailsOf(shop)).toHaveLength(2);
    expect((await decline(shop, late.request.id, "Already sent a replacement")).status).toBe(200);
    alerts.h.clock.advance(3600_000);
    await alerts.h.worker.runAlerts();
    expect(slackOf(shop)).toEqual([]);
    const slackRow = (await deliveriesOf(shop)).find((d) => d.channel === "slack")!;
    expect(slackRow).toMatchObject({ kind: "approval", status: "failed", error: "Not sent: Ada Lovelace declined the request before this went out." });
  });

  it("starts the shop's workflow on 'Refund waiting for approval' once, with the order, the amount, who asked, the limit, the expiry and the link; a shop without one gets no call", async () => {
    const withFlow = await newShop("ask-flow-on");
    const without = await newShop("ask-flow-off");
    expect(await (await alerts.h.app.shopify.setFlowWorkflow(withFlow.domain, "refund-waiting-for-approval", true)).text()).toBe("recorded");
    const { order, request } = await heldRequest(withFlow, "250.00");
    await heldRequest(without, "250.00");
    await Promise.all([alerts.h.worker.runAlerts(), alerts.h.newWorker().runAlerts()]);
    await alerts.h.worker.runAlerts();

    const calls = flowCallsOf(withFlow);
    expect(calls.map((c) => [c.handle, c.ranWorkflows])).toEqual([["refund-waiting-for-approval", true]]);
    expect(calls[0].payload).toEqual({
      order_id: order.id.toString(),
      "order name": order.name,
      amount: "250.00",
      "currency code": "USD",
      "asked by": "Sam Lee",
      limits: "$250.00 is over the shop's limit of $100.00 per refund.",
      "expires at": request.expiresAt.toISOString(),
      "request url": requestUrl(withFlow, request.id),
    });
    expect(flowCallsOf(without)).toEqual([]);
  });
});

describe("the person who asked", () => {
  it("is mailed a decline at their own address, with the approver's name and reason, once", async () => {
    const shop = await newShop("told-declined");
    const { order, request } = await heldRequest(shop);
    await alerts.h.worker.runAlerts();
    alerts.mailbox.messages.length = 0;
    alerts.mailbox.recipients.length = 0;
    expect((await decline(shop, request.id, "Customer already got store credit <b>twice</b>")).status).toBe(200);
    await Promise.all([alerts.h.worker.runAlerts(), alerts.h.newWorker().runAlerts()]);
    await alerts.h.worker.runAlerts();

    const mails = mailsOf(shop);
    expect(mails.map((m) => m.to)).toEqual([["sam.lee@example.com"]]);
    const [{ mail }] = mails;
    expect(mail.subject).toBe(`Refund Verifier · told-declined: your $180.00 refund on ${order.name} was declined`);
    expect(mail.text).toContain(
      `Ada Lovelace declined your refund of $180.00 on ${order.name}: Customer already got store credit <b>twice</b>. Nothing was refunded.`,
    );
    expect(mail.text).toContain(`The request: ${requestUrl(shop, request.id)}`);
    expect(mail.html).toContain("Customer already got store credit &lt;b&gt;twice&lt;/b&gt;");

    // A pass that stopped before marking it told sends nothing again.
    await alerts.h.db.refundApproval.update({ where: { id: request.id }, data: { decisionNotifiedAt: null } });
    await alerts.h.worker.runAlerts();
    expect(mailsOf(shop)).toHaveLength(1);
    expect((await alerts.h.db.refundApproval.findUniqueOrThrow({ where: { id: request.id } })).decisionNotifiedAt).not.toBeNull();
  });

  it("is not mailed an approval: the refund went to Shopify, and the refund form shows it", async () => {
    const shop = await newShop("told-approved");
    const { request } = await heldRequest(shop);
    await alerts.h.worker.runAlerts();
    expect(
      mailsOf(shop)
        .map((m) => m.to)
        .sort(),
    ).toEqual([["ada.lovelace@example.com"], ["dana.whitfield@example.com"]]);
    expect((await approve(shop, request.id)).status).toBe(200);
    await alerts.h.worker.runAlerts();
    expect(mailsOf(shop)).toHaveLength(2);
  });

  // Last: it moves the worker's clock a day past the routes' wall clock, where every request after it would have expired.
  it("is mailed when nobody decided in a day and the request expired, once", async () => {
    const shop = await newShop("told-expired");
    const { order, request } = await heldRequest(shop);
    await alerts.h.worker.runAlerts();
    alerts.mailbox.messages.length = 0;
    alerts.mailbox.recipients.length = 0;
    alerts.h.clock.advance(DAY + 60_000);
    await alerts.h.worker.runOnce();
    await alerts.h.newWorker().runOnce();
    expect((await alerts.h.db.refundApproval.findUniqueOrThrow({ where: { id: request.id } })).state).toBe("expired");

    const mails = mailsOf(shop);
    expect(mails.map((m) => m.to)).toEqual([["sam.lee@example.com"]]);
    expect(mails[0].mail.subject).toBe(`Refund Verifier · told-expired: your $180.00 refund on ${order.name} expired`);
    expect(mails[0].mail.text).toContain(
      `Nobody approved your refund of $180.00 on ${order.name} within a day: it expired at ${formatInstant(request.expiresAt.toISOString(), ZONE)}. Nothing was refunded; ask again if it is still due.`,
    );
    await alerts.h.worker.runOnce();
    expect(mailsOf(shop)).toHaveLength(1);
  });
});
