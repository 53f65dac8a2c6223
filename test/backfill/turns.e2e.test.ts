import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBackfillPass, type BackfillDeps } from "../../app/backfill/backfill.server";
import { requestBackfill } from "../../app/backfill/request.server";
import { seedHistory } from "../../fake-shopify/history";
import { installShop } from "../support/sessions";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";

let h: VerificationHarness;
beforeAll(async () => {
  h = await startVerificationHarness("history-turns.myshopify.com");
});
afterAll(async () => h.close());

describe("a history verified on SQLite", () => {
  it("lets the rest of the process run while it verifies, refund after refund: a request waiting is answered before the whole history is", async () => {
    const domain = "history-turns-shop.myshopify.com";
    await installShop(h.db, h.app.shopify, domain);
    const seeded = seedHistory(h.app.shopify.shop(domain), 300);
    const { backfill } = await requestBackfill(h.db, domain, 60, "cli", h.clock.now());
    // What waits in the process while the history is verified: a callback the event loop runs at its next turn.
    let turnsWhileVerifying = 0;
    let verifying = false;
    const waiting = () => {
      if (!verifying) return;
      turnsWhileVerifying++;
      setImmediate(waiting);
    };
    const deps: BackfillDeps = {
      db: h.db,
      gateway: h.worker.gateway,
      now: h.clock.now,
      workerId: "turns-test",
      logger: pino({ enabled: false }),
      shop: domain,
      onProgress: (b) => {
        if (b.state !== "verifying" || verifying) return;
        verifying = true;
        setImmediate(waiting);
      },
    };
    await runBackfillPass(deps); // starts the bulk query
    h.clock.advance(10_000);
    await runBackfillPass(deps); // reads the result and verifies it
    verifying = false;
    const done = await h.db.backfill.findUniqueOrThrow({ where: { id: backfill.id } });
    expect([done.state, done.refundsVerified]).toEqual(["done", seeded.inWindow]);
    expect(turnsWhileVerifying).toBeGreaterThan(0);
  });
});
