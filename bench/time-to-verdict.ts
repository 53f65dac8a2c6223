import { createPrismaClient } from "../app/lib/db/client";
import { REFUND_CREATED } from "../app/contracts/registry.server";
import { FakeShopify } from "../fake-shopify/server";
import { newDelivery, refundWebhookBody, sendDelivery, TOPIC_PATHS } from "../fake-shopify/webhooks";
import { installApp, startAppProcess } from "../scripts/demo-server";
import { TEST_APP } from "../test/support/credentials";
import { migrate, quantile, row, scratchSqlite, type BenchRow } from "./support";

const SHOP = "bench-verdict.myshopify.com";

/** 3. From a webhook's arrival to the recorded VERIFIED, through the real app and its in-app worker. */
export async function benchTimeToVerdict(count: number): Promise<BenchRow[]> {
  const databaseUrl = scratchSqlite("verdict");
  migrate(databaseUrl);
  const shopify = new FakeShopify(TEST_APP, { maximumAvailable: 2000, restoreRate: 1000 });
  const shop = shopify.addShop(SHOP);
  const origin = await shopify.listen();
  const app = await startAppProcess({
    port: "free",
    databaseUrl,
    shopifyOrigin: origin,
    log: "ignore",
    env: { VERIFIER_SWEEP_INTERVAL_MS: "3600000" },
  });
  const db = createPrismaClient(databaseUrl);
  try {
    await installApp(app.url, SHOP);
    for (let i = 0; i < count; i++) {
      const order = shop.createOrder({ amount: "50.00" });
      const refund = shop.createRefund(order.id, { amount: "20.00" });
      await sendDelivery(app.url, TOPIC_PATHS["refunds/create"], newDelivery("refunds/create", SHOP, refundWebhookBody(shop, refund)), TEST_APP.secret);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (let i = 0; i < 900 && (await db.operation.count({ where: { status: "VERIFIED" } })) < count; i++) await new Promise((r) => setTimeout(r, 100));
    const ops = await db.operation.findMany({ where: { status: "VERIFIED" } });
    if (ops.length !== count) throw new Error(`time-to-verdict bench: ${ops.length} of ${count} verified`);
    const deliveries = new Map((await db.webhookDelivery.findMany()).map((d) => [d.refundGid, d.receivedAt.getTime()]));
    const fromArrival = ops.map((op) => op.decidedAt!.getTime() - deliveries.get(op.refundGid)!);
    const fromCreation = ops.map((op) => op.decidedAt!.getTime() - op.startedAt.getTime());
    // No verdict is final before the contract's stale read window has passed since created_at.
    const floor = REFUND_CREATED.contract.timing.stale_read_window_ms;
    const note = `${count} refunds at 20/s; the first check is 1,000 ms after the refund's created_at, the verdict final once the ${floor / 1000} s stale read window has passed (whole seconds)`;
    return [
      row("3. time to verdict", "median, webhook arrival → VERIFIED", quantile(fromArrival, 0.5), floor, "ms", "contract's stale read window", note),
      row("3. time to verdict", "p99, webhook arrival → VERIFIED", quantile(fromArrival, 0.99), floor, "ms", "contract's stale read window"),
      row("3. time to verdict", "median, refund created_at → VERIFIED", quantile(fromCreation, 0.5), floor, "ms", "contract's stale read window"),
    ];
  } finally {
    await db.$disconnect();
    await app.stop();
    await shopify.close();
  }
}
