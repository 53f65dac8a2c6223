import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../app/contracts/evaluate";
import { loadContractText } from "../../app/contracts/load";
import { renderContract } from "../../app/contracts/render";
import { bindings, readback, webhookEvents } from "./fixtures/bindings";

const v130 = loadContractText(readFileSync("contracts/shopify.refund.created@1.3.0.json", "utf8"));

/** A refund Shopify answers null for, read `withoutRefund` times in a row after the window, of which the last `withoutOrder` did not show its order either. */
const notShown = (withoutRefund: number, withoutOrder: number) =>
  bindings({
    refund_readback: { data: { refund: null, order: withoutOrder > 0 ? null : { id: "gid://shopify/Order/1" } }, extensions: readback().extensions },
    refund_events: webhookEvents(1),
    intended_refund: { confirmed: false, by: null, at: null },
    refund_absence: { reads_without_refund: withoutRefund, reads_without_order: withoutOrder },
  });

describe("shopify.refund.created 1.3.0: a refund of an order the shop does not have alerts no one", () => {
  it("ten reads without the refund nor its order: UNVERIFIABLE order_not_in_shop, not escalated", () => {
    const result = evaluate(v130, notShown(10, 10));
    expect(result).toMatchObject({ verdict: "UNVERIFIABLE", reason: "order_not_in_shop", escalate: false });
    expect(result.explanation).toContain("Shopify signs the body and not the shop header");
  });

  it("ten reads without the refund while Shopify shows its order: UNVERIFIABLE refund_not_in_shop, escalated, as in 1.2.0", () => {
    expect(evaluate(v130, notShown(10, 0))).toMatchObject({ verdict: "UNVERIFIABLE", reason: "refund_not_in_shop", escalate: true });
  });

  it("an order read that did not answer ends the run: ten without the refund, nine without the order, goes to a person", () => {
    expect(evaluate(v130, notShown(10, 9))).toMatchObject({ verdict: "UNVERIFIABLE", reason: "refund_not_in_shop", escalate: true });
  });

  it("nine reads without either still waits", () => {
    expect(evaluate(v130, notShown(9, 9)).verdict).toBe("PENDING");
  });

  it("renders the rule as not escalated", () => {
    expect(renderContract(v130)).toContain("| `order_not_in_shop` | `$observed.refund_absence.reads_without_order` gte `10` | UNVERIFIABLE, not escalated |");
  });
});
