import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../app/contracts/evaluate";
import { loadContractText } from "../../app/contracts/load";
import { earlierDuplicates, type RecordedRefund } from "../../app/verdicts/duplicates";
import { bindings, readback, REFUND_ID, webhookEvents } from "./fixtures/bindings";

const v120 = loadContractText(readFileSync("contracts/shopify.refund.created@1.2.0.json", "utf8"));
const byId = (result: ReturnType<typeof evaluate>, id: string) => result.conditions.find((c) => c.id === id)!;

/** This refund (25.00 USD, created 10:00:06) as Shopify's read-back of its order lists it. */
const THIS: RecordedRefund = { id: REFUND_ID, createdAt: "2026-11-29T10:00:06Z", totalRefundedSet: { presentmentMoney: { amount: "25.0", currencyCode: "USD" } } };
const other = (id: number, createdAt: string, amount = "25.0", currencyCode = "USD"): RecordedRefund => ({
  id: `gid://shopify/Refund/${id}`,
  createdAt,
  totalRefundedSet: { presentmentMoney: { amount, currencyCode } },
});

/** Every channel 1.2.0 declares, for this refund among `orderRefunds`. */
function observed(orderRefunds: RecordedRefund[], options: { intended?: boolean } = {}) {
  return bindings({
    refund_readback: readback(),
    refund_events: webhookEvents(1),
    earlier_duplicates: earlierDuplicates(THIS, [THIS, ...orderRefunds], options.intended),
    intended_refund: { confirmed: Boolean(options.intended), by: options.intended ? "77" : null, at: null },
    refund_absence: { reads_without_refund: 0 },
  });
}

describe("shopify.refund.created 1.2.0: a duplicate is another refund of the same amount on the order, made within the 10 minutes before", () => {
  it("CONTRADICTED duplicate_refund_present for a refund made 4 s after another of the same amount", () => {
    const result = evaluate(v120, observed([other(1, "2026-11-29T10:00:02Z")]));
    expect(result).toMatchObject({ verdict: "CONTRADICTED", reason: "duplicate_refund_present", classes: ["duplicate side effect"], escalate: true });
    expect(byId(result, "duplicate_refund_present")).toMatchObject({ status: "holds", actual: 1 });
  });

  it("VERIFIED for the first of that pair: the refund after it is not one before it", () => {
    expect(evaluate(v120, observed([other(2, "2026-11-29T10:00:10Z")])).verdict).toBe("VERIFIED");
  });

  it("VERIFIED beside a refund of another amount (shipping 25.00, an item 7.50) or another currency", () => {
    expect(evaluate(v120, observed([other(1, "2026-11-29T10:00:02Z", "7.50")])).verdict).toBe("VERIFIED");
    expect(evaluate(v120, observed([other(1, "2026-11-29T10:00:02Z", "25.00", "EUR")])).verdict).toBe("VERIFIED");
  });

  it("the same amount written another way (25.00 and 25.0) is the same amount", () => {
    expect(evaluate(v120, observed([other(1, "2026-11-29T10:00:02Z", "25.00")])).reason).toBe("duplicate_refund_present");
  });

  it("VERIFIED beside a refund of the same amount two hours before, and one 10 minutes and a second before", () => {
    expect(evaluate(v120, observed([other(1, "2026-11-29T08:00:06Z")])).verdict).toBe("VERIFIED");
    expect(evaluate(v120, observed([other(1, "2026-11-29T09:50:05Z")])).verdict).toBe("VERIFIED");
    expect(evaluate(v120, observed([other(1, "2026-11-29T09:50:06Z")])).reason).toBe("duplicate_refund_present");
  });

  it("in the same second, the refund with the lower id came first", () => {
    expect(evaluate(v120, observed([other(1, "2026-11-29T10:00:06Z")])).reason).toBe("duplicate_refund_present");
    expect(evaluate(v120, observed([{ ...other(1, "2026-11-29T10:00:06Z"), id: "gid://shopify/Refund/990088186047892319" }])).verdict).toBe("VERIFIED");
  });

  it("VERIFIED when a person confirmed this refund as another one on the order", () => {
    const result = evaluate(v120, observed([other(1, "2026-11-29T10:00:02Z")], { intended: true }));
    expect(result.verdict).toBe("VERIFIED");
    expect(byId(result, "duplicate_refund_present")).toMatchObject({ status: "fails", actual: 0 });
  });
});

describe("shopify.refund.created 1.2.0: no verdict that speaks for Shopify without Shopify's record", () => {
  const unknownRefund = (readsWithoutRefund: number, webhooks: number) =>
    bindings({
      refund_readback: { data: { refund: null }, extensions: readback().extensions },
      refund_events: webhookEvents(webhooks),
      intended_refund: { confirmed: false, by: null, at: null },
      refund_absence: { reads_without_refund: readsWithoutRefund },
    });

  it("a refund Shopify answers null for, with two webhooks of it, is neither CONTRADICTED nor FAILED: it waits", () => {
    const result = evaluate(v120, unknownRefund(9, 2));
    expect(result.verdict).toBe("PENDING");
    // What it waits for is Shopify's record of the refund, not a class of contradiction.
    expect(result.reasons).toEqual(["refund_created_in_window", "refund_present"]);
    expect(result.classes).toEqual([]);
  });

  it("the tenth read after the stale read window without it: UNVERIFIABLE refund_not_in_shop, escalated", () => {
    const result = evaluate(v120, unknownRefund(10, 2));
    expect(result).toMatchObject({ verdict: "UNVERIFIABLE", reason: "refund_not_in_shop", escalate: true });
    expect(result.explanation).toContain("Shopify does not show this refund in the shop");
  });
});
