import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { createPrismaClient } from "../../app/db/client";
import { startDemo, type Demo, type DemoOptions } from "../../scripts/demo-server";
import { launchChromium } from "./chromium";
import { createTestDatabase } from "./database";
import { waitFor } from "./wait";

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
    await waitFor(`the demo to settle (${what})`, async () => (count = await left()) === 0, Math.max(deadline - Date.now(), 0)).catch(() => {
      throw new Error(`the demo did not settle within ${timeoutMs / 1000} s: ${count} ${what}`);
    });
  }
}

export const SCREENS = "test-results/screens";

export interface BrowserDemo {
  demo: Demo;
  /** The demo's database, to find what a screen should show and check what an action changed. */
  db: Db;
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
    return { demo: started.demo, db: started.db, browser: started.browser, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
