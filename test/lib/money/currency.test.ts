import { describe, expect, it } from "vitest";
import { currencyExponent, formatMoney, fromMinorUnits, toMinorUnits } from "../../../app/lib/money/currency";

describe("money for people", () => {
  it.each([
    [2500n, "USD", "en-US", "$25.00"],
    [1200n, "JPY", "en-US", "¥1,200"],
    [1234n, "KWD", "en-US", "KWD 1.234"],
    [2500n, "CHF", "en-US", "CHF 25.00"],
    [500n, "CAD", "en-US", "CA$5.00"],
    [123450n, "EUR", "de-DE", "1.234,50 €"],
    [1200n, "JPY", "de-DE", "1.200 ¥"],
    [-10n, "USD", "en-US", "-$0.10"],
  ])("%s minor %s in %s is %s", (minor, currency, locale, text) => {
    expect(formatMoney(minor, currency, locale).replace(/\u00a0/g, " ")).toBe(text);
  });

  it("is exact where a float is not: 2^53 + 1 cents", () => {
    expect(formatMoney(9007199254740993n, "USD")).toBe("$90,071,992,547,409.93");
  });

  it("a code Intl does not take stays readable", () => {
    expect(formatMoney(2500n, "US1")).toBe("25.00 US1");
  });
});

describe("minor units", () => {
  it("follow ISO 4217's exponents: JPY 0, KWD 3, others 2", () => {
    expect([currencyExponent("JPY"), currencyExponent("KWD"), currencyExponent("EUR")]).toEqual([0, 3, 2]);
    expect(toMinorUnits("1.234", "KWD")).toBe(1234n);
    expect(toMinorUnits("1.5", "JPY")).toBeUndefined();
    expect(toMinorUnits("12", "USD")).toBe(1200n);
    expect(fromMinorUnits(5n, "KWD")).toBe("0.005");
    expect(fromMinorUnits(-10n, "USD")).toBe("-0.10");
  });
});
