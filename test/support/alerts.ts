import { afterAll, beforeAll, beforeEach } from "vitest";
import type { FakeRefund } from "../../fake-shopify/shop";
import { newDelivery, refundWebhookBody } from "../../fake-shopify/webhooks";
import { dataPath, embeddedFetch } from "./embedded";
import { startMailbox, type Mailbox } from "./mailbox";
import { startSlackReceiver, type SlackReceiver } from "./slack-receiver";
import { installShop, staffSignedIn } from "./sessions";
import { startVerificationHarness, type VerificationHarness } from "./verification";

export interface AlertsHarness {
  h: VerificationHarness;
  mailbox: Mailbox;
  slack: SlackReceiver;
  /** ALERTS_SECRET_KEY as the app has it, for sealing a Slack URL directly. */
  secretKey: Buffer;
  /** The alert passes once the group of events decided close together has closed (30 s of quiet). */
  passes(): Promise<void>;
  /**
   * Alert passes as workers race them: two at once turn what was decided into its events, then two
   * at once group and send them once the group closed, then one more pass, and another an hour
   * later, which must add nothing.
   */
  racedPasses(): Promise<void>;
  /** The emails and the Slack messages about the shop named `name` (its name is in each subject and text). */
  mailsOf(shop: { name: string }): Mailbox["messages"];
  slackOf(shop: { name: string }): SlackReceiver["messages"];
  close(): Promise<void>;
}

/** Every kind of alert a shop can tick on the alerts page. */
export const EVERY_ALERT_CHOICE = ["CONTRADICTED", "FAILED", "UNVERIFIABLE", "MONEY", "AT_RISK_TWICE", "OVER_LIMIT"];

/** The verification harness with alerts wired to a real SMTP server and a Slack receiver on loopback. */
export async function startAlertsHarness(domain: string, env: Record<string, string> = {}): Promise<AlertsHarness> {
  const mailbox = await startMailbox();
  const slack = await startSlackReceiver();
  const secretKey = Buffer.alloc(32, 0x5f);
  const h = await startVerificationHarness(domain, undefined, {
    SMTP_URL: mailbox.url,
    SLACK_WEBHOOK_ORIGIN: slack.origin,
    ALERTS_SECRET_KEY: secretKey.toString("hex"),
    ...env,
  });
  return {
    h,
    mailbox,
    slack,
    secretKey,
    async passes() {
      h.clock.advance(31_000);
      await h.worker.runAlerts();
    },
    async racedPasses() {
      const bothAtOnce = () => Promise.all([h.worker.runAlerts(), h.newWorker().runAlerts()]);
      await bothAtOnce();
      h.clock.advance(31_000);
      await bothAtOnce();
      await h.worker.runAlerts();
      h.clock.advance(3600_000);
      await h.newWorker().runAlerts();
    },
    mailsOf: (shop) => mailbox.messages.filter((m) => m.subject?.includes(`· ${shop.name}:`)),
    slackOf: (shop) => slack.messages.filter((m) => m.body.text?.includes(`· ${shop.name}:`)),
    async close() {
      await h.close();
      await mailbox.close();
      await slack.close();
    },
  };
}

/**
 * The alerts harness of one test file: started before its tests (the fake Shopify sending its
 * webhooks to the app when `webhooks`), closed after them, its mailbox and Slack channel emptied
 * before each test. What it returns reads the started harness, so a test file declares it once.
 */
export function useAlertsHarness(domain: string, options: { env?: Record<string, string>; webhooks?: boolean } = {}): AlertsHarness {
  let harness: AlertsHarness | undefined;
  beforeAll(async () => {
    harness = await startAlertsHarness(domain, options.env);
    if (options.webhooks) harness.h.app.shopify.webhookTarget = { appUrl: harness.h.app.url };
  });
  afterAll(async () => harness?.close());
  beforeEach(() => {
    if (!harness) return;
    harness.mailbox.messages.length = 0;
    harness.mailbox.recipients.length = 0;
    harness.slack.messages.length = 0;
  });
  const started = () => {
    if (!harness) throw new Error("The alerts harness starts before the file's tests: use it inside a test or a hook.");
    return harness;
  };
  return {
    get h() {
      return started().h;
    },
    get mailbox() {
      return started().mailbox;
    },
    get slack() {
      return started().slack;
    },
    get secretKey() {
      return started().secretKey;
    },
    passes: () => started().passes(),
    racedPasses: () => started().racedPasses(),
    mailsOf: (shop) => started().mailsOf(shop),
    slackOf: (shop) => started().slackOf(shop),
    close: () => started().close(),
  };
}

/**
 * A shop of its own for one test, installed, so that settings, workflows and refunds do not leak
 * between tests; its staff member 42 uses the app already (their requests exchange no token, which
 * would write the offline session anew), with the scopes and the time zone given.
 */
export async function newAlertsShop(h: VerificationHarness, name: string, setup: { scope?: string; timeZone?: string } = {}) {
  const domain = `${name}.myshopify.com`;
  await installShop(h.db, h.app.shopify, domain);
  await staffSignedIn(h.db, h.app.shopify, domain);
  if (setup.scope) await h.db.session.updateMany({ where: { shop: domain }, data: { scope: setup.scope } });
  const zone = setup.timeZone;
  if (zone) await h.db.shopState.upsert({ where: { shop: domain }, create: { shop: domain, ianaTimezone: zone }, update: { ianaTimezone: zone } });
  const shop = h.app.shopify.shop(domain);
  const deliver = (refund: FakeRefund) => h.deliver(newDelivery("refunds/create", domain, refundWebhookBody(shop, refund), h.clock.now()));
  return { name, domain, shop, deliver, asStaff: embeddedFetch(h.app.url, domain) };
}

/** Saves the shop's alert settings as its staff member does on the alerts page: instant, the digest at 8, `fields` over those. */
export function saveAlertSettings(asStaff: ReturnType<typeof embeddedFetch>, fields: Record<string, string | string[]>) {
  const form = new URLSearchParams({ intent: "save", revision: "0", delivery: "instant", digestHour: "8" });
  for (const [key, value] of Object.entries(fields)) {
    form.delete(key);
    for (const v of [value].flat()) form.append(key, v);
  }
  return asStaff(dataPath("/app/settings/alerts", "routes/app.settings.alerts"), { method: "POST", body: form });
}
