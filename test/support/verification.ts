import pino from "pino";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/lib/db/client";
import type { Worker, WorkerOptions } from "../../app/worker.server";
import type { FakeShop } from "../../fake-shopify/shop";
import { newDelivery, refundWebhookBody, sendDelivery, TOPIC_PATHS, type Delivery } from "../../fake-shopify/webhooks";
import { startTestApp, type TestApp } from "./app-server";
import { TEST_APP } from "./credentials";
import { installShop } from "./sessions";

/**
 * The test's clock: the worker reads it, the fake Shopify stamps its records with it, and the
 * contract's timing is judged by it. It reads the wall clock until the test moves it ahead, then
 * stands still there until the wall clock catches up: so it is never behind the app's routes,
 * which stamp the wall clock (a refund Shopify makes is never older than the record the app
 * minted for it; what a route makes due now is due for the worker), and a test that moved it
 * reads exact intervals however fast the machine runs (`freeze` moves it ahead to stand still).
 */
export class TestClock {
  private setMs: number;
  constructor(ms = Date.now()) {
    this.setMs = ms;
  }
  get ms(): number {
    return Math.max(this.setMs, Date.now());
  }
  set ms(value: number) {
    this.setMs = value;
  }
  now = () => new Date(this.ms);
  advance(ms: number) {
    this.setMs = this.ms + ms;
  }
  /** A minute ahead of the wall clock, where it stands still for the rest of a test (of seconds). */
  freeze() {
    this.advance(60_000);
  }
}

export interface VerificationHarness {
  app: TestApp;
  db: PrismaClient;
  clock: TestClock;
  shop: FakeShop;
  domain: string;
  worker: Worker;
  newWorker(options?: Partial<WorkerOptions>): Worker;
  deliver(delivery: Delivery): Promise<Response>;
  refundDelivery(refund: Parameters<typeof refundWebhookBody>[1]): Delivery;
  /**
   * Puts Shopify back on the wall clock, for a test whose worker is another process (it reads the
   * wall clock): Shopify's records and bulk operations then follow real time, as that worker does.
   */
  useWallClock(): void;
  /** Runs worker passes, jumping the clock to each next due time, until nothing is pending or the budget is spent. */
  settle(budgetMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** The built app (in-app worker off) plus a worker in the test process on a test clock. */
export async function startVerificationHarness(
  domain = "verify-shop.myshopify.com",
  // Shopify Plus rates by default (1,000 points a second); throttling tests pass a smaller bucket.
  bucket: { maximumAvailable?: number; restoreRate?: number } = { maximumAvailable: 2000, restoreRate: 1000 },
  env: Record<string, string> = {},
): Promise<VerificationHarness> {
  const app = await startTestApp({ env: { VERIFIER_WORKER: "off", ...env }, bucket });
  const db = createPrismaClient(app.databaseUrl);
  await installShop(db, app.shopify, domain);
  const clock = new TestClock();
  // One clock for the worker and for Shopify's records (refunds, orders, bulk operations, webhooks):
  // a test that moves it moves both, so nothing depends on how fast the machine runs the test.
  app.shopify.now = clock.now;
  app.shopify.webhookTarget = { appUrl: app.url };
  const { createWorker } = await import("../../app/worker.server");
  const quiet = pino({ enabled: false });
  // Sweeps every hour unless a test asks for the default (15 minutes) with sweepIntervalMs: undefined.
  const newWorker = (options: Partial<WorkerOptions> = {}) => createWorker({ db, now: clock.now, logger: quiet, ...{ sweepIntervalMs: 3600_000 }, ...options });
  const worker = newWorker();
  const harness: VerificationHarness = {
    app,
    db,
    clock,
    domain,
    shop: app.shopify.shop(domain),
    worker,
    newWorker,
    deliver: (delivery) => sendDelivery(app.url, TOPIC_PATHS[delivery.topic], delivery, TEST_APP.secret),
    refundDelivery: (refund) => newDelivery("refunds/create", domain, refundWebhookBody(app.shopify.shop(domain), refund), clock.now()),
    useWallClock: () => (app.shopify.now = () => new Date()),
    async settle(budgetMs = 8 * 24 * 3600_000) {
      const end = clock.ms + budgetMs;
      for (let pass = 0; pass < 10_000; pass++) {
        await worker.runOnce();
        const next = await db.operation.findFirst({ where: { status: "PENDING", nextDueAt: { not: null } }, orderBy: { nextDueAt: "asc" } });
        if (!next?.nextDueAt) return;
        if (next.nextDueAt.getTime() > end) return;
        if (next.nextDueAt.getTime() > clock.ms) clock.ms = next.nextDueAt.getTime();
      }
      const stuck = await db.operation.findFirst({ where: { status: "PENDING", nextDueAt: { not: null } }, orderBy: { nextDueAt: "asc" } });
      throw new Error(`settle: too many passes; next due ${JSON.stringify(stuck)} at clock ${clock.now().toISOString()}`);
    },
    async close() {
      await db.$disconnect();
      await app.close();
    },
  };
  return harness;
}

export async function operationFor(db: PrismaClient, refundGid: string) {
  return db.operation.findFirstOrThrow({ where: { refundGid }, include: { evaluations: { orderBy: { evaluatedAt: "asc" } }, observations: true } });
}

export const refundGid = (id: bigint) => `gid://shopify/Refund/${id}`;

/** Runs the backfill pass, moving the test clock past each poll (and Shopify's bulk operation with it), until the shop's latest backfill has ended (done or failed). */
export async function backfillToEnd(h: VerificationHarness, shop: string, passes = 200) {
  for (let i = 0; i < passes; i++) {
    await h.worker.runBackfills();
    const backfill = await h.db.backfill.findFirstOrThrow({ where: { shop }, orderBy: { createdAt: "desc" } });
    if (backfill.state === "done" || backfill.state === "failed") return backfill;
    h.clock.advance(10_000);
  }
  throw new Error("the backfill did not end");
}
