import { describe, expect, it } from "vitest";
import pino from "pino";
import { Writable } from "node:stream";
import type { PrismaClient } from "@prisma/client";
import { REFUND_CREATED } from "../../app/contracts/registry.server";
import { ShopifyGateway } from "../../app/shopify/admin/gateway.server";
import { backoffMs } from "../../app/work/claims.server";
import { outcome, runRowWork, type Helpers, type ShopByShopWork } from "../../app/work/runner.server";
import { processDue } from "../../app/verification/runtime.server";
import { operationRows, useQueueDatabase } from "../support/operation-rows";

let db: PrismaClient;
useQueueDatabase((started) => {
  db = started;
});

const T0 = new Date("2026-12-04T12:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
let rows: ReturnType<typeof operationRows>;
const operations = (shop: string, count: number) => (rows ??= operationRows(db, T0))(count, T0, shop);

/** The log lines a pass wrote, parsed. */
function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: "debug", messageKey: "message" }, stream), lines };
}

const helpers = (logger = pino({ enabled: false }), now = T0): Helpers => ({ db, now: () => now, workerId: "runner-test", logger });
const rowsOf = (ids: string[]) => db.operation.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });

function work(handle: ShopByShopWork<"operations">["handle"]): ShopByShopWork<"operations"> {
  return { name: "test", queue: "operations", perShop: true, maxShops: 10, concurrency: 4, batch: 50, leaseMs: 60_000, handle };
}

describe("the work runner", () => {
  it("keeps one shop's failure to that shop: its rows keep their claim until the lease runs out, the others' outcomes are written, the log names the shop and rows", async () => {
    const failing = await operations("runner-failing.myshopify.com", 2);
    const working = await operations("runner-working.myshopify.com", 3);
    const { logger, lines } = capturedLog();
    const pass = await runRowWork(
      work(async (rows, { shop }) => {
        if (shop === "runner-failing.myshopify.com") throw new Error("this shop's step broke");
        return outcome(rows, { kind: "done", data: { status: "VERIFIED" } });
      }),
      helpers(logger),
    );
    expect([pass.claimed, pass.failures, pass.outcomes.done]).toEqual([5, 1, 3]);
    expect((await rowsOf(working)).map((op) => [op.status, op.claimedBy, op.nextDueAt])).toEqual(working.map(() => ["VERIFIED", null, null]));
    // Held until the lease ends, then any worker takes them again.
    expect((await rowsOf(failing)).every((op) => op.status === "PENDING" && op.claimedUntil?.getTime() === at(60_000).getTime())).toBe(true);
    const again = await runRowWork(
      work(async (rows) => outcome(rows, { kind: "done", data: { status: "VERIFIED" } })),
      helpers(undefined, at(60_001)),
    );
    expect(again.outcomes.done).toBe(2);
    const failure = lines.find((line) => line.message === "work failed");
    expect(failure).toMatchObject({ level: 50, work: "test", shop: "runner-failing.myshopify.com", ids: expect.arrayContaining(failing) });
    const started = lines.filter((line) => line.message === "work started").map((line) => line.shop);
    expect(started.sort()).toEqual(["runner-failing.myshopify.com", "runner-working.myshopify.com"]);
  });

  it("writes each outcome through the claims module: due at its instant, a retry after the queue's back-off, a failure for good", async () => {
    const [due, retried, failed] = await operations("runner-outcomes.myshopify.com", 3);
    await runRowWork(
      work(async (rows) => {
        const byId = (id: string) => rows.filter((row) => row.id === id);
        return [
          ...outcome(byId(due), { kind: "due", at: at(5_000) }),
          ...outcome(byId(retried), { kind: "retry", failures: 3, data: { readFailures: 3 } }),
          ...outcome(byId(failed), { kind: "failed", reason: "gave up", data: { status: "FAILED", reason: "gave_up" } }),
        ];
      }),
      helpers(),
    );
    const [d, r, f] = await Promise.all([due, retried, failed].map((id) => db.operation.findUniqueOrThrow({ where: { id } })));
    expect([d.nextDueAt, d.claimedBy]).toEqual([at(5_000), null]);
    expect([r.nextDueAt, r.readFailures]).toEqual([at(backoffMs("operations", 3)), 3]);
    expect([f.status, f.nextDueAt, f.claimedBy]).toEqual(["FAILED", null, null]);
  });

  it("writes an outcome at the revision the handler's last save left, and nothing to a row another writer took meanwhile", async () => {
    const [saved, taken] = await operations("runner-saves.myshopify.com", 2);
    const pass = await runRowWork(
      work(async (rows, helper) => {
        const row = await helper.save(
          rows.find((r) => r.id === saved)!,
          { orderName: "#1001" },
        );
        await helper.save(row, { orderName: "#1002" });
        // New evidence voids the other row's claim (as markDue does).
        await db.operation.update({ where: { id: taken }, data: { claimedBy: null, revision: { increment: 1 } } });
        // The rows as claimed: the runner writes at the revision the last save left.
        return outcome(rows, { kind: "due", at: at(1_000) });
      }),
      helpers(),
    );
    expect([pass.outcomes.due, pass.lost]).toEqual([1, 1]);
    const row = await db.operation.findUniqueOrThrow({ where: { id: saved } });
    expect([row.orderName, row.nextDueAt, row.claimedBy]).toEqual(["#1002", at(1_000), null]);
  });

  it("a read-back whose follow-up fails for one shop still records every shop's read in the same pass, and the pass goes on", async () => {
    const failing = await operations("readback-failing.myshopify.com", 1);
    const working = await operations("readback-working.myshopify.com", 1);
    // Shopify does not show either refund yet (inside the stale read window: no evidence, read again later).
    const gateway = new ShopifyGateway(async () => async (_query, variables) => ({
      data: { nodes: (variables.ids as string[]).map(() => null) },
      apiVersion: "2026-10",
    }));
    const followed: string[] = [];
    const pass = await processDue({
      ...helpers(),
      contract: REFUND_CREATED,
      gateway,
      afterReadback: async (op) => {
        followed.push(op.shop);
        if (op.shop === "readback-failing.myshopify.com") throw new Error("the record's follow-up broke");
      },
    });
    expect(pass.claimed).toBe(2);
    expect(followed.sort()).toEqual(["readback-failing.myshopify.com", "readback-working.myshopify.com"]);
    // Each read is recorded (not yet evidence: read again later), the claim handed back with it.
    for (const op of await rowsOf([...failing, ...working])) {
      expect([op.status, op.claimedBy, op.nextDueAt!.getTime() > T0.getTime()]).toEqual(["PENDING", null, true]);
      expect(await db.evaluation.count({ where: { operationId: op.id } })).toBe(1);
    }
  });
});
