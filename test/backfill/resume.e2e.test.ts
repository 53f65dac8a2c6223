import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBackfillPass, type BackfillDeps } from "../../app/backfill/backfill.server";
import { requestBackfill } from "../../app/backfill/request.server";
import { seedHistory } from "../../fake-shopify/history";
import { installShop } from "../support/sessions";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";

let h: VerificationHarness;
beforeAll(async () => {
  h = await startVerificationHarness("history-resume.myshopify.com");
});
afterAll(async () => h.close());

class Crash extends Error {}

describe("a backfill stopped while it stages Shopify's result", () => {
  it("reads on from the last line it stored, drops what a lost statement staged past it, and verifies every refund once", async () => {
    const domain = "history-staging.myshopify.com";
    await installShop(h.db, h.app.shopify, domain);
    const seeded = seedHistory(h.app.shopify.shop(domain), 300);
    const { backfill } = await requestBackfill(h.db, domain, 60, "cli", h.clock.now());
    const deps: BackfillDeps = {
      db: h.db,
      gateway: h.worker.gateway,
      now: h.clock.now,
      workerId: "resume-test",
      logger: pino({ enabled: false }),
      shop: domain,
      chunkLines: 100,
    };
    await runBackfillPass(deps); // starts the bulk query
    h.clock.advance(10_000); // Shopify completes it, and the next poll is due
    // The process dies right after storing its third chunk of lines.
    let chunks = 0;
    await runBackfillPass({
      ...deps,
      onProgress: (b) => {
        if (b.state === "reading" && b.linesRead > 0 && ++chunks === 3) throw new Crash();
      },
    });
    const stopped = await h.db.backfill.findUniqueOrThrow({ where: { id: backfill.id } });
    expect([stopped.state, stopped.linesRead]).toEqual(["reading", 300]);
    expect(await h.db.operation.count({ where: { shop: domain } })).toBe(0);
    // A fourth statement had staged its lines when the process died, before their progress was stored.
    await h.db.backfillLine.create({
      data: {
        backfillId: backfill.id,
        line: 300,
        kind: "refund",
        agreementGid: "gid://shopify/SalesAgreement/0",
        orderGid: "gid://shopify/Order/0",
        refundGid: "gid://shopify/Refund/0",
        createdAt: new Date(),
        data: "{}",
      },
    });

    h.clock.advance(60_000);
    for (let i = 0; i < 20; i++) {
      await runBackfillPass(deps);
      if ((await h.db.backfill.findUniqueOrThrow({ where: { id: backfill.id } })).state === "done") break;
      h.clock.advance(10_000);
    }
    const done = await h.db.backfill.findUniqueOrThrow({ where: { id: backfill.id } });
    expect([done.state, done.bulkRuns, done.refundsFound, done.refundsVerified]).toEqual(["done", 1, seeded.inWindow, seeded.inWindow]);
    expect(h.app.shopify.api(domain).bulk.stats.downloads).toBe(2);
    const operations = await h.db.operation.findMany({ where: { shop: domain }, include: { _count: { select: { evaluations: true } } } });
    expect(operations).toHaveLength(seeded.inWindow);
    expect(operations.filter((op) => op._count.evaluations !== 1 || op.status !== seeded.expected.get(op.refundGid)?.verdict)).toEqual([]);
  });
});
