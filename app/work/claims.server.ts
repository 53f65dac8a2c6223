import { randomUUID } from "node:crypto";
import {
  Prisma,
  type AlertDelivery,
  type Backfill,
  type Exposure,
  type Operation,
  type PrismaClient,
  type Settlement,
  type WebhookDelivery,
} from "@prisma/client";
import { z } from "zod";
import { config } from "../lib/config/env.server";
import { dialectOf, instantParam } from "../lib/db/dialect";

/**
 * Every kind of background work is a table whose rows carry `claimedBy` and `claimedUntil`; this
 * module is the only one that claims, releases, retries or fails them (decision 024), shaped like
 * graphile-worker's `src/sql/`: one claim statement that takes a batch and says which rows it took,
 * the back-off in one place, one lease setting.
 */
interface Rows {
  operations: Operation;
  deliveries: WebhookDelivery;
  backfills: Backfill;
  alerts: AlertDelivery;
  settlements: Settlement;
  exposures: Exposure;
}
export type Queue = keyof Rows;

interface QueueSpec {
  table: string;
  /** Rows ready for work, the lease aside. */
  ready: (now: Date | string) => Prisma.Sql;
  order: Prisma.Sql;
  /** The column whose least value says how long a shop's work has waited. */
  oldest: Prisma.Sql;
  /** The column a retry moves to the retry's instant (none: the row waits for its lease to run out). */
  dueColumn: "nextDueAt" | "nextAttemptAt" | null;
  /** Whether the due column may be null (a row never due again); else a row given up is told apart by its status. */
  dueNullable: boolean;
  /** Rows whose every write checks and bumps `revision` (optimistic concurrency beyond the claim). */
  revisioned: boolean;
  /** What else a claim sets: an alert's send starts, and counts as an attempt, when it is claimed. */
  onClaim?: Prisma.Sql;
  /** The first retry's wait and the longest, doubling between. */
  backoff: { baseMs: number; maxMs: number };
}

const QUEUES: Record<Queue, QueueSpec> = {
  operations: {
    table: "Operation",
    ready: (now) => Prisma.sql`"status" = 'PENDING' AND "nextDueAt" <= ${now}`,
    order: Prisma.sql`"nextDueAt"`,
    oldest: Prisma.sql`"nextDueAt"`,
    dueColumn: "nextDueAt",
    dueNullable: true,
    revisioned: true,
    // A failed read-back is no attempt: it backs off 1 s doubling to a minute (what Shopify asks
    // for, Retry-After, when longer).
    backoff: { baseMs: 1_000, maxMs: 60_000 },
  },
  deliveries: {
    table: "WebhookDelivery",
    ready: () => Prisma.sql`"openedAt" IS NULL`,
    order: Prisma.sql`"receivedAt"`,
    oldest: Prisma.sql`"receivedAt"`,
    dueColumn: null,
    dueNullable: false,
    revisioned: false,
    backoff: { baseMs: 0, maxMs: 0 },
  },
  backfills: {
    table: "Backfill",
    ready: (now) => Prisma.sql`"state" IN ('queued', 'reading', 'verifying') AND "nextDueAt" <= ${now}`,
    order: Prisma.sql`"nextDueAt"`,
    oldest: Prisma.sql`"nextDueAt"`,
    dueColumn: "nextDueAt",
    dueNullable: true,
    revisioned: true,
    // A backfill's step names its own wait (Shopify's Retry-After, the poll interval, a minute after an error).
    backoff: { baseMs: 0, maxMs: 0 },
  },
  alerts: {
    table: "AlertDelivery",
    ready: (now) => Prisma.sql`"status" = 'pending' AND "nextAttemptAt" <= ${now}`,
    order: Prisma.sql`"nextAttemptAt", "id"`,
    oldest: Prisma.sql`"nextAttemptAt"`,
    dueColumn: "nextAttemptAt",
    dueNullable: false,
    revisioned: false,
    onClaim: Prisma.sql`, "status" = 'sending', "attempts" = "attempts" + 1`,
    // A message that did not go is tried again in 30 s, doubling to an hour.
    backoff: { baseMs: 30_000, maxMs: 3_600_000 },
  },
  settlements: {
    table: "Settlement",
    // Due whatever the verdict: a VERIFIED refund is read on for the card network's reference.
    ready: (now) => Prisma.sql`"nextDueAt" <= ${now}`,
    // Due together, in the order Shopify processed them: a batch is then a short stretch of the ledger.
    order: Prisma.sql`"nextDueAt", "processedAt"`,
    oldest: Prisma.sql`"nextDueAt"`,
    dueColumn: "nextDueAt",
    dueNullable: true,
    revisioned: true,
    // Money moves in hours and days: a failed read waits a minute, doubling to an hour.
    backoff: { baseMs: 60_000, maxMs: 3_600_000 },
  },
  exposures: {
    table: "Exposure",
    // Due whatever the latest judgement: a clear refund's order is read again until the chargeback window closes.
    ready: (now) => Prisma.sql`"nextDueAt" <= ${now}`,
    order: Prisma.sql`"nextDueAt"`,
    oldest: Prisma.sql`"nextDueAt"`,
    dueColumn: "nextDueAt",
    dueNullable: true,
    revisioned: true,
    // Chargebacks move in days: a failed read waits a minute, doubling to an hour.
    backoff: { baseMs: 60_000, maxMs: 3_600_000 },
  },
};

