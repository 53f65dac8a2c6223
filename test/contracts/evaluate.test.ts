import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../app/contracts/evaluate";
import { loadContract, loadContractText } from "../../app/contracts/load";
import { allEvidence, bindings, readback, REFUND_ID, STARTED, webhookEvents } from "./fixtures/bindings";

const seed = loadContractText(readFileSync("contracts/shopify.refund.created@1.0.0.json", "utf8"));
/** The seed with one change, loaded again as the app would load it (the evaluation plan is made at load). */
function seedWith(change: (contract: typeof seed.contract) => void) {
  const contract = structuredClone(seed.contract);
  change(contract);
  return loadContract(contract);
}
const byId = (result: ReturnType<typeof evaluate>, id: string) => result.conditions.find((c) => c.id === id)!;

describe("shopify.refund.created: VERIFIED conditions", () => {
  it("VERIFIED when the refund is read back as asked and its webhook arrived", () => {
    const result = evaluate(seed, bindings(allEvidence()));
    expect(result.verdict).toBe("VERIFIED");
    expect(result.escalate).toBe(false);
    expect(result.reasons).toEqual(["refund_created_in_window", "refund_present", "refund_webhook_present"]);
    expect(result.evidence.qualifying_channels).toEqual(["refund_readback", "refund_events", "order_refund_events"]);
    expect(result.contract).toEqual({ id: "shopify.refund.created", version: "1.0.0", declared_hash: "3b0c1707cf0adcf1", computed_hash: seed.computedHash });
  });

  it("refund_created_in_window: holds for a refund stamped in the operation's second", () => {
    const result = evaluate(seed, bindings(allEvidence({ createdAt: "2026-11-29T10:00:05Z" })));
    expect(byId(result, "refund_created_in_window").status).toBe("holds");
    expect(result.verdict).toBe("VERIFIED");
  });

  it("refund_present: fails for another refund id, so no VERIFIED (and no contradiction either)", () => {
    const result = evaluate(seed, bindings(allEvidence({ id: "gid://shopify/Refund/1" })));
    expect(byId(result, "refund_present")).toMatchObject({ status: "fails", actual: "gid://shopify/Refund/1", expected_value: REFUND_ID });
    expect(result.verdict).toBe("PENDING");
  });

  it("refund_webhook_present: without a webhook the refund is still PENDING", () => {
    const result = evaluate(seed, bindings({ ...allEvidence(), refund_events: webhookEvents(0) }));
    expect(byId(result, "refund_webhook_present").status).toBe("fails");
    expect(result.verdict).toBe("PENDING");
    expect(result.reasons).toEqual(["refund_webhook_present"]);
  });
});

describe("shopify.refund.created: CONTRADICTED conditions", () => {
  it("refund_on_wrong_order: wrong subject", () => {
    const result = evaluate(seed, bindings(allEvidence({ orderId: "gid://shopify/Order/1" })));
    expect(result).toMatchObject({ verdict: "CONTRADICTED", reason: "refund_on_wrong_order", classes: ["wrong subject"], escalate: true });
    expect(result.explanation).toBe("The refund belongs to another order.");
  });

  it("refund_amount_mismatch: wrong amount, compared as decimals (25.0 is 25.00, 24.99 is not)", () => {
    expect(evaluate(seed, bindings(allEvidence({ amount: "25.0" }))).verdict).toBe("VERIFIED");
    const result = evaluate(seed, bindings(allEvidence({ amount: "24.99" })));
    expect(result).toMatchObject({ verdict: "CONTRADICTED", reason: "refund_amount_mismatch", classes: ["wrong amount"] });
    expect(byId(result, "refund_amount_mismatch")).toMatchObject({ actual: "24.99", expected_value: "25.00" });
  });

  it("refund_predates_operation: pre-existing state, the exact complement of the window", () => {
    const result = evaluate(seed, bindings(allEvidence({ createdAt: "2026-11-29T12:00:04+02:00" })));
    expect(result).toMatchObject({ verdict: "CONTRADICTED", reason: "refund_predates_operation", classes: ["pre existing state"] });
    expect(byId(result, "refund_created_in_window").status).toBe("fails");
  });

  it("duplicate_refund_present: two refunds on the order since the start; says do not retry", () => {
    const result = evaluate(seed, bindings({ ...allEvidence(), order_refund_events: webhookEvents(2) }));
    expect(result).toMatchObject({ verdict: "CONTRADICTED", reason: "duplicate_refund_present", classes: ["duplicate side effect"] });
    expect(result.explanation).toContain("Do not retry");
  });

  it("reports every contradiction that holds, the first in contract order as the reason", () => {
    const result = evaluate(seed, bindings({ ...allEvidence({ amount: "1.00", orderId: "gid://shopify/Order/9" }), order_refund_events: webhookEvents(3) }));
    expect(result.reason).toBe("refund_on_wrong_order");
    expect(result.reasons).toEqual(["refund_on_wrong_order", "refund_amount_mismatch", "duplicate_refund_present"]);
    expect(result.classes).toEqual(["wrong subject", "wrong amount", "duplicate side effect"]);
  });
});

describe("shopify.refund.created: the pre-completion rule", () => {
  it.each(["FAILURE", "ERROR"])("transaction_failed: a %s transaction ends FAILED and escalates", (status) => {
    const result = evaluate(seed, bindings(allEvidence({ status })));
    expect(result).toMatchObject({ verdict: "FAILED", reason: "transaction_failed", escalate: true });
    expect(byId(result, "transaction_failed")).toMatchObject({ group: "rule", status: "holds", actual: status });
  });

  it("reads the first transaction of an edges-shaped connection too", () => {
    expect(evaluate(seed, bindings(allEvidence({ status: "FAILURE", edges: true }))).verdict).toBe("FAILED");
  });

  it("PENDING transactions do not fail", () => {
    expect(evaluate(seed, bindings(allEvidence({ status: "PENDING" }))).verdict).toBe("VERIFIED");
  });
});

