import { startMailbox, type Mailbox } from "./mailbox";
import { startSlackReceiver, type SlackReceiver } from "./slack-receiver";
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
