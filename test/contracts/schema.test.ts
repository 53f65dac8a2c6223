import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ContractError, loadContract, loadContractText, parseBindings } from "../../app/contracts/load";
import { canonicalJson, computeContractHash } from "../../app/contracts/hash";
import { bindings } from "./fixtures/bindings";

const seedJson = () => JSON.parse(readFileSync("contracts/shopify.refund.created@1.0.0.json", "utf8"));

function problems(mutate: (contract: Record<string, any>) => void): string[] { // eslint-disable-line @typescript-eslint/no-explicit-any
  const contract = seedJson();
  mutate(contract);
  try {
    loadContract(contract);
  } catch (error) {
    expect(error).toBeInstanceOf(ContractError);
    return (error as ContractError).problems;
  }
  throw new Error("the contract was accepted");
}

describe("loading a contract", () => {
  it("accepts the seed with every member", () => {
    const { contract } = loadContractText(readFileSync("contracts/shopify.refund.created@1.0.0.json", "utf8"));
    expect(contract.verified_when).toHaveLength(3);
    expect(contract.contradicted_when).toHaveLength(4);
    expect(contract.rules).toHaveLength(1);
    expect(contract.channels.map((c) => c.id)).toEqual(["refund_readback", "refund_events", "order_refund_events"]);
    expect(contract.sources).toHaveLength(8);
    expect(contract.timing).toMatchObject({ initial_delay_ms: 1000, poll_interval_ms: 5000, max_attempts: 40, timeout_ms: 604800000, stale_read_window_ms: 20000 });
  });

  it("names the member that is wrong", () => {
    expect(problems((c) => (c.verified_when[1].operator = "equals"))[0]).toMatch(/^verified_when\[1\]\.operator: /);
    expect(problems((c) => (c.contradicted_when[0].path = "observed.refund_readback"))[0]).toMatch(/^contradicted_when\[0\]\.path: must be a path/);
    expect(problems((c) => (c.timing.max_attempts = 0))[0]).toMatch(/^timing\.max_attempts: /);
    expect(problems((c) => delete c.sources)[0]).toMatch(/^sources: Required/);
    expect(problems((c) => (c.rules[0].evidence = "nowhere"))).toContain('rules[0].evidence: names no declared channel: "nowhere"');
    expect(problems((c) => (c.verified_when[2].path = "$observed.mystery.count"))).toContain('verified_when[2].path: reads undeclared channel "mystery"');
    expect(problems((c) => (c.contradicted_when[1].id = "refund_present"))).toContain('contradicted_when[1].id: duplicate condition id "refund_present"');
    expect(problems((c) => (c.rules[0].expected = "FAILURE"))).toContain("rules[0].expected: operator in needs a list or a path");
    expect(problems((c) => (c.surprise = 1))[0]).toMatch(/Unrecognized key/);
  });

  it("allows [*] once, in a condition's path only", () => {
    const status = "$observed.refund_readback.data.refund.transactions[*].status";
    expect(() => loadContract({ ...seedJson(), rules: [{ ...seedJson().rules[0], path: status }] })).not.toThrow();
    expect(problems((c) => (c.rules[0].path = "$observed.refund_readback.data.refund.transactions[*].lines[*].status"))).toContain("rules[0].path: may use [*] only once");
    expect(problems((c) => (c.contradicted_when[1].expected = "$observed.refund_readback.data.refund.transactions[*].amount"))).toContain(
      "contradicted_when[1].expected: cannot use [*]: it is allowed on the observed side (path) only",
    );
    expect(problems((c) => (c.correlation[0].keys[0].path = "$action.result.refunds[*].id"))).toContain("correlation[0].keys[0].path: names one value, so it cannot use [*]");
  });

  it("takes idempotency as text or as the stated mechanism, nothing else", () => {
    const stated = { directive: "@idempotent(key:)", operation: "refundCreate", required_from: "2026-04", key: "the refund record's id" };
    expect(loadContract({ ...seedJson(), subject: { ...seedJson().subject, idempotency: stated } }).contract.subject.idempotency).toEqual(stated);
    expect(problems((c) => (c.subject.idempotency = { directive: "@idempotent(key:)" }))[0]).toMatch(/^subject\.idempotency: /);
  });

  it("refuses text that is not JSON", () => {
    expect(() => loadContractText("{ nope")).toThrow(/the contract is not valid JSON/);
  });

  it("refuses bindings without an instant for now or created_at", () => {
    expect(() => parseBindings({ ...bindings({}), now: "tomorrow" })).toThrow(/now: must be an ISO 8601 instant/);
    expect(() => parseBindings({ ...bindings({}), operation: {} })).toThrow(/operation\.created_at: Required/);
  });
});

describe("the content hash", () => {
  it("is 16 hex digits, independent of key order and of the declared hash", () => {
    const contract = seedJson();
    const { computedHash } = loadContract(contract);
    expect(computedHash).toMatch(/^[0-9a-f]{16}$/);
    const reordered = Object.fromEntries(Object.entries(contract).reverse());
    expect(loadContract({ ...reordered, hash: "ffffffffffffffff" }).computedHash).toBe(computedHash);
  });

  it("changes when any member changes", () => {
    const contract = seedJson();
    const before = loadContract(contract).computedHash;
    contract.contradicted_when[1].reason += ".";
    expect(loadContract(contract).computedHash).not.toBe(before);
    expect(computeContractHash(loadContract(contract).contract)).toBe(loadContract(contract).computedHash);
  });

  it("1.1.0 declares the hash we compute (we are its author); the seed's came from its author's tool", () => {
    const ours = loadContractText(readFileSync("contracts/shopify.refund.created@1.1.0.json", "utf8"));
    expect(ours.declaredHash).toBe(ours.computedHash);
    const seed = loadContract(seedJson());
    expect(seed.declaredHash).toBe("3b0c1707cf0adcf1");
    expect(seed.declaredHash).not.toBe(seed.computedHash);
  });

  it("canonical JSON sorts keys at every depth", () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
  });
});