describe("precedence", () => {
  it("CONTRADICTED beats FAILED", () => {
    const result = evaluate(seed, bindings(allEvidence({ status: "FAILURE", amount: "3.00" })));
    expect(result.verdict).toBe("CONTRADICTED");
    expect(byId(result, "transaction_failed").status).toBe("holds");
  });

  it("FAILED beats VERIFIED", () => {
    expect(evaluate(seed, bindings(allEvidence({ status: "ERROR" }))).verdict).toBe("FAILED");
  });

  it("a contradiction found after the timeout is still CONTRADICTED, not UNVERIFIABLE", () => {
    const result = evaluate(seed, bindings(allEvidence({ amount: "3.00" }), { now: "2026-12-07T10:00:06Z" }));
    expect(result.verdict).toBe("CONTRADICTED");
  });
});

describe("unknown is not false", () => {
  it("with nothing observed, nothing is decided", () => {
    const result = evaluate(seed, bindings({}));
    expect(result.verdict).toBe("PENDING");
    expect(result.conditions.every((c) => c.status === "unknown")).toBe(true);
  });

  it("a readback of a refund Shopify does not show (null) contradicts nothing", () => {
    const result = evaluate(seed, bindings({ refund_readback: { data: { refund: null } }, refund_events: webhookEvents(1), order_refund_events: webhookEvents(1) }));
    expect(result.verdict).toBe("PENDING");
    expect(byId(result, "refund_on_wrong_order").status).toBe("unknown");
  });

  it("an input without an amount never contradicts on the amount", () => {
    const b = bindings(allEvidence({ amount: "99.00" }));
    delete b.input.amount;
    const result = evaluate(seed, b);
    expect(byId(result, "refund_amount_mismatch").status).toBe("unknown");
    expect(result.verdict).toBe("VERIFIED");
  });
});

describe("the evidence requirement", () => {
  it("the action response alone (E1) never verifies", () => {
    const result = evaluate(seed, bindings({}));
    expect(result.evidence).toEqual({ observed_channels: [], qualifying_channels: [], requirement_met: false });
    expect(result.verdict).not.toBe("VERIFIED");
  });

  it("a channel below the minimum level does not count", () => {
    const weak = seedWith((contract) => {
      contract.channels = contract.channels.map((c) => ({ ...c, level: "E1" as const }));
    });
    const result = evaluate(weak, bindings(allEvidence()));
    expect(result.evidence.requirement_met).toBe(false);
    expect(result.verdict).toBe("PENDING");
  });

  it("a channel that is not independent does not count when independence is required", () => {
    const dependent = seedWith((contract) => {
      contract.channels = contract.channels.map((c) => ({ ...c, independence: "none" }));
    });
    expect(evaluate(dependent, bindings(allEvidence())).verdict).toBe("PENDING");
  });
});

describe("the timeout", () => {
  const week = 604_800_000;
  it("UNVERIFIABLE, escalated, exactly at created_at + timeout", () => {
    const justBefore = new Date(Date.parse(STARTED) + week - 1).toISOString();
    const atTimeout = new Date(Date.parse(STARTED) + week).toISOString();
    expect(evaluate(seed, bindings({}, { now: justBefore })).verdict).toBe("PENDING");
    const result = evaluate(seed, bindings({}, { now: atTimeout }));
    expect(result).toMatchObject({ verdict: "UNVERIFIABLE", reason: "evidence_unavailable_before_timeout", escalate: true });
    expect(result.reasons).toEqual(["refund_created_in_window", "refund_present", "refund_webhook_present"]);
  });

  it("VERIFIED evidence at the timeout still verifies", () => {
    expect(evaluate(seed, bindings(allEvidence(), { now: "2026-12-31T00:00:00Z" })).verdict).toBe("VERIFIED");
  });
});

describe("a second contract runs with no code change", () => {
  const other = loadContractText(readFileSync("test/contracts/fixtures/order-cancelled.contract.json", "utf8"));
  const order = (fields: Record<string, unknown>) => ({ order_readback: { data: { order: { cancelledAt: "2026-11-29T10:00:09Z", closed: true, totalRefundedSet: { shopMoney: { amount: "30.0" } }, refunds: [], ...fields } } } });
  const b = (observed: Record<string, unknown>) => bindings(observed, { input: { order_id: "gid://shopify/Order/1", amount: "25.00" } });

  it("verifies, contradicts, fails and times out by its own paths and operators", () => {
    expect(evaluate(other, b(order({}))).verdict).toBe("VERIFIED");
    expect(evaluate(other, b(order({ closed: false }))).reason).toBe("still_open");
    expect(evaluate(other, b(order({ refunds: [{ id: "a" }, { id: "b" }, { id: "c" }, { id: "d" }] }))).reason).toBe("too_many_refunds");
    expect(evaluate(other, b(order({ totalRefundedSet: { shopMoney: { amount: "24.99" } } }))).verdict).toBe("PENDING");
    const late = bindings({}, { now: "2026-11-29T10:01:05.250Z" });
    expect(evaluate(other, late)).toMatchObject({ verdict: "UNVERIFIABLE", reason: "no_cancellation_seen" });
  });
});

describe("the readback fixture is the real 2025-07 shape", () => {
  it("keeps amounts as Decimal strings", () => {
    expect(typeof readback().data.refund.totalRefundedSet.shopMoney.amount).toBe("string");
  });
});
