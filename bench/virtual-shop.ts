import { execFile } from "node:child_process";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import type { PrismaClient } from "@prisma/client";
import pino from "pino";
import { createPrismaClient } from "../app/lib/db/client";
import { reloadConfig } from "../app/lib/config/env.server";
import type { FakeRefund, FakeShop } from "../fake-shopify/shop";
import { FakeShopify } from "../fake-shopify/server";
import { refundWebhookBody } from "../fake-shopify/webhooks";
import { TEST_APP } from "../test/support/credentials";
import { installShop } from "../test/support/sessions";
import { fakeShopifyAppEnv, migrate, root, scratchSqlite, type CountedStats } from "./support";

export const quiet = pino({ enabled: false });

/**
 * One installed shop on a fake Shopify of the Standard plan's bucket (1,000 points, 100/s) whose
 * clock the bench moves: the fake's bucket and the app's gateway share it, so a figure is what the
 * rate limit allows, not what this machine does. On a scratch SQLite, the app's configuration
 * pointed at both. For the benches that follow a refund past its created verdict (parts 2, 9, 10).
 */
export interface VirtualShop {
  databaseUrl: string;
  domain: string;
  shopify: FakeShopify;
  shop: FakeShop;
  db: PrismaClient;
  /** The virtual clock, in ms: the bench moves it; waits on the bucket move it too. */
  clock: { ms: number };
  now: () => Date;
  close(): Promise<void>;
}

export async function virtualShop(name: string, domain: string, startsAt: string, grant: (shop: FakeShop) => void = () => {}): Promise<VirtualShop> {
  const databaseUrl = scratchSqlite(name);
  migrate(databaseUrl);
  const clock = { ms: Date.parse(startsAt) };
  const shopify = new FakeShopify(TEST_APP, { maximumAvailable: 1000, restoreRate: 100 });
  shopify.now = () => new Date(clock.ms);
  shopify.bucketNowMs = () => clock.ms;
  const shop = shopify.addShop(domain);
  grant(shop);
  const origin = await shopify.listen();
  Object.assign(process.env, fakeShopifyAppEnv(databaseUrl, origin));
  reloadConfig();
  const db: PrismaClient = createPrismaClient(databaseUrl);
  await installShop(db, shopify, domain);
  // The session holds what the shop granted (the fake's shop grants the payments scopes).
  await db.session.updateMany({ where: { shop: domain }, data: { scope: [...shop.grantedScopes].join(",") } });
  return {
    databaseUrl,
    domain,
    shopify,
    shop,
    db,
    clock,
    now: () => new Date(clock.ms),
    async close() {
      await db.$disconnect();
      await shopify.close();
    },
  };
}

/** The app's gateway to the fake, on the virtual clock: a wait on the bucket moves the clock instead of sleeping. */
export async function virtualGateway(world: VirtualShop) {
  const { offlineGraphql } = await import("../app/shopify.server");
  const { ShopifyGateway } = await import("../app/shopify/admin/gateway.server");
  return new ShopifyGateway(
    offlineGraphql,
    () => world.clock.ms,
    async (ms: number) => void (world.clock.ms += ms),
  );
}

/** Stores a refund's refunds/create delivery as the intake stores it (no HTTP), received at `receivedAt`. */
export async function deliveryOf(world: VirtualShop, refund: FakeRefund, at: { index: number; triggeredAt: Date; receivedAt: Date }) {
  const { parseRefundWebhook } = await import("../app/webhooks/refund-payload");
  const { ADMIN_API_VERSION } = await import("../app/shopify/api-version");
  const payload = parseRefundWebhook(refundWebhookBody(world.shop, refund));
  return {
    shop: world.domain,
    webhookId: `w${at.index}`,
    eventId: `e${at.index}`,
    topic: "REFUNDS_CREATE",
    triggeredAt: at.triggeredAt,
    apiVersion: ADMIN_API_VERSION,
    refundGid: payload.refundGid,
    orderGid: payload.orderGid,
    refundCreatedAt: new Date(payload.createdAt),
    amount: payload.amount,
    currency: payload.currency,
    receivedAt: at.receivedAt,
  };
}

