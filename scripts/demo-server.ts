import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { FakeShopify } from "../fake-shopify/server";
import { freePort } from "../bench/support";
import { adminSurface } from "../fake-shopify/admin-surface";
import { mintSessionToken } from "../fake-shopify/session-token";
import { seedHistory } from "../fake-shopify/history";
import type { AdminApi } from "../fake-shopify/admin-api";
import { TEST_APP } from "../test/support/credentials";
import { CHROME_UA } from "../test/support/embedded";
import { startDemoTraffic, type DemoTraffic } from "./demo-traffic";
import { startMailbox, type Mailbox } from "../test/support/mailbox";
import { startSlackReceiver, type SlackReceiver } from "../test/support/slack-receiver";
import { dataPath, embeddedFetch } from "../test/support/embedded";
import { ALL_FLOW_TRIGGERS, FLOW_TRIGGERS } from "../app/alerts/flow-triggers";
import { MONEY_CHOICE } from "../app/alerts/money";

/** The demo merchant granted the optional payments scopes: the evidence page follows refunds to the payout. */
export const DEMO_SCOPES = `${TEST_APP.scopes},read_shopify_payments_accounts,read_shopify_payments_payouts`;

export interface DemoOptions {
  /** The app's port; "free" for any free one (the tests: a port found free can be taken before the app binds it). */
  appPort: number | "free";
  /** The simulated Shopify's port; any free one when absent. */
  shopifyPort?: number;
  shop: string;
  databaseUrl: string;
  /** For the tests: the app is built and the database migrated, with the Prisma client of the suite's provider. */
  prepared?: boolean;
  keepData?: boolean;
  liveEveryMs?: number;
  historyCount?: number;
  /** Refunds the shop made before the app was installed, verified by the history backfill the install starts (none by default). */
  preInstallRefunds?: number;
  log?: "inherit" | "ignore";
}

export interface Demo {
  adminUrl: string;
  appUrl: string;
  shopify: FakeShopify;
  traffic: DemoTraffic;
  /** The demo's mail server and Slack channel: what the app's alerts reached. */
  mailbox: Mailbox;
  slack: SlackReceiver;
  stop(): Promise<void>;
}

const root = new URL("..", import.meta.url).pathname;

/**
 * The demo: the built app served by `npm start` (as in production, its worker inside) on SQLite,
 * a simulated Shopify with an admin that frames the app, the app installed by token exchange,
 * and refunds arriving through signed webhooks. Loopback only.
 */
