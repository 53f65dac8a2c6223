import type { PrismaClient } from "@prisma/client";
import Database from "better-sqlite3";
import pg from "pg";
import { createPrismaClient, sqliteInstant } from "../app/lib/db/client";
import { REFUND_CREATED } from "../app/contracts/registry.server";
import { countRows, figures } from "../app/dashboard/dashboard.server";
import { listRefunds, rowFilter } from "../app/verdicts/rows.server";
import { parseFilters, period } from "../app/verdicts/filters";
import { liveTotals } from "../app/dashboard/rollups.server";
import type { DatabaseKind } from "../app/lib/db/url";
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

type Row = Record<string, string | bigint | number | boolean | Date | null>;

/** The refunds of one shop, as the dashboard's queries see them: the bench's data, whatever writes it. */
function seedRows(shop: string, start: number, count: number, now: number): { operations: Row[]; reasons: Row[] } {
  const operations: Row[] = [];
  const reasons: Row[] = [];
  for (let i = start; i < start + count; i++) {
    const status = STATUSES[(i * 7919) % STATUSES.length];
    const reason = REASONS[status][i % REASONS[status].length];
    const minor = BigInt(100 + ((i * 104729) % 50000));
    const startedAt = new Date(now - i * 26_000);
    const id = `${shop}-${i}`;
    operations.push({
      id,
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
      createdAt: startedAt,
      updatedAt: startedAt,
    });
    // The reasons that held, as rows (what the problem filters read).
    if (status === "CONTRADICTED" || status === "FAILED") {
      reasons.push({ id: `${id}-r`, operationId: id, shop, reason, kind: status === "FAILED" ? "rule" : "contradiction", class: CLASS_OF[reason] ?? null });
    }
  }
  return { operations, reasons };
}

/**
 * Writes rows through the database's own driver, 5,000 a statement or transaction: through Prisma's
 * `createMany` a million rows took 15 (SQLite) to 20 (PostgreSQL) minutes of its query pipeline.
 * Values as Prisma stores them (on SQLite: its instants, booleans as 0/1).
 */
