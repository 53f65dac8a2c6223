import { describe, expect, it } from "vitest";
import { applyOperator } from "../../app/contracts/operators";
import { parseDecimal, compareDecimalValues, parseInstant } from "../../app/contracts/values";

describe("money compares as exact decimals", () => {
  it.each([
    ["25.0", "25.00", "eq", "holds"],
    ["25.0", 25, "eq", "holds"],
    [25.5, "25.50", "eq", "holds"],
    ["25.0", "25.01", "ne", "holds"],
    ["0.1", "0.10000000000000001", "eq", "fails"],
    ["0.3", "0.30", "eq", "holds"],
    ["100.57", "100.56", "gt", "holds"],
    ["100.57", "100.57", "gte", "holds"],
    ["-1.5", "1.5", "lt", "holds"],
    ["1.5", "1.50", "lte", "holds"],
    ["1.5", "1.49", "lte", "fails"],
    ["99999999999999999999.99", "99999999999999999999.98", "gt", "holds"],
  ] as const)("%s %s %s → %s", (actual, expected, operator, status) => {
    expect(applyOperator(operator, actual, expected)).toBe(status);
  });

  it("never uses floats: 0.1 + 0.2 style values stay exact", () => {
    expect(compareDecimalValues("0.30", "0.3")).toBe(0);
    expect(parseDecimal("1e3")).toBeUndefined();
    expect(parseDecimal("12,50")).toBeUndefined();
  });
});

describe("timestamps compare as instants", () => {
  it("treats the same instant in two offsets as equal", () => {
    expect(applyOperator("eq", "2026-11-29T12:00:05+02:00", "2026-11-29T10:00:05Z")).toBe("holds");
    expect(applyOperator("gt", "2026-11-29T12:00:06+02:00", "2026-11-29T10:00:05Z")).toBe("holds");
    expect(applyOperator("lt", "2026-11-29T09:00:05-02:00", "2026-11-29T10:00:05Z")).toBe("fails");
  });

  it("time_after holds from the operation's whole second on; time_before is its exact complement", () => {
    const started = "2026-11-29T10:00:05.250Z";
    const cases = [
      ["2026-11-29T10:00:04Z", "fails", "holds"],
      ["2026-11-29T10:00:05Z", "holds", "fails"],
      ["2026-11-29T12:00:05+02:00", "holds", "fails"],
      ["2026-11-29T10:00:06Z", "holds", "fails"],
    ] as const;
    for (const [observed, after, before] of cases) {
      expect(applyOperator("time_after", observed, started)).toBe(after);
      expect(applyOperator("time_before", observed, started)).toBe(before);
    }
  });

  it("refuses timestamps without an offset (ambiguous) as unknown", () => {
    expect(parseInstant("2026-11-29T10:00:05")).toBeUndefined();
    expect(applyOperator("time_after", "2026-11-29T10:00:05", "2026-11-29T10:00:05Z")).toBe("unknown");
    expect(applyOperator("time_before", "yesterday", "2026-11-29T10:00:05Z")).toBe("unknown");
  });
});

describe("strings, booleans and lists", () => {
  it("compares ids as strings", () => {
    expect(applyOperator("eq", "gid://shopify/Refund/1", "gid://shopify/Refund/1")).toBe("holds");
    expect(applyOperator("ne", "gid://shopify/Order/1", "gid://shopify/Order/2")).toBe("holds");
    expect(applyOperator("eq", true, true)).toBe("holds");
    expect(applyOperator("ne", true, false)).toBe("holds");
  });

  it("in matches any member, by kind", () => {
    expect(applyOperator("in", "FAILURE", ["FAILURE", "ERROR"])).toBe("holds");
    expect(applyOperator("in", "SUCCESS", ["FAILURE", "ERROR"])).toBe("fails");
    expect(applyOperator("in", "25.00", ["25.0", "30"])).toBe("holds");
    expect(applyOperator("in", 5, ["FAILURE"])).toBe("unknown");
    expect(applyOperator("in", "FAILURE", "FAILURE")).toBe("unknown");
  });

  it("makes values of different kinds incomparable, never a verdict", () => {
    expect(applyOperator("ne", { amount: "25.0" }, "25.0")).toBe("unknown");
    expect(applyOperator("eq", true, "true")).toBe("unknown");
    expect(applyOperator("gt", "abc", "abd")).toBe("unknown");
    expect(applyOperator("gte", "2026-11-29T10:00:05Z", 5)).toBe("unknown");
  });
});
