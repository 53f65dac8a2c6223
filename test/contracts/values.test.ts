import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareDecimalValues, parseDecimal, parseInstant } from "../../app/contracts/values";

const pad = (value: number, width: number) => String(value).padStart(width, "0");

/** Offset-qualified ISO 8601 instants on real calendar days, with 0–9 fraction digits and any offset. */
const instant = fc
  .record({
    date: fc.date({
      min: new Date(Date.UTC(0, 0, 1)),
      max: new Date(Date.UTC(9999, 11, 31)),
      noInvalidDate: true,
    }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.stringMatching(/^[0-9]{0,9}$/),
    offset: fc.oneof(
      fc.constant("Z"),
      fc
        .tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([sign, h, m]) => `${sign}${pad(h, 2)}:${pad(m, 2)}`)
    ),
  })
  .map(({ date, hour, minute, second, fraction, offset }) => {
    const day = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
    return `${day}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}${fraction ? `.${fraction}` : ""}${offset}`;
  });

describe("instants are read by hand, exactly as Date.parse reads them", () => {
  it("agrees with Date.parse on every offset-qualified instant", () => {
    fc.assert(
      fc.property(instant, (text) => {
        expect(parseInstant(text)).toBe(Date.parse(text));
      }),
      { numRuns: 2000 }
    );
  });

  it("accepts nothing that Date.parse refuses, and nothing without an offset", () => {
    const nearlyInstant = fc.stringMatching(/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{0,10})?(Z|[+-][0-9]{2}:[0-9]{2})?$/);
    fc.assert(
      fc.property(fc.oneof(nearlyInstant, fc.string()), (text) => {
        const parsed = parseInstant(text);
        if (parsed !== undefined) expect(parsed).toBe(Date.parse(text));
      }),
      { numRuns: 2000 }
    );
  });

  it.each([
    "2026-02-29T00:00:00Z",
    "2026-04-31T10:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-11-29T24:00:01Z",
    "2026-11-29T10:60:00Z",
    "2026-11-29T10:00:00+24:00",
    "2026-11-29T10:00:00.Z",
    "2026-11-29T10:00:00.1234567890Z",
    "2026-11-29 10:00:00Z",
  ])("refuses %s", (text) => expect(parseInstant(text)).toBeUndefined());

  it("reads leap days, the end of the day, and offsets as instants", () => {
    expect(parseInstant("2024-02-29T12:00:00Z")).toBe(Date.UTC(2024, 1, 29, 12));
    expect(parseInstant("2026-11-29T24:00:00Z")).toBe(Date.UTC(2026, 10, 30));
    expect(parseInstant("2026-11-29T12:00:05.123456+02:00")).toBe(Date.UTC(2026, 10, 29, 10, 0, 5, 123));
  });
});

/** The decimals' order through BigInt, the slow and obviously exact way. */
function referenceOrder(a: string | number, b: string | number): number {
  const left = parseDecimal(a)!;
  const right = parseDecimal(b)!;
  const scale = Math.max(left.scale, right.scale);
  const l = left.units * 10n ** BigInt(scale - left.scale);
  const r = right.units * 10n ** BigInt(scale - right.scale);
  return l === r ? 0 : l < r ? -1 : 1;
}

describe("decimals compare digit by digit, exactly", () => {
  const decimalText = fc.stringMatching(/^[+-]?[0-9]{1,25}(\.[0-9]{1,12})?$/);
  const decimal = fc.oneof(
    decimalText,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !/e/.test(String(n)))
  );

  it("orders any two decimals as exact arithmetic does", () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        expect(compareDecimalValues(a, b)).toBe(referenceOrder(a, b));
      }),
      { numRuns: 3000 }
    );
  });

  it("equal values in different spellings compare equal", () => {
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), (text, leading, trailing) => {
        const unsigned = text.replace(/^[+-]/, "");
        const sign = text.startsWith("-") ? "-" : "";
        const respelled = `${sign}${"0".repeat(leading)}${unsigned}${unsigned.includes(".") ? "" : "."}${"0".repeat(trailing + 1)}`;
        expect(compareDecimalValues(text, respelled)).toBe(0);
      })
    );
    expect(compareDecimalValues("-0.00", "0")).toBe(0);
    expect(compareDecimalValues(25, "25.00")).toBe(0);
  });

  it.each(["1e3", "12,50", "1.", ".5", "--1", "", "gid://shopify/Refund/1", "2026-11-29T10:00:05Z", " ", "+"])("refuses %j", (text) => {
    expect(compareDecimalValues(text, "1")).toBeUndefined();
    expect(parseDecimal(text)).toBeUndefined();
  });
});