async function rowWriter(url: string, kind: DatabaseKind): Promise<{ write(table: string, rows: Row[]): Promise<void>; close(): Promise<void> }> {
  if (kind === "postgresql") {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return {
      async write(table, rows) {
        if (!rows.length) return;
        const columns = Object.keys(rows[0])
          .map((c) => `"${c}"`)
          .join(", ");
        const json = JSON.stringify(rows, (_key, value) => (typeof value === "bigint" ? Number(value) : value));
        await client.query(`INSERT INTO "${table}" (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::"${table}", $1::json)`, [json]);
      },
      close: () => client.end(),
    };
  }
  const sqlite = new Database(url.slice("file:".length));
  const statements = new Map<string, Database.Statement>();
  const value = (v: Row[string]) => (v instanceof Date ? sqliteInstant(v) : typeof v === "boolean" ? Number(v) : v);
  return {
    async write(table, rows) {
      if (!rows.length) return;
      const columns = Object.keys(rows[0]);
      const insert =
        statements.get(table) ??
        sqlite.prepare(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
      statements.set(table, insert);
      sqlite.transaction(() => rows.forEach((row) => insert.run(...columns.map((c) => value(row[c])))))();
    },
    async close() {
      sqlite.close();
    },
  };
}

async function seed(url: string, kind: DatabaseKind, shop: string, count: number, now: number) {
  const writer = await rowWriter(url, kind);
  try {
    for (let start = 0; start < count; start += 5000) {
      const { operations, reasons } = seedRows(shop, start, Math.min(5000, count - start), now);
      await writer.write("Operation", operations);
      await writer.write("OperationReason", reasons);
    }
  } finally {
    await writer.close();
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

const REFUNDS = 1_000_000;

/** Seeds 1,000,000 refunds over 300 days (and 100,000 of another shop), then measures with and without the read model and the indexes. */
async function seedAndMeasure(db: PrismaClient, url: string, kind: DatabaseKind): Promise<BenchRow[]> {
  const seeding = performance.now();
  // The rollup's triggers keep it as the rows arrive, as they do for the app's own writes.
  await seed(url, kind, SHOP, REFUNDS, Date.now());
  await seed(url, kind, "neighbour.myshopify.com", REFUNDS / 10, Date.now());
  // On PostgreSQL as autovacuum does after a large load: without it an index-only scan still reads every heap page.
  await db.$executeRawUnsafe(kind === "postgresql" ? "VACUUM ANALYZE" : "ANALYZE");
  const seeded = Math.round((performance.now() - seeding) / 1000);
  return measure(db, kind === "postgresql" ? "PostgreSQL" : "SQLite", seeded, async (client) => {
    for (const index of DASHBOARD_INDEXES) await client.$executeRawUnsafe(`DROP INDEX IF EXISTS "${index}"`);
  });
}

async function measure(db: PrismaClient, label: string, seededSeconds: number, dropIndexes: (db: PrismaClient) => Promise<void>): Promise<BenchRow[]> {
  const now = new Date();
  const all = parseFilters(new URLSearchParams());
  const filtered = parseFilters(new URLSearchParams("verdict=CONTRADICTED&class=wrong_amount"));
  // The dashboard's default period: the last 30 days in the shop's zone.
  const { from, to } = period(parseFilters(new URLSearchParams("range=30d"), { now }));
  const contract = REFUND_CREATED.contract;
  const page = (filters: typeof all) => listRefunds(db, contract, SHOP, filters);
  const runs = 15;
  const withReadModel = {
    firstPage: await timeMs(() => Promise.all([page(all), countRows(db, SHOP, all)]), runs),
    figures: await timeMs(() => figures(db, SHOP, parseFilters(new URLSearchParams("range=30d"), { now })), runs),
  };
  // The same answers without the rollup: the count and the period's totals from the rows.
  const withoutReadModel = {
    firstPage: await timeMs(() => Promise.all([page(all), db.operation.count({ where: rowFilter(SHOP, all) })]), 5),
    figures: await timeMs(() => Promise.all([liveTotals(db, SHOP, from, to), db.operation.count({ where: { shop: SHOP, reviewState: "open" } })]), 5),
  };
  const filteredPage = () => Promise.all([page(filtered), countRows(db, SHOP, filtered)]);
  const indexed = await timeMs(filteredPage, runs);
  await dropIndexes(db);
  const bare = await timeMs(filteredPage, 3);
  const part = `5. dashboard (${label})`;
  const note = `${REFUNDS.toLocaleString("en-US")} refunds over 300 days in the shop (+${(REFUNDS / 10).toLocaleString("en-US")} in another), seeded in ${seededSeconds} s; server time, median of ${runs} runs (5 or 3 for the baselines)`;
  return [
    row(part, "first page + count, all refunds", withReadModel.firstPage, withoutReadModel.firstPage, "ms", "same page, count of the rows (no rollup)", note),
    row(
      part,
      "figures: counts and money per currency, 30 days",
      withReadModel.figures,
      withoutReadModel.figures,
      "ms",
      "same totals from the rows (no rollup)",
    ),
    row(part, "filtered first page + count (wrong amount)", indexed, bare, "ms", "same query, dashboard indexes dropped"),
  ];
}

export async function benchDashboardSqlite(): Promise<BenchRow[]> {
  const url = scratchSqlite("dashboard");
  migrate(url);
  const db = createPrismaClient(url);
  try {
    return await seedAndMeasure(db, url, "sqlite");
  } finally {
    await db.$disconnect();
  }
}

/** PostgreSQL through a second Prisma client generated for it (the app's own is SQLite in this run). */
export async function benchDashboardPostgres(serverUrl: string): Promise<BenchRow[]> {
  const database = await postgresDatabase(serverUrl, `rv_bench_${process.pid}`);
  const db = await database.prisma();
  try {
    return await seedAndMeasure(db, database.url, "postgresql");
  } finally {
    await db.$disconnect();
    await database.drop();
  }
}
