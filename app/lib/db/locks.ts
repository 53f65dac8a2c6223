import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { createOnce } from "./create-once";

/**
 * One holder at a time for what a lock names, in every process, on SQLite and PostgreSQL alike: a
 * lock is a row of the `Lock` table, taken by one insert that its primary key lets only one request
 * win (decision 016). The app locks an order while a refund on it is checked and sent, a shop's
 * limits while a refund is counted against them, and a dispute's proof while it is added.
 */

/**
 * What a lock holds: a shop's something. The capability that takes it names it (`orderLock`,
 * `shopLimitsLock`, `disputeProofLock`), never the call site; the shop is kept beside the key so that
 * shop/redact finds the shop's locks.
 */
export interface LockName {
  readonly shop: string;
  readonly key: string;
}

/** `<kind>:<shop>[:<what>…]`: the same thing of two shops is two locks. */
export const lockName = (shop: string, kind: string, ...what: string[]): LockName => ({ shop, key: [kind, shop, ...what].join(":") });

export interface LockTimes {
  /** How long the lock holds if its holder dies before letting it go: past this, another may take it over. */
  holdMs: number;
  /** How long to wait for another holder to let go (polling every 100 ms); 0: one try. */
  waitMs: number;
  /** The clock that stamps and expires the lock (default: the wall clock, read at each try); the wait is always real time. */
  clock?: () => Date;
}

export type Locked<T> = { locked: true; value: T } | { locked: false };

const POLL_MS = 100;

/** One try: a lock past its time is deleted first, by a guarded delete (only while it is still expired); then one insert wins. */
async function take(db: PrismaClient, lock: LockName, holder: string, now: Date, holdMs: number): Promise<boolean> {
  await db.lock.deleteMany({ where: { key: lock.key, until: { lt: now } } });
  return createOnce(() => db.lock.create({ data: { key: lock.key, shop: lock.shop, holder, until: new Date(now.getTime() + holdMs) } }));
}

/**
 * Runs `work` holding `lock`, waiting up to `waitMs` while another holds it; `{ locked: false }`
 * when it never got it. The holder lets go of its own lock when the work ends, however it ends: a
 * lock that expired and was taken over meanwhile stays with its new holder.
 */
export async function withLock<T>(db: PrismaClient, lock: LockName, work: () => Promise<T>, times: LockTimes): Promise<Locked<T>> {
  const { holdMs, waitMs, clock = () => new Date() } = times;
  const holder = randomUUID();
  // Waiting is measured on the wall clock: a clock held still (a request's instant, a test's) would wait forever.
  const deadline = Date.now() + waitMs;
  while (!(await take(db, lock, holder, clock(), holdMs))) {
    if (Date.now() >= deadline) return { locked: false };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    return { locked: true, value: await work() };
  } finally {
    await db.lock.deleteMany({ where: { key: lock.key, holder } });
  }
}