/** How long a claim holds before another worker may take the row over: VERIFIER_LEASE_MS, for every kind of work. */
export const leaseMs = () => config().VERIFIER_LEASE_MS;

/** When a lease taken (or renewed) at `now` runs out. */
export const leaseEnd = (now: Date, ms = leaseMs()) => new Date(now.getTime() + ms);

/** The wait before retry number `failures` (1, 2, …) of a queue's work, or what the other side asked for if longer. */
export function backoffMs(queue: Queue, failures: number, askedMs = 0): number {
  const { baseMs, maxMs } = QUEUES[queue].backoff;
  return Math.max(askedMs, Math.min(baseMs * 2 ** Math.max(failures - 1, 0), maxMs));
}

/** A row this worker holds: `claim` names this claim alone, so every later write can check it still holds. */
export type Claimed<Q extends Queue> = Rows[Q] & { claimedBy: string; claimedUntil: Date };

export interface ClaimOptions {
  workerId: string;
  now: Date;
  limit: number;
  /** Only this shop's rows (the CLI's backfill of one shop). */
  shop?: string;
  /** Not these rows (a pass that takes one row at a time and moves each on once). */
  except?: string[];
  leaseMs?: number;
}

const claimedIds = z.array(z.object({ id: z.string() }));

/** Ready for work and held by no live claim at `at`. */
const readyAndFree = (spec: QueueSpec, at: Date | string) => Prisma.sql`${spec.ready(at)} AND ("claimedUntil" IS NULL OR "claimedUntil" < ${at})`;

/**
 * Claims up to `limit` rows that are ready and unclaimed (or whose lease ran out), oldest first,
 * in one statement that returns the ids it took. On PostgreSQL the rows are picked `FOR UPDATE SKIP
 * LOCKED`, so workers on any number of machines claim side by side and never the same row; on
 * SQLite the statement runs under the database's one write lock, which gives the same. The rows
 * are then read as Prisma reads them.
 */
export async function claim<Q extends Queue>(db: PrismaClient, queue: Q, options: ClaimOptions): Promise<Claimed<Q>[]> {
  const spec = QUEUES[queue];
  const now = instantParam(db, options.now);
  const until = leaseEnd(options.now, options.leaseMs);
  const token = `${options.workerId}:${randomUUID()}`;
  const table = Prisma.raw(`"${spec.table}"`);
  const pick = Prisma.sql`SELECT "id" FROM ${table}
    WHERE ${readyAndFree(spec, now)}
    ${options.shop ? Prisma.sql`AND "shop" = ${options.shop}` : Prisma.empty}
    ${options.except?.length ? Prisma.sql`AND "id" NOT IN (${Prisma.join(options.except)})` : Prisma.empty}
    ORDER BY ${spec.order} LIMIT ${options.limit}`;
  const set = Prisma.sql`"claimedBy" = ${token}, "claimedUntil" = ${instantParam(db, until)}
    ${spec.revisioned ? Prisma.sql`, "revision" = "revision" + 1` : Prisma.empty} ${spec.onClaim ?? Prisma.empty}`;
  const statement =
    dialectOf(db) === "postgresql"
      ? Prisma.sql`WITH picked AS (${pick} FOR UPDATE SKIP LOCKED)
          UPDATE ${table} SET ${set} FROM picked WHERE ${table}."id" = picked."id" RETURNING ${table}."id"`
      : Prisma.sql`UPDATE ${table} SET ${set} WHERE "id" IN (${pick}) RETURNING "id"`;
  const ids = claimedIds.parse(await db.$queryRaw(statement)).map((row) => row.id);
  if (!ids.length) return [];
  const rows = await READERS[queue](db, ids, token);
  return rows as Claimed<Q>[];
}

