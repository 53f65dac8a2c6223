import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../app/db/client";
import { REFUND_CREATED } from "../app/contracts/registry.server";
import { figures, listRefunds, rowFilter } from "../app/dashboard/dashboard.server";
import { parseFilters } from "../app/dashboard/filters";
import { migrate, postgresDatabase, quantile, row, scratchSqlite, type BenchRow } from "./support";

const SHOP = "bench-dashboard.myshopify.com";
const DASHBOARD_INDEXES = [
  "OperationReason_shop_class_idx",
  "OperationReason_shop_reason_idx",
  "Operation_shop_startedAt_id_idx",
  "Operation_shop_status_startedAt_id_idx",
  "Operation_shop_reviewState_decidedAt_idx",
  "Operation_shop_orderGid_idx",
  "Operation_status_nextDueAt_idx",
];
const STATUSES = [...Array(85).fill("VERIFIED"), ...Array(5).fill("CONTRADICTED"), ...Array(4).fill("FAILED"), "UNVERIFIABLE", ...Array(5).fill("PENDING")];
const REASONS: Record<string, string[]> = {
  CONTRADICTED: ["refund_amount_mismatch", "duplicate_refund_present", "refund_on_wrong_order"],
  FAILED: ["transaction_failed"],
  UNVERIFIABLE: ["evidence_unavailable_before_timeout"],
  VERIFIED: ["all_conditions_hold"],
  PENDING: ["awaiting_evidence"],
};
const CLASS_OF: Record<string, string> = {
  refund_amount_mismatch: "wrong amount",
  duplicate_refund_present: "duplicate side effect",
  refund_on_wrong_order: "wrong subject",
};

async function seed(db: PrismaClient, shop: string, count: number, now: number) {
  for (let start = 0; start < count; start += 5000) {
    await db.operation.createMany({
      data: Array.from({ length: Math.min(5000, count - start) }, (_, k) => {
        const i = start + k;
        const status = STATUSES[(i * 7919) % STATUSES.length];
        const reason = REASONS[status][i % REASONS[status].length];
        const minor = BigInt(100 + ((i * 104729) % 50000));
        const startedAt = new Date(now - i * 26_000);
        return {
          id: `${shop}-${i}`,
          shop,
          refundGid: `gid://shopify/Refund/${9_000_000_000_000_000 + i}`,
          orderGid: `gid://shopify/Order/${8_000_000_000_000_000 + i}`,
          orderName: `#${1001 + i}`,
          origin: i % 10 === 0 ? "reconciliation" : "webhook",
          contractId: "shopify.refund.created",
          contractVersion: "1.0.0",
          contractHash: REFUND_CREATED.computedHash,
          contractDeclaredHash: REFUND_CREATED.declaredHash,
          amount: `${minor / 100n}.${String(minor % 100n).padStart(2, "0")}`,
          currency: i % 9 === 0 ? "EUR" : "USD",
          amountMinor: minor,
          startedAt,
          status,
          reason,
          reasons: JSON.stringify([reason]),
          classes: JSON.stringify(CLASS_OF[reason] ? [CLASS_OF[reason]] : []),
          escalate: status !== "VERIFIED" && status !== "PENDING",
          attempts: 1,
          nextDueAt: status === "PENDING" ? new Date(now + 60_000) : null,
          decidedAt: status === "PENDING" ? null : new Date(startedAt.getTime() + 1500),
          reviewState: status !== "VERIFIED" && status !== "PENDING" ? (i % 3 === 0 ? "resolved" : "open") : "none",
        };
      }),
    });
    // The reasons that held, as rows (what the problem filters read).
    await db.operationReason.createMany({
      data: Array.from({ length: Math.min(5000, count - start) }, (_, k) => start + k).flatMap((i) => {
        const status = STATUSES[(i * 7919) % STATUSES.length];
        const reason = REASONS[status][i % REASONS[status].length];
        if (status !== "CONTRADICTED" && status !== "FAILED") return [];
        return [{ operationId: `${shop}-${i}`, shop, reason, kind: status === "FAILED" ? "rule" : "contradiction", class: CLASS_OF[reason] ?? null }];
      }),
    });
  }
}

async function timeMs(fn: () => Promise<unknown>, runs: number): Promise<number> {
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return quantile(samples, 0.5);
}

/** Seeds 100,000 refunds (and 20,000 of another shop), then measures with and without the dashboard's indexes. */
async function seedAndMeasure(db: PrismaClient, label: string, analyze: string): Promise<BenchRow[]> {
  await seed(db, SHOP, 100_000, Date.now());
  await seed(db, "neighbour.myshopify.com", 20_000, Date.now());
  await db.$executeRawUnsafe(analyze);
  return measure(db, label, async (client) => {
    for (const index of DASHBOARD_INDEXES) await client.$executeRawUnsafe(`DROP INDEX IF EXISTS "${index}"`);
  });
}

async function measure(db: PrismaClient, label: string, dropIndexes: (db: PrismaClient) => Promise<void>): Promise<BenchRow[]> {
  const now = Date.now();
  const filtered = parseFilters(new URLSearchParams("verdict=CONTRADICTED&class=wrong_amount"));
  const firstPage = () => Promise.all([listRefunds(db, REFUND_CREATED.contract, SHOP, filtered), db.operation.count({ where: rowFilter(SHOP, filtered) })]);
  const figureQuery = () => figures(db, SHOP, parseFilters(new URLSearchParams()), new Date(now));
  const runs = 15;
  const indexed = { page: await timeMs(firstPage, runs), figures: await timeMs(figureQuery, runs) };
  await dropIndexes(db);
  const bare = { page: await timeMs(firstPage, 5), figures: await timeMs(figureQuery, 5) };
  const note = `100,000 refunds in the shop (+20,000 in another); median of ${runs} (indexed) / 5 (no index) runs`;
  return [
    row(`5. dashboard (${label})`, "filtered first page + count (wrong amount)", indexed.page, bare.page, "ms", "same query, dashboard indexes dropped", note),
    row(
      `5. dashboard (${label})`,
      "figures: counts and money per currency, 30 days",
      indexed.figures,
      bare.figures,
      "ms",
      "same query, dashboard indexes dropped",
    ),
  ];
}

export async function benchDashboardSqlite(): Promise<BenchRow[]> {
  const url = scratchSqlite("dashboard");
  migrate(url);
  const db = createPrismaClient(url);
  try {
    return await seedAndMeasure(db, "SQLite", "ANALYZE");
  } finally {
    await db.$disconnect();
  }
}

/** PostgreSQL through a second Prisma client generated for it (the app's own is SQLite in this run). */
export async function benchDashboardPostgres(serverUrl: string): Promise<BenchRow[]> {
  const database = await postgresDatabase(serverUrl, `rv_bench_${process.pid}`);
  const db = await database.prisma();
  try {
    return await seedAndMeasure(db, "PostgreSQL", 'ANALYZE "Operation"');
  } finally {
    await db.$disconnect();
    await database.drop();
  }
}
