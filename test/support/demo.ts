import { mkdirSync } from "node:fs";
import type { Browser, Frame, Page } from "playwright-core";
import { createPrismaClient } from "../../app/lib/db/client";
import { startDemo, type Demo, type DemoOptions } from "../../scripts/demo-server";
import { launchChromium } from "./chromium";
import { createTestDatabase } from "./database";
import { waitFor } from "./wait";
import { CHROME_UA, PHONE_UA, dataPath, embeddedFetch } from "./embedded";

type Db = ReturnType<typeof createPrismaClient>;

/**
 * Waits until the demo's refunds have verdicts. The app acknowledges a delivery before its operation
 * exists (its worker opens it on the next pass), so first every stored delivery is opened; then no
 * operation is left PENDING (`dueOnly`: none left that is already due, for a test that wants some
 * still waiting out the contract's 20 s stale-read window).
 */
export async function untilDemoDecided(db: Db, { dueOnly = false, timeoutMs = 180_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const unopened = () => db.webhookDelivery.count({ where: { openedAt: null } });
  const pending = () => db.operation.count({ where: { status: "PENDING", ...(dueOnly ? { nextDueAt: { lte: new Date() } } : {}) } });
  for (const [left, what] of [
    [unopened, "deliveries not opened"],
    [pending, dueOnly ? "operations due and PENDING" : "operations PENDING"],
  ] as const) {
    let count = 0;
    await waitFor(`the demo to settle (${what})`, async () => (count = await left()) === 0, Math.max(deadline - Date.now(), 0)).catch(async () => {
      // What is still pending, as the worker left it: enough to tell a slow machine from a stuck row.
      const stuck = await db.operation.findMany({
        where: { status: "PENDING" },
        take: 5,
        select: { refundGid: true, origin: true, attempts: true, startedAt: true, nextDueAt: true, claimedBy: true, claimedUntil: true, revision: true },
      });
      throw new Error(`the demo did not settle within ${timeoutMs / 1000} s: ${count} ${what}; ${JSON.stringify(stuck)}`);
    });
  }
}

export const SCREENS = "test-results/screens";

export interface BrowserDemo {
  demo: Demo;
  /** The demo's database, to find what a screen should show and check what an action changed. */
  db: Db;
  /** That database's URL: for a worker of the test's own on it (a pass run at once rather than on the app's schedule). */
  databaseUrl: string;
  browser: Browser;
  /** Closes Chromium, stops the demo and drops its database. */
  stop(): Promise<void>;
}

/**
 * What every browser test file starts from: the demo (the built app, its worker inside, on the
 * suite's database: SQLite, or PostgreSQL with TEST_DATABASE_URL), its seeded refunds decided
 * (`settle`: all of them, only those already due, or none), and Debian's Chromium.
 */
export async function startBrowserDemo(
  options: Pick<DemoOptions, "shop" | "historyCount" | "preInstallRefunds">,
  settle: "decided" | "due" | "none" = "decided",
): Promise<BrowserDemo> {
  mkdirSync(SCREENS, { recursive: true });
  const database = await createTestDatabase();
  const started: { demo?: Demo; db?: Db; browser?: Browser } = {};
  const stop = async () => {
    await started.browser?.close();
    await started.db?.$disconnect();
    await started.demo?.stop();
    await database.drop();
  };
  try {
    started.demo = await startDemo({ appPort: "free", databaseUrl: database.url, prepared: true, liveEveryMs: 0, log: "ignore", ...options });
    started.db = createPrismaClient(database.url);
    if (settle !== "none") await untilDemoDecided(started.db, { dueOnly: settle === "due" });
    started.browser = await launchChromium();
    return { demo: started.demo, db: started.db, databaseUrl: database.url, browser: started.browser, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The app's page at `path`: inside the simulated admin at 1280 px, or at a phone's width on its
 * own (full width, as Shopify's mobile admin shows an embedded app), with a phone's user agent.
 */
export async function openApp(
  browser: Browser,
  demo: Demo,
  path: string,
  width: 1280 | 390,
  /** Called with the page before it loads: to listen to its console or add a script to every frame. */
  before?: (page: Page) => Promise<void>,
): Promise<{ page: Page; frame: Page | Frame }> {
  const admin = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: CHROME_UA })).newPage();
  if (width === 1280) await before?.(admin);
  await admin.goto(`${demo.adminUrl}${path}`);
  if (width === 1280) {
    const frame = await (await admin.locator("#app-frame").elementHandle())!.contentFrame();
    await frame!.waitForSelector("main");
    return { page: admin, frame: frame! };
  }
  const src = (await admin.locator("#app-frame").getAttribute("src"))!;
  await admin.context().close();
  const phone = await (
    await browser.newContext({ viewport: { width, height: 844 }, userAgent: PHONE_UA, deviceScaleFactor: 2, isMobile: true, hasTouch: true })
  ).newPage();
  await before?.(phone);
  await phone.goto(src);
  await phone.waitForSelector("main");
  return { page: phone, frame: phone };
}

/**
 * A refund waiting for approval in the demo's shop, and its request's id: the shop's limit set to
 * $100 a refund by its owner (42), then $180 asked for on a new order by another staff member (77).
 */
export async function askOverTheLimit(demo: Demo, db: Db, shop: string): Promise<string> {
  const as = (userId: string) => embeddedFetch(demo.appUrl, shop, userId);
  const limits = dataPath("/app/settings/limits", "routes/app.settings.limits");
  const page = (await (await as("42")(limits)).json()) as { revision: number };
  const saved = await as("42")(limits, { method: "POST", body: new URLSearchParams({ revision: String(page.revision), people: "", perRefund: "100" }) });
  if (saved.status !== 200) throw new Error(`saving the demo's limits answered ${saved.status}`);
  const order = demo.shopify.shop(shop).createOrder({ amount: "300.00" });
  const body = new URLSearchParams({ intent: "issue", amount: "180.00", formToken: crypto.randomUUID() });
  const asked = await as("77")(dataPath(`/app/orders/${order.id}/refund`, "routes/app.orders.$orderId.refund"), { method: "POST", body });
  if (asked.status !== 202) throw new Error(`asking for a refund over the demo's limit answered ${asked.status}`);
  const record = await db.refundRecord.findFirstOrThrow({ where: { shop, orderId: `gid://shopify/Order/${order.id}` } });
  return (await db.refundApproval.findUniqueOrThrow({ where: { recordId: record.id } })).id;
}
