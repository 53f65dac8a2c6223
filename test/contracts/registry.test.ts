import { describe, expect, it } from "vitest";
import {
  CONTRACT_VERSIONS,
  contractByVersion,
  REFUND_CREATED,
  REFUND_CREATED_1_0_0,
  REFUND_CREATED_1_1_0,
  REFUND_CREATED_1_3_0,
  REFUND_HISTORY,
  REFUND_HISTORY_1_0_0,
  REFUND_SETTLED,
  REFUND_SETTLED_1_0_0,
} from "../../app/contracts/registry.server";

describe("the contract registry", () => {
  it("loads every version; new operations are opened with 1.3.0, the history's with shopify.refund.history 1.1.0, settlements with shopify.refund.settled 1.1.0", () => {
    expect(REFUND_CREATED_1_0_0.contract.version).toBe("1.0.0");
    expect(REFUND_CREATED_1_1_0.contract.version).toBe("1.1.0");
    expect(REFUND_CREATED).toBe(REFUND_CREATED_1_3_0);
    expect([...CONTRACT_VERSIONS.keys()]).toEqual([
      "shopify.refund.created@1.0.0",
      "shopify.refund.created@1.1.0",
      "shopify.refund.created@1.2.0",
      "shopify.refund.created@1.3.0",
      "shopify.refund.history@1.0.0",
      "shopify.refund.history@1.1.0",
      "shopify.refund.settled@1.0.0",
      "shopify.refund.settled@1.1.0",
      "shopify.refund.exposure@1.0.0",
    ]);
    expect([REFUND_SETTLED.contract.completion_level, REFUND_SETTLED.contract.version, REFUND_SETTLED.declaredHash, REFUND_SETTLED.computedHash]).toEqual([
      "settled",
      "1.1.0",
      "609337bb143dbc10",
      "609337bb143dbc10",
    ]);
    expect([REFUND_SETTLED_1_0_0.declaredHash, REFUND_SETTLED_1_0_0.computedHash]).toEqual(["5c05d9b1c63826f4", "5c05d9b1c63826f4"]);
    expect([REFUND_CREATED.declaredHash, REFUND_CREATED.computedHash]).toEqual(["362ca2f325e3f3b5", "362ca2f325e3f3b5"]);
    expect([REFUND_HISTORY.contract.version, REFUND_HISTORY.declaredHash, REFUND_HISTORY.computedHash]).toEqual(["1.1.0", "c8209f125e9173b1", "c8209f125e9173b1"]);
    expect([REFUND_HISTORY_1_0_0.declaredHash, REFUND_HISTORY_1_0_0.computedHash]).toEqual(["4fa8f378b7c490f9", "4fa8f378b7c490f9"]);
  });

  it("finds the contract that decided a stored verdict by its id and version", () => {
    expect(contractByVersion("shopify.refund.created", "1.0.0")).toBe(REFUND_CREATED_1_0_0);
    expect(contractByVersion("shopify.refund.created", "1.1.0")).toBe(REFUND_CREATED_1_1_0);
    expect(contractByVersion("shopify.refund.created", "2.0.0")).toBeUndefined();
  });
});
