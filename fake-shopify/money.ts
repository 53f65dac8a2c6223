/** ISO 4217 minor units where they are not 2. */
const EXPONENTS: Record<string, number> = { JPY: 0, KRW: 0, BHD: 3, JOD: 3, KWD: 3, OMR: 3, TND: 3 };

export function currencyExponent(currency: string): number {
  return EXPONENTS[currency] ?? 2;
}

/** Minor units to a Shopify `Decimal` string, which trims trailing zeros but keeps one decimal: 2500 → "25.0", 4194 → "41.94". */
export function shopifyDecimal(minor: bigint, currency: string): string {
  const exponent = currencyExponent(currency);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, "0");
  const whole = exponent ? digits.slice(0, -exponent) : digits;
  const fraction = (exponent ? digits.slice(-exponent) : "").replace(/0+$/, "") || "0";
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

/** Minor units to the REST/webhook form with every decimal place: 2500 → "25.00". */
export function restDecimal(minor: bigint, currency: string): string {
  const exponent = currencyExponent(currency);
  const digits = (minor < 0n ? -minor : minor).toString().padStart(exponent + 1, "0");
  const text = exponent ? `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}` : digits;
  return minor < 0n ? `-${text}` : text;
}

/** A decimal string ("16.99", "17") in minor units; throws on anything else. */
export function parseMinor(amount: string, currency: string): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) throw new Error(`not a money amount: ${amount}`);
  const exponent = currencyExponent(currency);
  const fraction = (match[2] ?? "").padEnd(exponent, "0");
  if (fraction.length > exponent && /[1-9]/.test(fraction.slice(exponent))) throw new Error(`too many decimals for ${currency}: ${amount}`);
  return BigInt(match[1] + fraction.slice(0, exponent));
}

/** A positive decimal string ("1.0850") as an exact fraction. */
export function parseRate(rate: string): { numerator: bigint; denominator: bigint } {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(rate.trim());
  if (!match || !/[1-9]/.test(rate)) throw new Error(`not an exchange rate: ${rate}`);
  const fraction = match[2] ?? "";
  return { numerator: BigInt(match[1] + fraction), denominator: 10n ** BigInt(fraction.length) };
}

/**
 * Presentment minor units to shop minor units at `rate` (shop currency per unit of presentment
 * currency), exactly, rounded half-up (away from zero) to the shop currency's minor unit.
 */
export function convertMinor(minor: bigint, from: string, to: string, rate: string): bigint {
  if (from === to) return minor;
  const { numerator, denominator } = parseRate(rate);
  const top = (minor < 0n ? -minor : minor) * numerator * 10n ** BigInt(currencyExponent(to));
  const bottom = denominator * 10n ** BigInt(currencyExponent(from));
  const rounded = (2n * top + bottom) / (2n * bottom);
  return minor < 0n ? -rounded : rounded;
}
