const ZERO_DECIMAL_CURRENCIES = new Set(["JPY", "KRW"]);

export function currencyExponent(currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : 2;
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