/** What a write to a queue's rows may set. */
export type RowUpdate<Q extends Queue> = Q extends "operations"
  ? Prisma.OperationUncheckedUpdateManyInput
  : Q extends "deliveries"
    ? Prisma.WebhookDeliveryUncheckedUpdateManyInput
    : Q extends "backfills"
      ? Prisma.BackfillUncheckedUpdateManyInput
      : Q extends "alerts"
        ? Prisma.AlertDeliveryUncheckedUpdateManyInput
        : Q extends "settlements"
          ? Prisma.SettlementUncheckedUpdateManyInput
          : Prisma.ExposureUncheckedUpdateManyInput;

// One reader and one writer a table: Prisma's delegates have no common type to be generic over.
const READERS: { [Q in Queue]: (db: PrismaClient, ids: string[], token: string) => Promise<Rows[Q][]> } = {
  operations: (db, ids, token) => db.operation.findMany({ where: { id: { in: ids }, claimedBy: token }, orderBy: { nextDueAt: "asc" } }),
  deliveries: (db, ids, token) => db.webhookDelivery.findMany({ where: { id: { in: ids }, claimedBy: token }, orderBy: { receivedAt: "asc" } }),
  backfills: (db, ids, token) => db.backfill.findMany({ where: { id: { in: ids }, claimedBy: token }, orderBy: { nextDueAt: "asc" } }),
  alerts: (db, ids, token) => db.alertDelivery.findMany({ where: { id: { in: ids }, claimedBy: token }, orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }] }),
  settlements: (db, ids, token) => db.settlement.findMany({ where: { id: { in: ids }, claimedBy: token }, orderBy: { nextDueAt: "asc" } }),
  exposures: (db, ids, token) => db.exposure.findMany({ where: { id: { in: ids }, claimedBy: token }, orderBy: { nextDueAt: "asc" } }),
};

type Guard = { id: { in: string[] }; claimedBy: string; revision?: number };
const WRITERS: { [Q in Queue]: (db: PrismaClient | Prisma.TransactionClient, where: Guard, data: RowUpdate<Q>) => Promise<number> } = {
  operations: async (db, where, data) => (await db.operation.updateMany({ where, data })).count,
  deliveries: async (db, where, data) => (await db.webhookDelivery.updateMany({ where, data })).count,
  backfills: async (db, where, data) => (await db.backfill.updateMany({ where, data })).count,
  alerts: async (db, where, data) => (await db.alertDelivery.updateMany({ where, data })).count,
  settlements: async (db, where, data) => (await db.settlement.updateMany({ where, data })).count,
  exposures: async (db, where, data) => (await db.exposure.updateMany({ where, data })).count,
};

/**
 * Writes `data` to rows this worker still holds under one claim, checked by the claim's token (a
 * row made due again by new evidence, or taken over after its lease ran out, is no longer ours),
 * and bumps the revision of revisioned rows. Returns how many rows it wrote.
 */
export function whileHeld<Q extends Queue>(
  db: PrismaClient | Prisma.TransactionClient,
  queue: Q,
  rows: Claimed<Q>[],
  data: RowUpdate<Q>,
  /** Renews the lease from `now` as it writes (a holder that works on for long, a backfill). */
  renew?: { now: Date; leaseMs?: number },
): Promise<number> {
  if (renew) data = { claimedUntil: leaseEnd(renew.now, renew.leaseMs), ...data };
  if (!rows.length) return Promise.resolve(0);
  const tokens = new Set(rows.map((row) => row.claimedBy));
  if (tokens.size !== 1) throw new Error("whileHeld writes the rows of one claim at a time");
  const revisioned = QUEUES[queue].revisioned;
  // One revisioned row is also checked at its revision: its holder writes it more than once (a backfill's steps).
  const one = revisioned && rows.length === 1 ? { revision: (rows[0] as { revision: number }).revision } : {};
  const where = { id: { in: rows.map((row) => row.id) }, claimedBy: rows[0].claimedBy, ...one };
  return WRITERS[queue](db, where, { ...data, ...(revisioned ? { revision: { increment: 1 } } : {}) } as RowUpdate<Q>);
}

/** A row nobody holds: what a release writes, and what voids a claim (new evidence, an uninstall). */
export const UNCLAIMED = { claimedBy: null, claimedUntil: null } as const;

/** UNCLAIMED in a raw statement's SET (the verdicts' batched update lets the claim go as a release does). */
export const UNCLAIMED_SQL = { claimedBy: Prisma.sql`NULL`, claimedUntil: Prisma.sql`NULL` };

