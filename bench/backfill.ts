import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createPrismaClient } from "../app/lib/db/client";
import { FakeShopify } from "../fake-shopify/server";
import { seedHistory } from "../fake-shopify/history";
import { TEST_APP } from "../test/support/credentials";
import { installShop } from "../test/support/sessions";
import { fakeShopifyAppEnv, migrate, root, row, scratchSqlite, type BenchRow } from "./support";

const run = promisify(execFile);

interface Side {
  seconds: number;
  verified: number;
  maxRssMiB: number;
  requests: number;
  cost: number;
}

/**
 * 6. A shop's history of `count` refunds verified by the backfill: one bulk operation whose JSONL is
 * streamed, against the same refunds read with paginated `orders` queries (8 orders a page) and
 * verified by the same code. Each side runs in its own process (its peak RSS is its own) against one
 * fake Shopify with no rate limit, on its own SQLite database; Shopify's cost is counted in points.
 */
export async function benchBackfill(count: number): Promise<BenchRow[]> {
  const shopify = new FakeShopify(TEST_APP, { maximumAvailable: 1e9, restoreRate: 1e9 });
  const sides: Record<string, Side> = {};
  const origin = await shopify.listen();
  try {
    for (const mode of ["bulk", "paginated"] as const) {
      const shop = `bench-history-${mode}.myshopify.com`;
      seedHistory(shopify.addShop(shop), count, { days: 50 });
      const databaseUrl = scratchSqlite(`backfill-${mode}`);
      migrate(databaseUrl);
      const db = createPrismaClient(databaseUrl);
      await installShop(db, shopify, shop);
      await db.$disconnect();
      const { stdout } = await run("node", ["--import", "tsx", "bench/backfill-child.ts", mode, shop], {
        cwd: root,
        maxBuffer: 1 << 20,
        env: { ...process.env, ...fakeShopifyAppEnv(databaseUrl, origin), LOG_LEVEL: "warn" },
      });
      sides[mode] = JSON.parse(stdout.trim().split("\n").pop()!) as Side;
      if (sides[mode].verified < count * 0.9) throw new Error(`backfill bench (${mode}): ${sides[mode].verified} of ${count} verified`);
    }
  } finally {
    await shopify.close();
  }
  const { bulk, paginated } = sides;
  const baseline = "paginated orders queries (8 orders a page, 891 points: the most under the 1,000-point limit), same verification";
  const note = `${count} refunds over 50 days, one shop; bulk ${bulk.requests} Shopify requests (${bulk.cost} points) vs paginated ${paginated.requests} (${paginated.cost} points: ${Math.round(paginated.cost / 100)} s of a Standard plan's 100 points/s); fake Shopify without rate limit, each side in its own process on SQLite`;
  return [
    row(
      "6. history backfill",
      "refunds verified per second",
      bulk.verified / bulk.seconds,
      paginated.verified / paginated.seconds,
      "refunds/s",
      baseline,
      note,
    ),
    row("6. history backfill", "peak memory (RSS) of the process", bulk.maxRssMiB, paginated.maxRssMiB, "MiB", baseline),
    row("6. history backfill", "Shopify query cost", bulk.cost, paginated.cost, "points", baseline),
  ];
}
