import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestBackfill } from "../../app/backfill/request.server";
import { seedHistory } from "../../fake-shopify/history";
import { installShop } from "../support/sessions";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";
import { startWorkerProcess, stopWorker } from "../support/worker-process";
import { waitFor } from "../support/wait";

let h: VerificationHarness;
beforeAll(async () => {
  h = await startVerificationHarness("history-restart.myshopify.com");
  // The workers here are processes of their own, on the wall clock.
  h.useWallClock();
});
afterAll(async () => h.close());

describe("a backfill killed midway", () => {
  it("resumes where it stopped and ends with exactly one operation, decided once, per refund", { timeout: 600_000 }, async () => {
    const domain = "history-sigkill.myshopify.com";
    await installShop(h.db, h.app.shopify, domain);
    // Two pages of refunds (500 a page): killed after the first is stored, the second is left to resume.
    const seeded = seedHistory(h.app.shopify.shop(domain), 800);
    const env = { BACKFILL_POLL_MS: "200" };
    const { backfill } = await requestBackfill(h.db, domain, 60, "cli", new Date());

    const first = startWorkerProcess(h.app.databaseUrl, env, "ignore");
    // A worker left running by a failed wait would outlive the test run.
    const midway = await waitFor(
      "the backfill to have verified part of the history",
      async () => {
        const current = await h.db.backfill.findUniqueOrThrow({ where: { id: backfill.id } });
        return current.state === "verifying" && current.refundsVerified > 0 && current.refundsVerified < current.refundsFound && current;
      },
      240_000,
    ).catch(async (error: Error) => {
      await stopWorker(first);
      throw error;
    });
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    const openedBeforeKill = await h.db.operation.count({ where: { shop: domain } });
    expect(openedBeforeKill).toBeGreaterThanOrEqual(midway.refundsVerified);
    expect(openedBeforeKill).toBeLessThan(seeded.inWindow);

    const second = startWorkerProcess(h.app.databaseUrl, env, "ignore");
    try {
      const done = await waitFor(
        "the backfill to end",
        async () => {
          const current = await h.db.backfill.findUniqueOrThrow({ where: { id: backfill.id } });
          return (current.state === "done" || current.state === "failed") && current;
        },
        300_000,
      );
      expect([done.state, done.refundsVerified, done.bulkRuns]).toEqual(["done", seeded.inWindow, 1]);
    } finally {
      await stopWorker(second);
    }
    const operations = await h.db.operation.findMany({ where: { shop: domain }, include: { _count: { select: { evaluations: true } } } });
    expect(operations).toHaveLength(seeded.inWindow);
    expect(new Set(operations.map((op) => op.refundGid)).size).toBe(seeded.inWindow);
    expect(operations.filter((op) => op._count.evaluations !== 1)).toEqual([]);
    const wrong = operations.filter((op) => op.status !== seeded.expected.get(op.refundGid)?.verdict);
    expect(wrong).toEqual([]);
  });
});
