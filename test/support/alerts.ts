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
  close(): Promise<void>;
}

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
    async close() {
      await h.close();
      await mailbox.close();
      await slack.close();
    },
  };
}

/**
 * The alerts harness of one test file: started before its tests (the fake Shopify sending its
 * webhooks to the app when `webhooks`), handed to `started`, closed after them, and its mailbox and
 * Slack channel emptied before each test.
 */
export function useAlertsHarness(
  domain: string,
  started: (harness: AlertsHarness) => void,
  options: { env?: Record<string, string>; webhooks?: boolean } = {},
) {
  let harness: AlertsHarness | undefined;
  beforeAll(async () => {
    harness = await startAlertsHarness(domain, options.env);
    if (options.webhooks) harness.h.app.shopify.webhookTarget = { appUrl: harness.h.app.url };
    started(harness);
  });
  afterAll(async () => harness?.close());
  beforeEach(() => {
    if (!harness) return;
    harness.mailbox.messages.length = 0;
    harness.mailbox.recipients.length = 0;
    harness.slack.messages.length = 0;
  });
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
