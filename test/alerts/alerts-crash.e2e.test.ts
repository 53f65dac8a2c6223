import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAlertsHarness, type AlertsHarness } from "../support/alerts";
import type { Mailbox } from "../support/mailbox";
import type { SlackReceiver } from "../support/slack-receiver";
import { refundGid, type VerificationHarness } from "../support/verification";
import { startWorkerProcess, stopWorker } from "../support/worker-process";
import { waitFor } from "../support/wait";
import { sealSecret, secretUrlHint } from "../../app/lib/crypto/secret-box.server";
import { slackUrlBoundTo } from "../../app/alerts/settings-view";

let harness: AlertsHarness;
let h: VerificationHarness;
let mailbox: Mailbox;
let slack: SlackReceiver;

beforeAll(async () => {
  harness = await startAlertsHarness("crash-alerts.myshopify.com");
  ({ h, mailbox, slack } = harness);
  // The workers here are processes of their own, on the wall clock.
  h.useWallClock();
});

afterAll(async () => harness?.close());

describe("a worker killed between the verdict and its alert", () => {
  it("sends the alert once, late, from the next worker, never twice", async () => {
    const lastSweepAt = new Date();
    await h.db.shopState.upsert({ where: { shop: h.domain }, create: { shop: h.domain, lastSweepAt }, update: { lastSweepAt } });
    await h.db.alertSettings.create({
      data: {
        shop: h.domain,
        emailRecipients: "ops@shop.test",
        slackUrlSealed: sealSecret(slack.webhookUrl, harness.secretKey, slackUrlBoundTo(h.domain)),
        slackUrlHint: secretUrlHint(slack.webhookUrl),
        revision: 1,
      },
    });
    const order = h.shop.createOrder({ amount: "100.00" });
    // A refund of 30.00 and two more of it within seconds: the two later ones are its duplicates.
    const [original, ...refunds] = [1, 2, 3].map(() => h.shop.createRefund(order.id, { amount: "30.00" }));
    for (const refund of [original, ...refunds]) expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    const gids = refunds.map((r) => refundGid(r.id));
    // Verdicts are final 20 s after the refunds (the stale read window). The first worker would wait
    // ten minutes of quiet before alerting, so it is surely killed after its verdicts and before their
    // alert; the next waits 4 s.
    const env = { ALERT_QUIET_MS: "4000", ALERT_MAX_WAIT_MS: "600000" };
    const first = startWorkerProcess(h.app.databaseUrl, { ...env, ALERT_QUIET_MS: "600000" });
    try {
      await waitFor("both verdicts", async () => (await h.db.operation.count({ where: { refundGid: { in: gids }, status: "CONTRADICTED" } })) === 2);
      first.kill("SIGKILL");
      await new Promise((resolve) => first.once("exit", resolve));
    } finally {
      await stopWorker(first);
    }
    expect(mailbox.messages).toHaveLength(0);
    expect(slack.messages).toHaveLength(0);
    expect(await h.db.alertDelivery.count({ where: { shop: h.domain, status: "delivered" } })).toBe(0);

    const second = startWorkerProcess(h.app.databaseUrl, env);
    try {
      await waitFor("the alert", async () => mailbox.messages.length > 0 && slack.messages.length > 0);
    } finally {
      await stopWorker(second);
    }
    // Another worker, long after every group and retry would have come due: nothing more is sent.
    h.clock.advance(3600_000);
    const later = h.newWorker();
    await later.runAlerts();
    await later.runAlerts();
    expect(mailbox.messages).toHaveLength(1);
    expect(mailbox.messages[0].subject).toBe("Refund Verifier · crash-alerts: 2 refunds need a look ($60.00)");
    expect(slack.messages).toHaveLength(1);
    expect(await h.db.alertEvent.count({ where: { shop: h.domain } })).toBe(2);
    const deliveries = await h.db.alertDelivery.findMany({ where: { shop: h.domain } });
    expect(deliveries.map((d) => [d.channel, d.status, d.eventCount]).sort()).toEqual([
      ["email", "delivered", 2],
      ["slack", "delivered", 2],
    ]);
  });
});
