import { describe, expect, it } from "vitest";
import { csvCell } from "../../app/exports/refunds-csv.server";
import { exposureReasons, moneyAtRiskTwiceInWords, type ExposureCells } from "../../app/exposure/cells";

const exposure = (overrides: Partial<ExposureCells> = {}): ExposureCells => ({
  status: "CONTRADICTED",
  reasons: '["refund_on_disputed_order"]',
  classes: '["open chargeback"]',
  atRisk: "40.00",
  currency: "USD",
  ...overrides,
});

describe("the CSV's money at risk twice", () => {
  it("for people: at risk with the amount and what puts it at risk, Clear, Not known, or nothing while not judged", () => {
    expect(moneyAtRiskTwiceInWords(exposure())).toBe("At risk twice: $40.00, chargeback open");
    expect(moneyAtRiskTwiceInWords(exposure({ atRisk: "1234.5", currency: "EUR", classes: '["paid twice"]' }))).toBe("At risk twice: €1,234.50, paid twice");
    expect(moneyAtRiskTwiceInWords(exposure({ atRisk: "5000", currency: "JPY" }))).toBe("At risk twice: ¥5,000, chargeback open");
    expect(moneyAtRiskTwiceInWords(exposure({ atRisk: null, currency: null, classes: '["more back than paid"]' }))).toBe("At risk twice: more back than paid");
    expect(moneyAtRiskTwiceInWords(exposure({ status: "VERIFIED" }))).toBe("Clear");
    expect(moneyAtRiskTwiceInWords(exposure({ status: "UNVERIFIABLE" }))).toBe("Not known");
    expect(moneyAtRiskTwiceInWords(exposure({ status: "PENDING" }))).toBe("");
    expect(moneyAtRiskTwiceInWords(undefined)).toBe("");
  });

  it("raw: the engine's reasons, '; '-separated; stored JSON it cannot read is empty, not an error", () => {
    expect(exposureReasons(exposure({ reasons: '["refunded_past_payment","store_credit_and_payment"]' }))).toBe(
      "refunded_past_payment; store_credit_and_payment",
    );
    expect(exposureReasons(exposure({ reasons: "not json" }))).toBe("");
    expect(moneyAtRiskTwiceInWords(exposure({ classes: "{}" }))).toBe("At risk twice: $40.00");
    expect(exposureReasons(undefined)).toBe("");
  });

  it("a cell stays text a spreadsheet does not run, whatever a stored class says", () => {
    const cell = csvCell(moneyAtRiskTwiceInWords(exposure({ classes: '["=HYPERLINK(\\"x\\")"]' })));
    expect(cell).toBe('"At risk twice: $40.00, =HYPERLINK(""x"")"');
    expect(csvCell(exposureReasons(exposure({ reasons: '["-1+2"]' })))).toBe(`"'-1+2"`);
  });
});
