import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../app/contracts/evaluate";
import { loadContract, loadContractText } from "../../app/contracts/load";
import { bindings } from "./fixtures/bindings";

// 1.1.0's transaction_failed rule reads `transactions[*].status` `in` ["FAILURE", "ERROR"].
const v110 = loadContractText(readFileSync("contracts/shopify.refund.created@1.1.0.json", "utf8"));
const rule = (transactions: unknown, contract = v110) =>
  evaluate(contract, bindings({ refund_readback: { data: { refund: { transactions } } } })).conditions.find((c) => c.id === "transaction_failed")!;
const nodes = (...statuses: unknown[]) => ({ nodes: statuses.map((status) => ({ status })) });

describe("[*]: a condition over every element of a list", () => {
  it("holds when it holds for one element, and reports every element's value", () => {
    expect(rule(nodes("SUCCESS", "FAILURE"))).toMatchObject({ status: "holds", actual: ["SUCCESS", "FAILURE"] });
  });

  it("holds even when another element is unknown", () => {
    expect(rule(nodes(null, "ERROR")).status).toBe("holds");
  });

  it("fails when it fails for every element", () => {
    expect(rule(nodes("SUCCESS", "PENDING"))).toMatchObject({ status: "fails", actual: ["SUCCESS", "PENDING"] });
  });

  it("is unknown when none holds and one is unknown (absent, null or incomparable)", () => {
    expect(rule(nodes("SUCCESS", null))).toMatchObject({ status: "unknown", actual: ["SUCCESS", null] });
    expect(rule({ nodes: [{ status: "SUCCESS" }, {}] }).status).toBe("unknown");
    expect(rule(nodes("SUCCESS", 3)).status).toBe("unknown");
  });

  it("fails for an empty list: there is no element it holds for", () => {
    expect(rule({ nodes: [] })).toMatchObject({ status: "fails", actual: [] });
  });

  it("is unknown when the list is absent, null or not a list", () => {
    for (const absent of [undefined, null, "FAILURE", { pageInfo: { hasNextPage: false } }]) {
      expect(rule(absent)).toMatchObject({ status: "unknown", actual: null });
    }
  });

  it("reads a plain list, a connection's nodes and its edges alike", () => {
    const statuses = [{ status: "SUCCESS" }, { status: "FAILURE" }];
    expect(rule(statuses).status).toBe("holds");
    expect(rule({ nodes: statuses }).status).toBe("holds");
    expect(rule({ edges: statuses.map((node) => ({ cursor: "c", node })) }).status).toBe("holds");
  });

  it("is unknown, even for an empty list, when the expected side does not resolve", () => {
    const contract = structuredClone(v110.contract);
    contract.rules[0].expected = "$input.failed_statuses";
    expect(rule({ nodes: [] }, loadContract(contract)).status).toBe("unknown");
  });
});
