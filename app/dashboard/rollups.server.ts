import { Prisma, type PrismaClient } from "@prisma/client";
import type { DatabaseKind } from "../lib/db/url";

const DAY_MS = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Refunds per verdict and currency ("" when none): how many, their amount in minor units, how many had one, how many were served outside their contract's versions. */
export interface Totals {
  status: string;
  currency: string;
  refunds: number;
  amountMinor: bigint;
  withAmount: number;
  outsideVersions: number;
}

function add(into: Map<string, Totals>, row: Totals) {
  const key = `${row.status}\n${row.currency}`;
  const seen = into.get(key);
  if (!seen) into.set(key, { ...row });
  else {
    seen.refunds += row.refunds;
    seen.amountMinor += row.amountMinor;
    seen.withAmount += row.withAmount;
    seen.outsideVersions += row.outsideVersions;
  }
}

/** Counted from the operations themselves: the baseline, the edges of a period, and the check of the rollup. */
export async function liveTotals(db: PrismaClient, shop: string, from: Date, to: Date): Promise<Totals[]> {
  if (from >= to) return [];
  const rows = await db.operation.groupBy({
    by: ["status", "currency"],
    where: { shop, startedAt: { gte: from, lt: to } },
    _count: { _all: true, amountMinor: true, apiVersionsOutside: true },
    _sum: { amountMinor: true },
  });
  return rows.map((row) => ({
    status: row.status,
    currency: row.currency ?? "",
    refunds: row._count._all,
    amountMinor: row._sum.amountMinor ?? 0n,
    withAmount: row._count.amountMinor,
    outsideVersions: row._count.apiVersionsOutside,
  }));
}

/**
 * A period's totals: whole UTC days from the rollup (one row per day, verdict and currency, kept
 * by the database with every change of an operation), the partial days at either end counted live.
 */
export async function periodTotals(db: PrismaClient, shop: string, from: Date, to: Date): Promise<Totals[]> {
  const firstWholeDay = Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
  const endOfWholeDays = Math.floor(to.getTime() / DAY_MS) * DAY_MS;
  if (firstWholeDay >= endOfWholeDays) return liveTotals(db, shop, from, to);
  const [head, days, tail] = await Promise.all([
    liveTotals(db, shop, from, new Date(firstWholeDay)),
    db.verdictRollup.groupBy({
      by: ["status", "currency"],
      where: { shop, day: { gte: utcDay(firstWholeDay), lt: utcDay(endOfWholeDays) } },
      _sum: { refunds: true, amountMinor: true, withAmount: true, outsideVersions: true },
    }),
    liveTotals(db, shop, new Date(endOfWholeDays), to),
  ]);
  const totals = new Map<string, Totals>();
  for (const row of [...head, ...tail]) add(totals, row);
  for (const row of days) {
    add(totals, {
      status: row.status,
      currency: row.currency,
      refunds: row._sum.refunds ?? 0,
      amountMinor: row._sum.amountMinor ?? 0n,
      withAmount: row._sum.withAmount ?? 0,
      outsideVersions: row._sum.outsideVersions ?? 0,
    });
  }
  return [...totals.values()].filter((t) => t.refunds !== 0);
}

const dayOfStart = (kind: DatabaseKind) => Prisma.raw(kind === "postgresql" ? `to_char("startedAt", 'YYYY-MM-DD')` : `substr("startedAt", 1, 10)`);

/** The rollup's rows recounted from the operations (what the triggers keep, as one query). */
const recount = (kind: DatabaseKind, forShop: Prisma.Sql) => Prisma.sql`
  SELECT "shop", ${dayOfStart(kind)} AS "day", "status", COALESCE("currency", '') AS "currency", COUNT(*) AS "refunds",
    COALESCE(SUM("amountMinor"), 0) AS "amountMinor", COUNT("amountMinor") AS "withAmount", COUNT("apiVersionsOutside") AS "outsideVersions"
  FROM "Operation" ${forShop} GROUP BY 1, 2, 3, 4`;

// Always a WHERE: SQLite reads an upsert's INSERT … SELECT without one ambiguously.
const only = (shop?: string) => (shop ? Prisma.sql`WHERE "shop" = ${shop}` : Prisma.sql`WHERE true`);

/** One snapshot for a read of both (PostgreSQL's default gives each statement its own). */
const snapshot = (kind: DatabaseKind) => ({
  // The client generated for SQLite types only Serializable; PostgreSQL's knows RepeatableRead.
  isolationLevel: (kind === "postgresql" ? "RepeatableRead" : "Serializable") as Prisma.TransactionIsolationLevel,
});

interface RollupRow {
  shop: string;
  day: string;
  status: string;
  currency: string;
  refunds: number | bigint;
  amountMinor: number | bigint;
  withAmount: number | bigint;
  outsideVersions: number | bigint;
}

/** Rollup rows that differ from a recount of the operations (none when the triggers have kept it), read from one snapshot. */
export async function rollupDrift(db: PrismaClient, kind: DatabaseKind, shop?: string): Promise<{ key: string; rollup: string; recount: string }[]> {
  const [kept, counted] = await db.$transaction(
    [db.$queryRaw<RollupRow[]>`SELECT * FROM "VerdictRollup" ${only(shop)}`, db.$queryRaw<RollupRow[]>(recount(kind, only(shop)))],
    snapshot(kind),
  );
  const key = (r: RollupRow) => `${r.shop} ${r.day} ${r.status} ${r.currency || "(no currency)"}`;
  const value = (r: RollupRow | undefined) =>
    r && Number(r.refunds) !== 0
      ? `${Number(r.refunds)} refunds, ${BigInt(r.amountMinor)} minor units in ${Number(r.withAmount)}, ${Number(r.outsideVersions)} outside versions`
      : "none";
  const expected = new Map(counted.map((r) => [key(r), r]));
  const drift: { key: string; rollup: string; recount: string }[] = [];
  for (const row of kept) {
    if (value(row) !== value(expected.get(key(row)))) drift.push({ key: key(row), rollup: value(row), recount: value(expected.get(key(row))) });
    expected.delete(key(row));
  }
  for (const [k, row] of expected) drift.push({ key: k, rollup: "none", recount: value(row) });
  return drift;
}

/**
 * Recounts the rollup from the operations, in one transaction (the CLI's own connection: no
 * request of the app shares it, see decision 005). A row a verdict adds meanwhile is overwritten
 * by the recount. Returns the number of rows written.
 */
export async function rebuildRollups(db: PrismaClient, kind: DatabaseKind, shop?: string): Promise<number> {
  const [, written] = await db.$transaction([
    db.$executeRaw`DELETE FROM "VerdictRollup" ${only(shop)}`,
    db.$executeRaw`
      INSERT INTO "VerdictRollup" ("shop", "day", "status", "currency", "refunds", "amountMinor", "withAmount", "outsideVersions")
      ${recount(kind, only(shop))}
      ON CONFLICT ("shop", "day", "status", "currency") DO UPDATE SET "refunds" = excluded."refunds", "amountMinor" = excluded."amountMinor",
        "withAmount" = excluded."withAmount", "outsideVersions" = excluded."outsideVersions"`,
  ]);
  return written;
}
