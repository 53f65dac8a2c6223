import { afterAll, beforeAll, describe, it } from "vitest";
import { decideFleetOnce, FLEET_TIMEOUT_MS } from "../support/fleet";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";

// `npm run test:heavy`, on PostgreSQL: the scale at which workers on many machines share one database.
// The suite runs the same test with 2,000 operations on both databases (test/verification/workers.e2e.test.ts).
let h: VerificationHarness;
beforeAll(async () => {
  h = await startVerificationHarness("workers-at-scale.myshopify.com");
  // The workers here are processes of their own, on the wall clock.
  h.useWallClock();
});
afterAll(async () => h.close());

describe("four worker processes on one database, as on four machines", () => {
  it("decide each of 10,000 operations exactly once, and never send a request into an empty bucket", { timeout: FLEET_TIMEOUT_MS }, () =>
    decideFleetOnce(h, 1_000),
  );
});
