import { parseDecimal } from "../../contracts/values";
import { formatDecimal } from "./decimal";
import { numberFormat } from "../intl/formats";

/** ISO 4217 minor-unit exponents that are not 2. */
const EXPONENTS: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  JOD: 3,
  KWD: 3,
  OMR: 3,
  TND: 3,
};

export function currencyExponent(currency: string): number {
  return EXPONENTS[currency] ?? 2;
}

/** A decimal amount in minor units, exactly; undefined when it has more decimals than the currency allows or is not a decimal. */
export function toMinorUnits(amount: string | number, currency: string): bigint | undefined {
  const decimal = parseDecimal(amount);
  if (!decimal) return undefined;
  const exponent = currencyExponent(currency);
  if (decimal.scale <= exponent) return decimal.units * 10n ** BigInt(exponent - decimal.scale);
  const divisor = 10n ** BigInt(decimal.scale - exponent);
  return decimal.units % divisor === 0n ? decimal.units / divisor : undefined;
}

/** Minor units as a decimal string with the currency's digits: 2500n USD → "25.00". */
export function fromMinorUnits(minor: bigint, currency: string): string {
  return formatDecimal({ units: minor, scale: currencyExponent(currency) });
}

/**
 * For people, in a locale: "$25.00", "¥1,200", "CHF 25.00", "KWD 1.234", "1.234,50 €" (de-DE).
 * Intl formats the exact decimal string (never a float on the way), with the currency's own digits.
 */
export function formatMoney(minor: bigint, currency: string, locale = "en-US"): string {
  const digits = currencyExponent(currency);
  const decimal = fromMinorUnits(minor, currency);
  // Intl reads a string as an exact decimal (ES2023, Node 20, Chromium); TypeScript's lib still types format() for numbers.
  try {
    return numberFormat(locale, { style: "currency", currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
      decimal as unknown as number,
    );
  } catch {
    // A code Intl does not take (not three letters): the amount and the code as they are.
    return `${decimal} ${currency}`;
  }
}

/** Two amounts of money are one amount: the same currency and the same minor units (25.0 and 25.00 are one). */
export function sameMoney(a: { amount: string; currencyCode: string }, b: { amount: string; currencyCode: string }): boolean {
  const minor = toMinorUnits(a.amount, a.currencyCode);
  return a.currencyCode === b.currencyCode && minor !== undefined && minor === toMinorUnits(b.amount, b.currencyCode);
}