/**
 * The created-level verification on the virtual clock: the stored deliveries opened, then every
 * read-back due by now; with `drain`, the clock moved to each next due time until none is left.
 */
export async function verifyCreated(world: VirtualShop, drain: boolean, gateway: Awaited<ReturnType<typeof virtualGateway>>): Promise<void> {
  const { processDue, nextDueTime } = await import("../app/verification/runtime.server");
  const { openDeliveredRefunds } = await import("../app/verification/intake.server");
  const { REFUND_CREATED } = await import("../app/contracts/registry.server");
  const helpers = { db: world.db, now: world.now, workerId: "bench", logger: quiet };
  while (await openDeliveredRefunds(helpers, REFUND_CREATED));
  for (let pass = 0; pass < 10_000; pass++) {
    await processDue({ ...helpers, contract: REFUND_CREATED, gateway });
    const next = await nextDueTime(world.db);
    if (!next || (!drain && next.getTime() > world.clock.ms)) return;
    world.clock.ms = Math.max(world.clock.ms, next.getTime());
  }
  throw new Error(`${world.domain}: the created-level verification did not end`);
}

/**
 * A measurement in a process of its own, `file` run as a script (the app's Shopify client binds to
 * the first database and fake Shopify it is imported with): what the script printed last, parsed.
 */
export async function measureInChild<Measured>(file: string, count: number): Promise<Measured> {
  const { stdout } = await promisify(execFile)("node", ["--import", "tsx", file, String(count)], {
    cwd: root,
    maxBuffer: 1 << 20,
    env: { ...process.env, LOG_LEVEL: "warn" },
  });
  return JSON.parse(stdout.trim().split("\n").pop()!) as Measured;
}

/** The script's side of measureInChild: when `moduleUrl` is the script run, measures and prints one JSON line. */
export async function runAsScript(moduleUrl: string, measure: (count: number) => Promise<unknown>): Promise<void> {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  process.stdout.write(`${JSON.stringify(await measure(Number(process.argv[2] ?? 1000)))}\n`);
  process.exit(0);
}

/** A side's requests by operation, as the fake counted them: "12 SettlementTransactions + 3 PaymentsLedger". */
export const requestsInWords = (side: CountedStats) =>
  Object.entries(side.byOperation)
    .map(([name, n]) => `${n} ${name}`)
    .join(" + ");

/** The app's modules a bench drives, imported once the app's configuration points at the virtual shop. */
export async function appModules() {
  const [{ offlineGraphql }, { ThrottleGate }, { openDeliveryStore }, { createWorker }] = await Promise.all([
    import("../app/shopify.server"),
    import("../app/shopify/admin/throttle"),
    import("../app/webhooks/delivery-store.server"),
    import("../app/worker.server"),
  ]);
  return { offlineGraphql, ThrottleGate, openDeliveryStore, createWorker };
}

/**
 * The baselines' requests, one at a time on the virtual clock: each waits on the bucket as the
 * app's gateway does (a throttle gate of its own), and a THROTTLED answer is retried a second later.
 */
export async function oneAtATime(world: VirtualShop, bench: string) {
  const { offlineGraphql, ThrottleGate } = await appModules();
  const graphql = await offlineGraphql(world.domain);
  const gate = new ThrottleGate();
  return async (query: string, variables: Record<string, unknown>, cost: number): Promise<Record<string, unknown>> => {
    for (;;) {
      world.clock.ms += gate.waitMs(cost, world.clock.ms);
      const body = await graphql(query, variables);
      gate.observe(body.extensions?.cost, world.clock.ms);
      if (!body.errors?.length) return body.data as Record<string, unknown>;
      if (body.errors.some((e) => e.extensions?.code !== "THROTTLED")) throw new Error(`${bench} bench baseline: ${JSON.stringify(body.errors)}`);
      world.clock.ms += 1000;
    }
  };
}
