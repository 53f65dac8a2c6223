import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUND_CREATED } from "../../app/contracts/registry.server";
import type { Evaluation } from "../../app/contracts/evaluate";
import { writeEvidence } from "../../app/verification/verdicts.server";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";

let h: VerificationHarness;
beforeAll(async () => {
  h = await startVerificationHarness("evidence-once.myshopify.com");
});
afterAll(async () => h.close());

describe("a verdict's evidence", () => {
  // Issue 29's stressed runs: a history worker whose 400 ms lease ran out while it wrote a verdict
  // was taken over, and the next worker, finding the verdict without its evidence yet, wrote it too.
  it("is written once: a second writer of the same verdict adds no evaluation and no observation", async () => {
    const order = h.shop.createOrder({ amount: "40.00" });
    const refund = h.shop.createRefund(order.id, { amount: "10.00" });
    await h.deliver(h.refundDelivery(refund));
    await h.settle();
    const decided = await operationFor(h.db, refundGid(refund.id));
    expect(decided.status).toBe("VERIFIED");
    const before = { evaluations: decided.evaluations.length, observations: decided.observations.length };
    const latest = decided.evaluations.at(-1)!;
    const { evaluations: _e, observations: _o, ...row } = decided;
    await writeEvidence(h.db, {
      contract: REFUND_CREATED,
      operation: row,
      observations: [{ channel: "refund_readback", observedAt: h.clock.now(), ok: true, data: { data: { refund: null } } }],
      result: JSON.parse(latest.result) as Evaluation,
      evaluatedAt: h.clock.now(),
      attempt: latest.attempt,
    });
    const after = await operationFor(h.db, refundGid(refund.id));
    expect({ evaluations: after.evaluations.length, observations: after.observations.length }).toEqual(before);
  });
});
