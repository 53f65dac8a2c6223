import { parseDecimal, type ExactDecimal } from "../../contracts/values";

export function formatDecimal({ units, scale }: ExactDecimal): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** Exact sum of decimal strings ("41.94" + "0.06" = "42.00"); throws on anything that is not a decimal. */
export function sumDecimals(values: (string | number)[]): string {
  const parsed = values.map((value) => {
    const decimal = parseDecimal(value);
    if (!decimal) throw new Error(`not a decimal amount: ${String(value)}`);
    return decimal;
  });
  const scale = Math.max(2, ...parsed.map((d) => d.scale));
  const units = parsed.reduce((sum, d) => sum + d.units * 10n ** BigInt(scale - d.scale), 0n);
  return formatDecimal({ units, scale });
}
