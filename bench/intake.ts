import { FakeShopify } from "../fake-shopify/server";
import { startAppProcess } from "../scripts/demo-server";
import { createPrismaClient } from "../app/db/client";
import { installShop } from "../test/support/sessions";
import { TEST_APP } from "../test/support/credentials";
import { freePort, migrate, offerLoad, row, scratchSqlite, startBareServer, type BenchRow } from "./support";

const SHOP = "bench-intake.myshopify.com";

/** 1. Signed refunds/create deliveries through the real app server vs a bare HMAC-checking server. */
export async function benchIntake(seconds: number): Promise<BenchRow[]> {
  const databaseUrl = scratchSqlite("intake");
  migrate(databaseUrl);
  const shopify = new FakeShopify(TEST_APP);
  shopify.addShop(SHOP);
  const origin = await shopify.listen();
  // Installed, as Shopify sends webhooks only then (a delivery for another shop is stored nowhere).
  const db = createPrismaClient(databaseUrl);
  await installShop(db, shopify, SHOP);
  await db.$disconnect();
  const app = await startAppProcess({ port: await freePort(), databaseUrl, shopifyOrigin: origin, log: "ignore", env: { VERIFIER_WORKER: "off" } });
  const bare = await startBareServer(await freePort(), TEST_APP.secret);
  const appUrl = `${app.url.replace("localhost", "127.0.0.1")}/webhooks/refunds/create`;
  try {
    const load = (url: string, rate?: number, connections = 10) => offerLoad({ url, secret: TEST_APP.secret, shop: SHOP, seconds, connections, rate });
    await load(appUrl);
    await load(bare.url);
    const [appMax, bareMax] = [await load(appUrl), await load(bare.url)];
    const rate = 100;
    const [appFixed, bareFixed] = [await load(appUrl, rate), await load(bare.url, rate)];
    // One connection at the same rate: Shopify's deliveries one after another, no burst queueing.
    const [appSteady, bareSteady] = [await load(appUrl, rate, 1), await load(bare.url, rate, 1)];
    for (const [name, r] of [
      ["app", appMax],
      ["app at fixed load", appFixed],
      ["app, one connection", appSteady],
    ] as const) {
      if (r.non2xx || r.errors || r.timeouts) throw new Error(`intake bench: ${name} answered ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
    }
    const stored = createPrismaClient(databaseUrl);
    const deliveries = await stored.webhookDelivery.count();
    await stored.$disconnect();
    if (deliveries < appMax.requests) throw new Error(`intake bench: ${deliveries} deliveries stored for ${appMax.requests} accepted`);
    const note = `${seconds} s per run, 10 connections, unique signed deliveries of an installed shop, each stored with its operation (${deliveries} stored), worker off`;
    return [
      row("1. webhook intake", "deliveries/s, unbounded", appMax.rps, bareMax.rps, "req/s", "bare HMAC-checking Node server", note),
      row("1. webhook intake", `p50 latency at ${rate} req/s`, appFixed.p50, bareFixed.p50, "ms", "bare HMAC-checking Node server"),
      row("1. webhook intake", `p99 latency at ${rate} req/s`, appFixed.p99, bareFixed.p99, "ms", "bare HMAC-checking Node server"),
      row("1. webhook intake", `p50 latency at ${rate} req/s, 1 connection`, appSteady.p50, bareSteady.p50, "ms", "bare HMAC-checking Node server"),
      row("1. webhook intake", `p99 latency at ${rate} req/s, 1 connection`, appSteady.p99, bareSteady.p99, "ms", "bare HMAC-checking Node server"),
    ];
  } finally {
    await app.stop();
    await bare.stop();
    await shopify.close();
  }
}
