import { describe, expect, it } from "vitest";
import { overLimitSentence } from "../../app/alerts/over-limit-alerts";

describe("a refund made outside the app over a limit, in words", () => {
  it("names who made it, or says Shopify named nobody; limits it cannot read send to the evidence page", () => {
    expect(overLimitSentence({ amount: "$120.00", order: "#1002" }, "Rene Ortiz", [])).toBe(
      "Rene Ortiz refunded $120.00 on #1002 outside the app (Shopify admin, POS or another app), where nothing could stop it. The evidence page says which limit it went over.",
    );
    const perRefund = { kind: "per_refund" as const, currency: "EUR", limitMinor: "10000", amountMinor: "12000", own: true };
    expect(overLimitSentence({ amount: "€120.00", order: "#1002" }, "Rene Ortiz", [perRefund])).toContain(
      "€120.00 is over Rene Ortiz's limit of €100.00 per refund.",
    );
    expect(overLimitSentence({ amount: "€120.00", order: "#1002" }, null, [perRefund])).toMatch(
      /^€120.00 was refunded on #1002 outside the app, by no staff member/,
    );
  });
});
