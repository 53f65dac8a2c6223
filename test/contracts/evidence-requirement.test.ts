import { describe, expect, it } from "vitest";
import { evaluate } from "../../app/contracts/evaluate";
import { REFUND_CREATED_1_1_0 } from "../../app/contracts/registry.server";
import { bindings, readback, webhookEvents } from "./fixtures/bindings";

const notShown = { data: { refund: null }, extensions: readback().extensions };

describe("a channel counts toward the evidence requirement only when it produced evidence about this refund", () => {
  it("a webhook channel with no event is an answer, not evidence", () => {
    const result = evaluate(REFUND_CREATED_1_1_0, bindings({ refund_events: webhookEvents(0), order_refund_events: webhookEvents(0) }));
    expect(result.evidence).toEqual({ observed_channels: [], qualifying_channels: [], requirement_met: false });
    expect(result.verdict).toBe("PENDING");
    expect(result.explanation).toMatch(/^Waiting for evidence at level E2/);
  });

  it("a read-back in which Shopify shows no refund is not evidence either", () => {
    const result = evaluate(REFUND_CREATED_1_1_0, bindings({ refund_readback: notShown, refund_events: webhookEvents(0) }));
    expect(result.evidence.observed_channels).toEqual([]);
  });

  it("a read-back that holds the refund and a webhook channel with one event are", () => {
    const result = evaluate(REFUND_CREATED_1_1_0, bindings({ refund_readback: readback(), refund_events: webhookEvents(1), order_refund_events: webhookEvents(1) }));
    expect(result.evidence).toEqual({ observed_channels: ["refund_readback", "refund_events", "order_refund_events"], qualifying_channels: ["refund_readback", "refund_events", "order_refund_events"], requirement_met: true });
    expect(result.verdict).toBe("VERIFIED");
  });
});
