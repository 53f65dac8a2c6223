import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../../app/lib/db/client";
import { lockName, withLock, type Locked, type LockName, type LockTimes } from "../../../app/lib/db/locks";
import { createTestDatabase } from "../../support/database";

// The one lock primitive (issue 52): one insert wins on either database, a lock whose holder died is
// taken over once it expires, and a holder lets go of its own lock only.
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: PrismaClient;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createPrismaClient(database.url);
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

const SHOP = "locks.myshopify.com";
const T0 = new Date("2026-12-03T12:00:00.000Z");
const at = (ms: number) => () => new Date(T0.getTime() + ms);
const HOLD = 1_000;

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A holder that works until it is told to finish: once it holds the lock, its result to come and the call that lets it finish. */
async function slowHolder(lock: LockName, times: LockTimes) {
  const [holding, mayFinish] = [gate(), gate()];
  const result = withLock(
    db,
    lock,
    async () => {
      holding.open();
      await mayFinish.opened;
      return "slow";
    },
    times,
  );
  await holding.opened;
  return { result, finish: mayFinish.open };
}

describe("withLock", () => {
  it("two holders at the same instant, on two connections: exactly one wins, and the lock is free once it is done", async () => {
    const lock = lockName(SHOP, "test", "same-instant");
    const other = createPrismaClient(database.url);
    try {
      // The winner holds the lock until every loser has been told; should two win, the gate opens after 5 s and the count says so.
      const losers = gate();
      const timer = setTimeout(losers.open, 5_000);
      const attempts = Array.from({ length: 8 }, (_, i) =>
        withLock(i % 2 ? other : db, lock, async () => losers.opened.then(() => i), { holdMs: HOLD, waitMs: 0, clock: at(0) }),
      );
      let told = 0;
      for (const attempt of attempts)
        void attempt.then((result) => {
          if (!result.locked && ++told === attempts.length - 1) losers.open();
        });
      const results: Locked<number>[] = await Promise.all(attempts);
      clearTimeout(timer);
      expect(results.filter((r) => r.locked)).toHaveLength(1);
      expect(await db.lock.count({ where: { key: lock.key } })).toBe(0);
      expect(await withLock(other, lock, async () => "again", { holdMs: HOLD, waitMs: 0, clock: at(0) })).toEqual({ locked: true, value: "again" });
    } finally {
      await other.$disconnect();
    }
  });

  it("a lock whose holder died is refused until it expires, then taken over", async () => {
    const lock = lockName(SHOP, "test", "dead-holder");
    // A holder that died in its work: its row stays, with the instant it lets go.
    await db.lock.create({ data: { key: lock.key, shop: lock.shop, holder: "a process that died", until: at(HOLD)() } });
    expect(await withLock(db, lock, async () => "early", { holdMs: HOLD, waitMs: 0, clock: at(HOLD - 1) })).toEqual({ locked: false });
    expect(await withLock(db, lock, async () => "on time", { holdMs: HOLD, waitMs: 0, clock: at(HOLD) })).toEqual({ locked: false });
    expect(await withLock(db, lock, async () => "taken over", { holdMs: HOLD, waitMs: 0, clock: at(HOLD + 1) })).toEqual({
      locked: true,
      value: "taken over",
    });
    expect(await db.lock.count({ where: { key: lock.key } })).toBe(0);
  });

  it("a holder whose lock expired and was taken over lets go of its own only: the new holder keeps it", async () => {
    const lock = lockName(SHOP, "test", "slow-holder");
    // The first holder is slow: it still works when its lock expires.
    const first = await slowHolder(lock, { holdMs: HOLD, waitMs: 0, clock: at(0) });
    const second = await withLock(
      db,
      lock,
      async () => {
        // The first finishes while the second holds: its release must leave the second's lock.
        first.finish();
        expect(await first.result).toEqual({ locked: true, value: "slow" });
        expect(await db.lock.findMany({ where: { key: lock.key }, select: { holder: true } })).toHaveLength(1);
        return withLock(db, lock, async () => "third", { holdMs: HOLD, waitMs: 0, clock: at(HOLD + 2) });
      },
      { holdMs: HOLD, waitMs: 0, clock: at(HOLD + 1) },
    );
    expect(second).toEqual({ locked: true, value: { locked: false } });
    expect(await db.lock.count({ where: { key: lock.key } })).toBe(0);
  });

  it("a waiter takes the lock once its holder lets go, and gives up after its wait", async () => {
    const lock = lockName(SHOP, "test", "waiter");
    const holder = await slowHolder(lock, { holdMs: 60_000, waitMs: 0 });
    const started = Date.now();
    expect(await withLock(db, lock, async () => "too late", { holdMs: 60_000, waitMs: 300 })).toEqual({ locked: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    const waiter = withLock(db, lock, async () => "after the holder", { holdMs: 60_000, waitMs: 10_000 });
    setTimeout(holder.finish, 250);
    expect(await waiter).toEqual({ locked: true, value: "after the holder" });
    expect(await holder.result).toEqual({ locked: true, value: "slow" });
  });

  it("a waiter on a clock held still (a request's instant) still gives up after its wait, measured in real time", async () => {
    const lock = lockName(SHOP, "test", "still-clock");
    const holder = await slowHolder(lock, { holdMs: 60_000, waitMs: 0, clock: at(0) });
    const started = Date.now();
    expect(await withLock(db, lock, async () => "never", { holdMs: 60_000, waitMs: 300, clock: at(1) })).toEqual({ locked: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    holder.finish();
    await holder.result;
  }, 10_000);

  it("an error in the work lets the lock go", async () => {
    const lock = lockName(SHOP, "test", "throws");
    await expect(
      withLock(
        db,
        lock,
        async () => {
          throw new Error("the work failed");
        },
        { holdMs: HOLD, waitMs: 0 },
      ),
    ).rejects.toThrow("the work failed");
    expect(await db.lock.count({ where: { key: lock.key } })).toBe(0);
  });

  it("names a lock by its shop and what it locks: the same thing in two shops is two locks", () => {
    expect(lockName(SHOP, "order", "gid://shopify/Order/1")).toEqual({ shop: SHOP, key: `order:${SHOP}:gid://shopify/Order/1` });
    expect(lockName("other.myshopify.com", "order", "gid://shopify/Order/1").key).not.toBe(lockName(SHOP, "order", "gid://shopify/Order/1").key);
    expect(lockName(SHOP, "shop-limits").key).toBe(`shop-limits:${SHOP}`);
  });
});