/** The rows no claim holds at `now` (never claimed, released, or their lease ran out), for a query's where. */
export const unclaimedAt = (now: Date) => ({ OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] });

/** Whether a queue has a row ready and unclaimed: the worker's loop does not sleep then. */
export async function anyReady(db: PrismaClient, queue: Queue, now: Date): Promise<boolean> {
  const spec = QUEUES[queue];
  const at = instantParam(db, now);
  const rows = await db.$queryRaw(Prisma.sql`SELECT "id" FROM ${Prisma.raw(`"${spec.table}"`)} WHERE ${readyAndFree(spec, at)} LIMIT 1`);
  return claimedIds.parse(rows).length > 0;
}

const shopNames = z.array(z.object({ shop: z.string() }));

/** The shops with ready, unclaimed work in a queue, the longest waiting first: a pass claims shop by shop. */
export async function readyShops(db: PrismaClient, queue: Queue, now: Date, limit: number): Promise<string[]> {
  const spec = QUEUES[queue];
  const at = instantParam(db, now);
  const rows = await db.$queryRaw(Prisma.sql`SELECT "shop" FROM ${Prisma.raw(`"${spec.table}"`)}
    WHERE ${readyAndFree(spec, at)}
    GROUP BY "shop" ORDER BY MIN(${spec.oldest}) LIMIT ${limit}`);
  return shopNames.parse(rows).map((row) => row.shop);
}

/**
 * Sends whose lease ran out while their claim was held: the process stopped mid-send. `data` says
 * what they become; the claim stays with its owner, so if it is still alive its outcome wins.
 */
export async function lapsedSends(db: PrismaClient, now: Date, data: Prisma.AlertDeliveryUpdateManyMutationInput): Promise<number> {
  return (await db.alertDelivery.updateMany({ where: { status: "sending", claimedUntil: { lt: now } }, data })).count;
}

/**
 * Runs `work` on rows of one claim while renewing their lease every third of it: a pass that
 * takes longer than the lease (a shop's bucket to wait for, a slow database) keeps what it
 * claimed, and a worker that dies stops renewing, so its rows are free one lease later. A renewal
 * moves no revision: the holder's guarded writes still match.
 */
export async function whileRenewing<Q extends Queue, T>(
  db: PrismaClient,
  queue: Q,
  rows: Claimed<Q>[],
  options: { now: () => Date; leaseMs?: number },
  work: () => Promise<T>,
): Promise<T> {
  if (!rows.length) return work();
  const lease = options.leaseMs ?? leaseMs();
  const where = { id: { in: rows.map((row) => row.id) }, claimedBy: rows[0].claimedBy };
  let renewing: Promise<unknown> | undefined;
  const timer = setInterval(
    () => {
      // A slow database: one renewal waiting is enough.
      renewing ??= WRITERS[queue](db, where, { claimedUntil: leaseEnd(options.now(), lease) } as RowUpdate<Q>)
        .catch(() => undefined)
        .finally(() => (renewing = undefined));
    },
    Math.max(lease / 3, 10),
  );
  try {
    return await work();
  } finally {
    clearInterval(timer);
    await renewing;
  }
}

/** Hands rows back, done or due again at `dueAt` (null: not due at all), with `data` written beside. */
export function release<Q extends Queue>(db: PrismaClient | Prisma.TransactionClient, queue: Q, rows: Claimed<Q>[], data: RowUpdate<Q>, dueAt?: Date | null) {
  const { dueColumn: column, dueNullable } = QUEUES[queue];
  const due = column && dueAt !== undefined && (dueAt !== null || dueNullable) ? { [column]: dueAt } : {};
  return whileHeld(db, queue, rows, { ...data, ...UNCLAIMED, ...due } as RowUpdate<Q>);
}

/** Hands rows back to be tried again after the queue's back-off for `failures` in a row (or `askedMs`, if longer). */
export function retryLater<Q extends Queue>(
  db: PrismaClient | Prisma.TransactionClient,
  queue: Q,
  rows: Claimed<Q>[],
  retry: { now: Date; failures: number; askedMs?: number },
  data: RowUpdate<Q>,
) {
  return release(db, queue, rows, data, new Date(retry.now.getTime() + backoffMs(queue, retry.failures, retry.askedMs)));
}

/** Gives rows up for good: never due again, `data` says why. */
export function fail<Q extends Queue>(db: PrismaClient | Prisma.TransactionClient, queue: Q, rows: Claimed<Q>[], data: RowUpdate<Q>) {
  return release(db, queue, rows, data, null);
}