export async function startDemo(options: DemoOptions): Promise<Demo> {
  const run = (command: string, args: string[], env: Record<string, string> = {}) =>
    execFileSync(command, args, {
      cwd: root,
      stdio: options.log === "ignore" ? "ignore" : "inherit",
      env: { ...process.env, CHECKPOINT_DISABLE: "1", ...env },
    });
  if (options.databaseUrl.startsWith("file:") && !options.keepData && !options.prepared) {
    const file = options.databaseUrl.slice("file:".length);
    for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(`${file.startsWith("/") ? "" : root}${file}${suffix}`, { force: true });
  }
  if (!options.prepared) {
    run("node", ["scripts/db.mjs", "setup"], { DATABASE_URL: options.databaseUrl });
    run("node_modules/.bin/remix", ["vite:build"]);
  }

  let appUrl = "";
  const shopify = new FakeShopify({ ...TEST_APP, scopes: DEMO_SCOPES });
  const demoShop = shopify.addShop(options.shop, "USD");
  // Money settles in minutes here, not days: in the ledger at once, in a payout after a minute,
  // paid after four, the card network's reference after two (contract shopify.refund.settled).
  Object.assign(demoShop.payments.schedule, { payoutAfterMs: 60_000, paidAfterMs: 240_000, arnAfterMs: 120_000 });
  seedHistory(demoShop, options.preInstallRefunds ?? 0, { days: 50 });
  const mailbox = await startMailbox();
  const slack = await startSlackReceiver();
  const inboxes = {
    mail: () =>
      mailbox.messages.map((m, i) => ({ subject: m.subject, to: mailbox.recipients[i].join(", "), date: m.date, html: m.html || false, text: m.text })),
    slack: () => slack.messages,
    flowCalls: () => shopify.flow.calls,
  };
  const shopifyOrigin = (
    await shopify.listen(
      options.shopifyPort,
      adminSurface(
        TEST_APP,
        () => appUrl,
        () => [...shopify.shops.keys()],
        inboxes,
      ),
    )
  ).replace("127.0.0.1", "localhost");

  const app = await startAppProcess({
    port: options.appPort,
    databaseUrl: options.databaseUrl,
    shopifyOrigin,
    log: options.log,
    env: {
      APP_BRIDGE_URL: `${shopifyOrigin}/demo/app-bridge.js`,
      SIMULATED_ADMIN_ORIGIN: shopifyOrigin,
      // The demo's lost webhooks are found within half a minute rather than 15.
      VERIFIER_SWEEP_INTERVAL_MS: process.env.VERIFIER_SWEEP_INTERVAL_MS || "20000",
      // Alerts: the demo's own mail server and Slack channel, a key for sealing the Slack URL, and
      // groups that close after 5 s of quiet rather than 30 so that the first alert comes quickly.
      SMTP_URL: mailbox.url,
      SLACK_WEBHOOK_ORIGIN: slack.origin,
      ALERTS_SECRET_KEY: process.env.ALERTS_SECRET_KEY || "d3".repeat(32),
      // Its own key for the shop's tokens, new with every demo: they are sealed at rest as in production.
      SESSION_SECRET_KEY: process.env.SESSION_SECRET_KEY || randomBytes(32).toString("hex"),
      ALERT_QUIET_MS: process.env.ALERT_QUIET_MS || "5000",
      // The history backfill the install starts asks Shopify how its bulk read is going every 2 s.
      BACKFILL_POLL_MS: process.env.BACKFILL_POLL_MS || "2000",
    },
  });
  appUrl = app.url;
  try {
    await installApp(appUrl, options.shop);
    // Refunds issued from the app in the demo announce themselves by webhook, as in a real shop.
    shopify.webhookTarget = { appUrl };
    await setUpAlerts(appUrl, options.shop, shopify, slack.webhookUrl);
    // The install's backfill reads the history as it was at install: the demo's own traffic begins after that read.
    await untilBulkReadStarted(shopify.api(options.shop));
  } catch (error) {
    await app.stop();
    await shopify.close();
    await mailbox.close();
    await slack.close();
    throw error;
  }
  const traffic = await startDemoTraffic({
    shopify,
    shop: options.shop,
    appUrl,
    secret: TEST_APP.secret,
    liveEveryMs: options.liveEveryMs,
    historyCount: options.historyCount,
  });
  return {
    adminUrl: `${shopifyOrigin}/store/${options.shop.replace(".myshopify.com", "")}/apps/refund-verifier`,
    appUrl,
    shopify,
    traffic,
    mailbox,
    slack,
    async stop() {
      traffic.stop();
      await app.stop();
      await shopify.close();
      await mailbox.close();
      await slack.close();
    },
  };
}

/**
 * The built app as production runs it (`npm start`, its worker inside unless VERIFIER_WORKER=off),
 * its Shopify requests sent to a simulated shop on loopback. Resolves once /healthz answers.
 */
export async function startAppProcess(options: {
  /** "free": a free port, found again if another process takes it before the app binds it. */
  port: number | "free";
  databaseUrl: string;
  shopifyOrigin: string;
  log?: "inherit" | "ignore" | "capture";
  env?: Record<string, string>;
}) {
  for (let tries = 1; ; tries++) {
    const port = options.port === "free" ? await freePort() : options.port;
    try {
      return await startAppOn(port, options);
    } catch (error) {
      // On a busy machine an outgoing connection can take the port between freePort() and the app's listen.
      if (!(error instanceof PortTaken) || options.port !== "free" || tries >= 5) throw error;
    }
  }
}

class PortTaken extends Error {}

