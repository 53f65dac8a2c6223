import type { Operator } from "./schema";
import { compareDecimalValues, parseInstant, wholeSecond } from "./values";

export type ConditionStatus = "holds" | "fails" | "unknown";

/**
 * Orders two values that share a kind: exact decimals or instants. Anything else is
 * incomparable (undefined), which makes an ordering condition unknown: a binding of the wrong
 * shape must never produce a verdict.
 */
function orderQuantities(actual: unknown, expected: unknown): number | undefined {
  // A decimal text is never an instant, so trying decimals first decides nothing wrongly.
  const decimalOrder = compareDecimalValues(actual, expected);
  if (decimalOrder !== undefined) return decimalOrder;
  const leftInstant = parseInstant(actual);
  if (leftInstant === undefined) return undefined;
  const rightInstant = parseInstant(expected);
  return rightInstant === undefined ? undefined : Math.sign(leftInstant - rightInstant);
}

/** true / false when the values share a kind, undefined when they cannot be compared. */
function equals(actual: unknown, expected: unknown): boolean | undefined {
  const ordering = orderQuantities(actual, expected);
  if (ordering !== undefined) return ordering === 0;
  if (typeof actual === "string" && typeof expected === "string") return actual === expected;
  if (typeof actual === "boolean" && typeof expected === "boolean") return actual === expected;
  return undefined;
}

function status(value: boolean | undefined): ConditionStatus {
  return value === undefined ? "unknown" : value ? "holds" : "fails";
}

export function applyOperator(operator: Operator, actual: unknown, expected: unknown): ConditionStatus {
  switch (operator) {
    case "eq":
      return status(equals(actual, expected));
    case "ne": {
      const equal = equals(actual, expected);
      return status(equal === undefined ? undefined : !equal);
    }
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const ordering = orderQuantities(actual, expected);
      if (ordering === undefined) return "unknown";
      if (operator === "gt") return status(ordering > 0);
      if (operator === "gte") return status(ordering >= 0);
      return status(operator === "lt" ? ordering < 0 : ordering <= 0);
    }
    case "in": {
      if (!Array.isArray(expected)) return "unknown";
      let anyIncomparable = false;
      for (const candidate of expected) {
        const equal = equals(actual, candidate);
        if (equal) return "holds";
        if (equal === undefined) anyIncomparable = true;
      }
      return anyIncomparable ? "unknown" : "fails";
    }
    case "time_after":
    case "time_before": {
      const observed = parseInstant(actual);
      const reference = parseInstant(expected);
      if (observed === undefined || reference === undefined) return "unknown";
      // Shopify stamps records to the whole second: compare seconds, so the two are exact complements.
      const inWindow = wholeSecond(observed) >= wholeSecond(reference);
      return status(operator === "time_after" ? inWindow : !inWindow);
    }
  }
}
