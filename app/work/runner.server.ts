import type { PrismaClient } from "@prisma/client";
import type { Logger } from "pino";
import { claim, fail, readyShops, release, retryLater, whileHeld, whileRenewing, type Claimed, type Queue, type RowUpdate } from "./claims.server";

/**
 * The one way background work runs (decision 027), shaped like graphile-worker's runner: a
 * capability says what its work is (a queue, shop by shop or not, how many at once, a handler of
 * claimed rows) and this module does the rest: which shops are due, claiming, renewing the lease
 * while the handler works, writing the outcomes the handler returns through the claims module,
 * keeping one shop's failure to that shop, and a log line for each start, outcome and failure.
 */

/**
 * What every handler is given, graphile-worker's `helpers`: the database, the clock, the logger
 * scoped to the work, the shop and the rows. What a kind of work needs beyond it (Shopify's
 * gateway, a contract) its factory takes.
 */
export interface Helpers {
  db: PrismaClient;
  now: () => Date;
  workerId: string;
  logger: Logger;
}

/** Notes a handler adds to an outcome's log line (a verdict and its reason, a count). */
export type Note = Record<string, unknown>;

/** What became of claimed rows; the runner writes it. */
export type Outcome<Q extends Queue> =
  /** Finished: never due again, `data` written beside. */
  | { kind: "done"; data?: RowUpdate<Q>; note?: Note }
  /** Due again at `at` (the next poll, the end of a wait). */
  | { kind: "due"; at: Date; data?: RowUpdate<Q>; note?: Note }
  /** Failed this time: tried again after the queue's back-off for `failures` in a row, or `askedMs` if longer. */
  | { kind: "retry"; failures: number; askedMs?: number; data?: RowUpdate<Q>; note?: Note }
  /** Given up for good; `data` says why to the person who looks. */
  | { kind: "failed"; reason: string; data?: RowUpdate<Q>; note?: Note }
  /** The handler's own guarded write handed the rows back (a verdict and its claim in one statement, decision 024). */
  | { kind: "written"; note?: Note };

/** Outcomes for groups of rows: a group is written in one statement. A row given none keeps its claim until the lease runs out. */
export type Outcomes<Q extends Queue> = { rows: Claimed<Q>[]; outcome: Outcome<Q> }[];

/** The sum of a count the notes carry (what a pass opened, say). */
export const noteTotal = (notes: Note[], key: string) => notes.reduce((sum, note) => sum + Number(note[key] ?? 0), 0);

export const outcome = <Q extends Queue>(rows: Claimed<Q>[], what: Outcome<Q>): Outcomes<Q> => (rows.length ? [{ rows, outcome: what }] : []);

/** A row of this claim was changed by someone else (taken over after its lease, made due by new evidence): the handler stops. */
export class ClaimLost extends Error {}

export interface RowHelpers<Q extends Queue> extends Helpers {
  /** The shop whose rows these are (work claimed shop by shop), else undefined. */
  shop?: string;
  /**
   * Writes `data` to one held row between steps (a backfill's progress), checked by its claim and
   * revision, renewing its lease; returns the row as written. Throws ClaimLost when it is not ours.
   */
  save(row: Claimed<Q>, data: RowUpdate<Q>): Promise<Claimed<Q>>;
}

interface RowWorkBase<Q extends Queue> {
  /** The work's name in the log. */
  name: string;
  queue: Q;
  /** Rows claimed at once (per shop, for work claimed shop by shop). */
  batch: number;
  /** How long a claim holds (default VERIFIER_LEASE_MS). */
  leaseMs?: number;
  /** Renew the lease while the handler works (default). Off for a send, whose lease running out means the process died mid-send. */
  renew?: boolean;
  handle(rows: Claimed<Q>[], helpers: RowHelpers<Q>): Promise<Outcomes<Q>>;
  /** What a thrown error makes of the rows (default: they keep their claim until the lease runs out, then another worker takes them). */
  onError?(rows: Claimed<Q>[], error: unknown, helpers: RowHelpers<Q>): Outcomes<Q>;
}