async function startAppOn(port: number, options: Parameters<typeof startAppProcess>[0]) {
  const appUrl = `http://localhost:${port}`;
  const server: ChildProcess = spawn("node", ["server/index.mjs"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      SHOPIFY_API_KEY: TEST_APP.apiKey,
      SHOPIFY_API_SECRET: TEST_APP.secret,
      SESSION_SECRET_KEY: TEST_APP.sessionSecretKey,
      SCOPES: DEMO_SCOPES,
      SHOPIFY_APP_URL: appUrl,
      SHOPIFY_ADMIN_API_ORIGIN: options.shopifyOrigin,
      ...options.env,
    },
  });
  let exited = false;
  // All of it when the caller reads it; otherwise its end, for the error when the app does not start.
  let output = "";
  const keep = (chunk: Buffer) => {
    output += chunk;
    if (options.log !== "capture" && output.length > 8_000) output = output.slice(-4_000);
  };
  server.stdout?.on("data", keep);
  server.stderr?.on("data", keep);
  if ((options.log ?? "inherit") === "inherit") {
    server.stdout?.pipe(process.stdout);
    server.stderr?.pipe(process.stderr);
  }
  server.once("exit", () => (exited = true));
  const stop = async () => {
    if (exited) return;
    const gone = new Promise((resolve) => server.once("exit", resolve));
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      return;
    }
    await gone;
  };
  for (let i = 0; ; i++) {
    if (exited) {
      if (/EADDRINUSE/.test(output)) throw new PortTaken(`port ${port} was taken before the app could listen on it`);
      throw new Error(`the app exited while starting:\n${output.slice(-2000)}`);
    }
    if (
      await fetch(`${appUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 150) {
      await stop();
      throw new Error("the app did not start within 30 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url: appUrl, pid: server.pid!, stop, output: () => output };
}

async function untilBulkReadStarted(api: AdminApi): Promise<void> {
  for (let i = 0; i < 300 && api.bulk.stats.started === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  if (api.bulk.stats.started === 0) throw new Error("the app did not start reading the shop's history within 30 s");
}

/**
 * Installs the app in a simulated shop the way the admin does: an embedded request with a session
 * token (staff member 42's, the shop's owner), which the app exchanges for the shop's offline token
 * and that person's online one. Shopify sends webhooks only after that.
 */
export async function installApp(appUrl: string, shop: string): Promise<void> {
  const host = Buffer.from(`admin.shopify.com/store/${shop.split(".")[0]}`).toString("base64url");
  const token = mintSessionToken({ shop, apiKey: TEST_APP.apiKey, secret: TEST_APP.secret });
  const installed = await fetch(`${appUrl}/app?embedded=1&shop=${shop}&host=${host}&id_token=${token}`, { headers: { "User-Agent": CHROME_UA } });
  if (!installed.ok) throw new Error(`installing the app in the simulated shop failed: HTTP ${installed.status}`);
}

/**
 * The demo shop as a merchant would set it up: alerts to an address and a Slack channel (saved
 * through the app's settings page, as a person does) and a Flow workflow on each of the app's
 * triggers (Flow tells the app through its lifecycle callback).
 */
async function setUpAlerts(appUrl: string, shop: string, shopify: FakeShopify, slackUrl: string): Promise<void> {
  const current = await embeddedFetch(appUrl, shop)(dataPath("/app/settings/alerts", "routes/app.settings.alerts"));
  const { settings } = (await current.json()) as { settings: { revision: number } };
  const form = new URLSearchParams({
    intent: "save",
    revision: String(settings.revision),
    emailRecipients: `owner@${shop.replace(".myshopify.com", "")}.example`,
    slackUrl,
    delivery: "both",
    digestHour: "8",
  });
  for (const trigger of FLOW_TRIGGERS) form.append("verdicts", trigger.verdict);
  form.append("verdicts", MONEY_CHOICE);
  const saved = await embeddedFetch(appUrl, shop)(dataPath("/app/settings/alerts", "routes/app.settings.alerts"), { method: "POST", body: form });
  if (!saved.ok) throw new Error(`saving the demo's alert settings failed: HTTP ${saved.status} ${await saved.text()}`);
  for (const trigger of ALL_FLOW_TRIGGERS) {
    const answer = await shopify.setFlowWorkflow(shop, trigger.handle, true);
    if (!answer.ok) throw new Error(`turning on the demo's Flow workflow failed: HTTP ${answer.status}`);
  }
}
