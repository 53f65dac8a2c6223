import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../app/contracts/evaluate";
import { loadContractText } from "../../app/contracts/load";
import { allEvidence, bindings, eurRefund, webhookEvents } from "./fixtures/bindings";

const load = (version: string) => loadContractText(readFileSync(`contracts/shopify.refund.created@${version}.json`, "utf8"));
const v100 = load("1.0.0");
const v110 = load("1.1.0");
const byId = (result: ReturnType<typeof evaluate>, id: string) => result.conditions.find((c) => c.id === id)!;

describe("shopify.refund.created 1.1.0: the amount in the currency it was asked in", () => {
  it("VERIFIED for a EUR refund read back at 25.00 EUR in presentment money", () => {
    const result = evaluate(v110, eurRefund());
    expect(result).toMatchObject({ verdict: "VERIFIED", contract: { version: "1.1.0", declared_hash: v110.computedHash, computed_hash: v110.computedHash } });
    expect(byId(result, "refund_amount_mismatch")).toMatchObject({ status: "fails", actual: "25.0", expected_value: "25.00" });
    expect(byId(result, "refund_currency_mismatch")).toMatchObject({ status: "fails", actual: "EUR", expected_value: "EUR" });
  });

  it("where 1.0.0 compared the shop's money, and so contradicted the same refund", () => {
    expect(evaluate(v100, eurRefund())).toMatchObject({ verdict: "CONTRADICTED", reason: "refund_amount_mismatch" });
  });

  it("refund_currency_mismatch: CONTRADICTED, class wrong amount, when the presentment currency differs", () => {
    const result = evaluate(v110, eurRefund({ currency: "GBP" }));
    expect(result).toMatchObject({ verdict: "CONTRADICTED", reason: "refund_currency_mismatch", reasons: ["refund_currency_mismatch"], classes: ["wrong amount"], escalate: true });
    expect(result.explanation).toBe("The provider recorded the refund in another currency.");
  });

  it("refund_amount_mismatch reads the presentment amount", () => {
    const result = evaluate(v110, eurRefund({ amount: "24.99" }));
    expect(result).toMatchObject({ verdict: "CONTRADICTED", reason: "refund_amount_mismatch" });
    expect(byId(result, "refund_amount_mismatch").path).toBe("$observed.refund_readback.data.refund.totalRefundedSet.presentmentMoney.amount");
  });

  it("an input without a currency never contradicts on the currency", () => {
    const b = eurRefund({ currency: "GBP" });
    delete b.input.currency;
    const result = evaluate(v110, b);
    expect(byId(result, "refund_currency_mismatch").status).toBe("unknown");
    expect(result.verdict).toBe("VERIFIED");
  });

  it("reports contradictions in the new order", () => {
    const b = eurRefund({ orderId: "gid://shopify/Order/1", amount: "1.00", currency: "GBP", createdAt: "2026-11-29T10:00:04Z" });
    b.observed.order_refund_events = webhookEvents(2);
    expect(evaluate(v110, b).reasons).toEqual(["refund_on_wrong_order", "refund_amount_mismatch", "refund_currency_mismatch", "refund_predates_operation", "duplicate_refund_present"]);
  });
});

describe("shopify.refund.created 1.1.0: transaction_failed reads every transaction", () => {
  const secondFailed = bindings(allEvidence({ transactions: [{ status: "SUCCESS", amount: "10.0", gateway: "gift_card" }, { status: "FAILURE", amount: "15.0" }] }));

  it("FAILED when the second transaction failed and the first succeeded", () => {
    const result = evaluate(v110, secondFailed);
    expect(result).toMatchObject({ verdict: "FAILED", reason: "transaction_failed", escalate: true });
    expect(byId(result, "transaction_failed")).toMatchObject({ status: "holds", actual: ["SUCCESS", "FAILURE"] });
  });

  it("where 1.0.0 read transactions[0] only, and so did not fail the same refund", () => {
    const result = evaluate(v100, secondFailed);
    expect(result.verdict).toBe("VERIFIED");
    expect(byId(result, "transaction_failed")).toMatchObject({ status: "fails", actual: "SUCCESS" });
  });

  it("VERIFIED while every transaction succeeded or is pending", () => {
    const settling = bindings(allEvidence({ transactions: [{ status: "SUCCESS", amount: "10.0" }, { status: "PENDING", amount: "15.0" }] }));
    expect(evaluate(v110, settling).verdict).toBe("VERIFIED");
  });
});