/** Rows claimed shop by shop: each shop has its own Shopify bucket, and one waiting for it holds up no other. */
export interface ShopByShopWork<Q extends Queue> extends RowWorkBase<Q> {
  perShop: true;
  /** Shops a pass looks at, the longest waiting first. */
  maxShops: number;
  /** Shops worked on side by side. */
  concurrency: number;
}

/** Rows claimed oldest first, whatever their shop, `batches` claims a pass. */
export interface InOrderWork<Q extends Queue> extends RowWorkBase<Q> {
  perShop: false;
  batches: number;
  /** Each row moves on at most once a pass (work due again at once is not taken twice). */
  oncePerPass?: boolean;
}

export type RowWork<Q extends Queue> = ShopByShopWork<Q> | InOrderWork<Q>;

/** Work that holds no claim, a shop at a time: its writes are idempotent on their own (decision 027 says which and why). */
export interface ShopWork {
  name: string;
  /** The shops due now. */
  shops(helpers: Helpers): Promise<string[]>;
  handle(shop: string, helpers: Helpers): Promise<Note | void>;
}

export interface PassResult {
  claimed: number;
  /** Rows per outcome kind, as written. */
  outcomes: Record<Outcome<Queue>["kind"], number>;
  /** Rows whose write found them no longer held. */
  lost: number;
  /** Shops (or batches) whose handler threw. */
  failures: number;
  /** The notes of the outcomes written (a verdict each, for the read-back). */
  notes: Note[];
}

const emptyResult = (): PassResult => ({ claimed: 0, outcomes: { done: 0, due: 0, retry: 0, failed: 0, written: 0 }, lost: 0, failures: 0, notes: [] });

/** One pass of row work: claims what is due and hands each batch to the handler. `shop`: only that shop's rows (the CLI). */
export async function runRowWork<Q extends Queue>(work: RowWork<Q>, helpers: Helpers, options: { shop?: string } = {}): Promise<PassResult> {
  const result = emptyResult();
  const log = helpers.logger.child({ work: work.name });
  if (work.perShop) {
    const shops = options.shop ? [options.shop] : await readyShops(helpers.db, work.queue, helpers.now(), work.maxShops);
    await Promise.all(
      Array.from({ length: Math.min(work.concurrency, shops.length) }, async () => {
        for (let shop = shops.shift(); shop; shop = shops.shift()) {
          const rows = await claimFor(work, helpers, { shop });
          if (rows.length) await runBatch(work, { ...helpers, logger: log.child({ shop }) }, rows, result, shop);
        }
      }),
    );
    return result;
  }
  const seen: string[] = [];
  for (let i = 0; i < work.batches; i++) {
    const rows = await claimFor(work, helpers, { shop: options.shop, except: work.oncePerPass ? seen : undefined });
    if (!rows.length) break;
    seen.push(...rows.map((row) => row.id));
    // A batch of one row is one shop's: its lines name the shop (logOutcome names the row).
    await runBatch(work, { ...helpers, logger: rows.length === 1 ? log.child({ shop: rows[0].shop }) : log }, rows, result);
  }
  return result;
}

function claimFor<Q extends Queue>(work: RowWork<Q>, helpers: Helpers, where: { shop?: string; except?: string[] }): Promise<Claimed<Q>[]> {
  return claim(helpers.db, work.queue, { workerId: helpers.workerId, now: helpers.now(), limit: work.batch, leaseMs: work.leaseMs, ...where });
}

