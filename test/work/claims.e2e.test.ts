import { describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/lib/db/client";
import { backoffMs, claim, release, retryLater, fail } from "../../app/work/claims.server";
import { operationRows, useQueueDatabase } from "../support/operation-rows";

let db: PrismaClient;
let databaseUrl: string;
useQueueDatabase((started, url) => {
  db = started;
  databaseUrl = url;
});

const T0 = new Date("2026-12-03T12:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
let rows: ReturnType<typeof operationRows>;
const operations = (count: number, nextDueAt: Date, shop = "claims.myshopify.com") => (rows ??= operationRows(db, T0))(count, nextDueAt, shop);

describe("claim", () => {
  it("takes what is due at that instant and nothing due a millisecond later, oldest first", async () => {
    const due = await operations(2, T0);
    await operations(1, at(1));
    const claimed = await claim(db, "operations", { workerId: "w", now: T0, limit: 10, leaseMs: 1000 });
    expect(claimed.map((op) => op.id).sort()).toEqual([...due].sort());
    expect(claimed.every((op) => op.claimedBy.startsWith("w:") && op.claimedUntil.getTime() === at(1000).getTime() && op.revision === 1)).toBe(true);
    await release(db, "operations", claimed, {}, null);
  });

  it("never gives one row to two claims made at the same instant, and leaves each row to its claim until the lease runs out", async () => {
    const ids = await operations(60, at(10_000));
    const now = at(10_000);
    // Two clients: on PostgreSQL two connections racing for the same rows.
    const other = createPrismaClient(databaseUrl);
    try {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => claim(i % 2 ? other : db, "operations", { workerId: `w${i}`, now, limit: 15, leaseMs: 5000 })),
      );
      const taken = results.flat().map((op) => op.id);
      expect(new Set(taken).size).toBe(taken.length);
      expect(taken.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
      // Held: nobody takes them before the lease ends; after it, they are claimable again.
      expect(await claim(db, "operations", { workerId: "late", now: at(14_999), limit: 100 })).toEqual([]);
      const after = await claim(db, "operations", { workerId: "late", now: at(15_001), limit: 100 });
      expect(after.map((op) => op.id).sort()).toEqual([...ids].sort());
      await release(db, "operations", after, {}, null);
    } finally {
      await other.$disconnect();
    }
  });

  it("only one shop's rows when asked", async () => {
    await operations(2, at(20_000), "a.myshopify.com");
    const b = await operations(2, at(20_000), "b.myshopify.com");
    const claimed = await claim(db, "operations", { workerId: "w", now: at(20_000), limit: 10, shop: "b.myshopify.com" });
    expect(claimed.map((op) => op.id).sort()).toEqual([...b].sort());
    await release(db, "operations", claimed, {}, null);
    const rest = await claim(db, "operations", { workerId: "w", now: at(20_000), limit: 10 });
    await release(db, "operations", rest, {}, null);
  });
});

describe("release, retry and fail", () => {
  it("write nothing to a row made due again since the claim (new evidence cleared it)", async () => {
    const [id] = await operations(1, at(30_000));
    const [claimed] = await claim(db, "operations", { workerId: "w", now: at(30_000), limit: 1 });
    expect(claimed.id).toBe(id);
    await db.operation.updateMany({ where: { id }, data: { claimedBy: null, claimedUntil: null, nextDueAt: at(30_001), revision: { increment: 1 } } });
    expect(await release(db, "operations", [claimed], { reason: "stale" }, at(99_000))).toBe(0);
    const row = await db.operation.findUniqueOrThrow({ where: { id } });
    expect([row.reason, row.nextDueAt?.getTime()]).toEqual([null, at(30_001).getTime()]);
    await db.operation.update({ where: { id }, data: { nextDueAt: null } });
  });

  it("retry after the queue's back-off, doubling to its limit, or later when the other side asks", async () => {
    const [id] = await operations(1, at(40_000));
    const [claimed] = await claim(db, "operations", { workerId: "w", now: at(40_000), limit: 1 });
    expect(await retryLater(db, "operations", [claimed], { now: at(40_000), failures: 3 }, { readFailures: 3 })).toBe(1);
    const row = await db.operation.findUniqueOrThrow({ where: { id } });
    expect([row.nextDueAt?.getTime(), row.claimedBy, row.readFailures, row.revision]).toEqual([at(44_000).getTime(), null, 3, 2]);
    expect([backoffMs("operations", 1), backoffMs("operations", 7), backoffMs("operations", 30)]).toEqual([1_000, 60_000, 60_000]);
    expect([backoffMs("alerts", 1), backoffMs("alerts", 2), backoffMs("alerts", 20), backoffMs("operations", 1, 5_000)]).toEqual([
      30_000, 60_000, 3_600_000, 5_000,
    ]);
    const [again] = await claim(db, "operations", { workerId: "w", now: at(44_000), limit: 1 });
    expect(await fail(db, "operations", [again], { status: "FAILED" })).toBe(1);
    expect((await db.operation.findUniqueOrThrow({ where: { id } })).nextDueAt).toBeNull();
  });

  it("an alert's claim starts its send and counts the attempt", async () => {
    const delivery = await db.alertDelivery.create({
      data: {
        shop: "claims.myshopify.com",
        kind: "instant",
        channel: "email",
        target: "a@example.com",
        subject: "s",
        body: "b",
        payload: "{}",
        dedupeKey: "k1",
        nextAttemptAt: at(50_000),
        createdAt: at(50_000),
      },
    });
    const [claimed] = await claim(db, "alerts", { workerId: "w", now: at(50_000), limit: 5 });
    expect([claimed.id, claimed.status, claimed.attempts]).toEqual([delivery.id, "sending", 1]);
    expect(await claim(db, "alerts", { workerId: "w2", now: at(50_000 + 10 * 60_000), limit: 5 })).toEqual([]);
  });
});
