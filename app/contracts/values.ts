/**
 * Value kinds the operators understand. Money arrives as Shopify `Decimal` strings ("25.0",
 * "25.00") or JSON numbers, so decimals are compared exactly as scaled integers, never as floats.
 * Timestamps are ISO 8601 with an offset and compare as instants.
 */

export interface ExactDecimal {
  /** The value times 10^scale, exactly. */
  units: bigint;
  scale: number;
}

const decimalPattern = /^([+-]?)(\d+)(?:\.(\d+))?$/;

export function parseDecimal(value: unknown): ExactDecimal | undefined {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    // Shortest round-trip form; JSON numbers with exponents are not money.
    text = String(value);
  } else if (typeof value === "string") {
    // Most strings compared are ids ("gid://…"): reject them before the regex.
    const first = value.charCodeAt(0);
    if (!((first >= 48 && first <= 57) || first === 43 || first === 45 || first === 32)) return undefined;
    text = value.trim();
  } else {
    return undefined;
  }
  const match = decimalPattern.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = ""] = match;
  const units = BigInt(whole + fraction) * (sign === "-" ? -1n : 1n);
  return { units, scale: fraction.length };
}

export function compareDecimals(a: ExactDecimal, b: ExactDecimal): number {
  const scale = Math.max(a.scale, b.scale);
  const left = a.units * 10n ** BigInt(scale - a.scale);
  const right = b.units * 10n ** BigInt(scale - b.scale);
  return left === right ? 0 : left < right ? -1 : 1;
}

const instantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** Milliseconds since the epoch, or undefined for anything that is not an offset-qualified ISO 8601 instant. */
export function parseInstant(value: unknown): number | undefined {
  if (typeof value !== "string" || value.length < 20 || value.charCodeAt(10) !== 84 /* T */ || !instantPattern.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

export function wholeSecond(ms: number): number {
  return Math.floor(ms / 1000);
}