async function runBatch<Q extends Queue>(work: RowWork<Q>, helpers: Helpers, rows: Claimed<Q>[], result: PassResult, shop?: string): Promise<void> {
  const { db, logger } = helpers;
  result.claimed += rows.length;
  logger.debug({ rows: rows.length, ids: rows.map((row) => row.id) }, "work started");
  // Rows as the handler last saved them: the outcome's guarded write checks the revision they are at now.
  const latest = new Map<string, Claimed<Q>>();
  const current = (group: Claimed<Q>[]) => group.map((row) => latest.get(row.id) ?? row);
  const save = async (row: Claimed<Q>, data: RowUpdate<Q>) => {
    const saved = await saveRow(work, helpers, latest.get(row.id) ?? row, data);
    latest.set(row.id, saved);
    return saved;
  };
  const rowHelpers: RowHelpers<Q> = { ...helpers, shop, save };
  let outcomes: Outcomes<Q>;
  try {
    outcomes =
      work.renew === false
        ? await work.handle(rows, rowHelpers)
        : await whileRenewing(db, work.queue, rows, { now: helpers.now, leaseMs: work.leaseMs }, () => work.handle(rows, rowHelpers));
  } catch (error) {
    if (error instanceof ClaimLost) {
      logger.warn({ ids: rows.map((row) => row.id) }, "work taken over by another worker");
      result.lost += rows.length;
      return;
    }
    result.failures++;
    outcomes = work.onError?.(current(rows), error, rowHelpers) ?? [];
    logger.error({ err: error, ids: rows.map((row) => row.id), handedBack: outcomes.length > 0 }, "work failed");
  }
  for (const { rows: handled, outcome: what } of outcomes) {
    const group = current(handled);
    const written = await writeOutcome(db, work.queue, group, what, helpers.now()).catch((error: unknown) => {
      logger.error(
        { err: error, ids: group.map((row) => row.id), outcome: what.kind },
        "writing the outcome failed; the rows are taken again after their lease",
      );
      return 0;
    });
    result.outcomes[what.kind] += written;
    result.lost += group.length - written;
    if (written && what.note) result.notes.push(what.note);
    logOutcome(logger, group, what, written);
  }
}

/** Writes an outcome through the claims module; returns how many rows were still held. */
async function writeOutcome<Q extends Queue>(db: PrismaClient, queue: Q, rows: Claimed<Q>[], what: Outcome<Q>, now: Date): Promise<number> {
  const data = "data" in what && what.data ? what.data : ({} as RowUpdate<Q>);
  switch (what.kind) {
    case "written":
      return rows.length;
    case "done":
      return release(db, queue, rows, data, null);
    case "due":
      return release(db, queue, rows, data, what.at);
    case "retry":
      return retryLater(db, queue, rows, { now, failures: what.failures, askedMs: what.askedMs }, data);
    case "failed":
      return fail(db, queue, rows, data);
  }
}

function logOutcome<Q extends Queue>(logger: Logger, rows: Claimed<Q>[], what: Outcome<Q>, written: number) {
  const ids = rows.length === 1 ? { row: rows[0].id } : { ids: rows.map((row) => row.id) };
  if (written < rows.length) logger.warn({ ...ids, outcome: what.kind, lost: rows.length - written }, "outcome not written: the rows were no longer held");
  if (what.kind === "failed") logger.warn({ ...ids, ...what.note, reason: what.reason }, "work failed for good");
  else if (what.note) logger.info({ ...ids, outcome: what.kind, ...what.note }, "work done");
  else logger.debug({ ...ids, outcome: what.kind, ...("at" in what ? { at: what.at } : {}) }, "work done");
}

/** A guarded write of one held row between steps, renewing its lease (RowHelpers.save). */
async function saveRow<Q extends Queue>(work: RowWork<Q>, helpers: Helpers, row: Claimed<Q>, data: RowUpdate<Q>): Promise<Claimed<Q>> {
  const count = await whileHeld(helpers.db, work.queue, [row], data, { now: helpers.now(), leaseMs: work.leaseMs });
  if (count !== 1) throw new ClaimLost(`${work.queue} row ${row.id} changed while this worker held it`);
  const revision = "revision" in row ? { revision: (row as { revision: number }).revision + 1 } : {};
  return { ...row, ...data, ...revision } as Claimed<Q>;
}

/** One pass of work that claims nothing: every shop due, one at a time; a shop that throws is logged and the rest go on. */
export async function runShopWork(work: ShopWork, helpers: Helpers): Promise<{ shops: number; failures: number; notes: Note[] }> {
  const log = helpers.logger.child({ work: work.name });
  let failures = 0;
  const notes: Note[] = [];
  const shops = await work.shops(helpers);
  for (const shop of shops) {
    const scoped = { ...helpers, logger: log.child({ shop }) };
    try {
      const note = await work.handle(shop, scoped);
      if (!note) continue;
      notes.push(note);
      scoped.logger.info(note, "work done");
    } catch (error) {
      failures++;
      scoped.logger.error({ err: error }, "work failed");
    }
  }
  return { shops: shops.length, failures, notes };
}
