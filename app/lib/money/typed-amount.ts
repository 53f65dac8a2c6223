import { currencyExponent, fromMinorUnits, toMinorUnits } from "./currency";

/** An amount a person typed, parsed in its currency, in words when it cannot be: for the refund form and the refund limits alike. */
export type AmountParse = { ok: true; amount: string; minor: bigint } | { ok: false; message: string };

const example = (exponent: number) => (exponent === 0 ? "2500" : `25.${"0".repeat(exponent)}`);
const decimalsMessage = (currency: string, exponent: number) =>
  exponent === 0 ? `${currency} amounts have no decimals.` : `${currency} amounts have at most ${exponent} decimal${exponent === 1 ? "" : "s"}.`;

/**
 * An amount a person typed, in `currency` (its exponent: USD 2, JPY 0, KWD 3). A comma is taken as
 * the decimal separator when that is unambiguous: one comma, no dot, and no more digits after it
 * than the currency has decimals ("10,50" USD is 10.50; "1,200" USD could be 1200 or 1.20, so it
 * is explained instead). Thousands separators are read when the other separator marks the decimals
 * ("1.000,50" and "1,000.50" are 1000.50). Without a currency (before the order is known) only what does not depend
 * on it is checked, and the amount is returned as typed, normalised to a dot.
 */
export function parseAmount(raw: string, currency?: string): AmountParse {
  const fail = (message: string): AmountParse => ({ ok: false, message });
  const exponent = currency ? currencyExponent(currency) : undefined;
  const text = raw.trim();
  if (!text) return fail("Enter the amount to refund.");
  if (/^[-−‒–]/.test(text)) return fail("Enter the amount without a minus sign: it is the money the customer gets back.");
  // Thousands grouped with a dot and decimals after a comma ("1.000,50"), or grouped with a comma
  // and decimals after a dot ("1,000.50"): both say one amount, whichever the person's locale.
  const grouped = /^\d{1,3}(\.\d{3})+,\d+$/.test(text) ? text.replace(/\./g, "") : /^\d{1,3}(,\d{3})+\.\d+$/.test(text) ? text.replace(/,/g, "") : text;
  let normalized = grouped;
  if (grouped.includes(",")) {
    const match = /^(\d+),(\d+)$/.exec(grouped);
    if (!match || match[2].length > (exponent ?? 3)) {
      return fail(
        `Write the amount with a dot for decimals and without thousands separators, such as ${exponent === 0 ? "1200" : `1234.${"5".padEnd(exponent ?? 2, "0")}`}.`,
      );
    }
    normalized = `${match[1]}.${match[2]}`;
  }
  if (/^\.\d+$/.test(normalized)) normalized = `0${normalized}`;
  if (!/^\d+(\.\d+)?$/.test(normalized)) return fail(`Enter the amount as a number, such as ${example(exponent ?? 2)}.`);
  const [whole, fraction = ""] = normalized.split(".");
  if (whole.replace(/^0+/, "").length > 15) return fail("That amount is far larger than any order: check the number.");
  if (/^0*$/.test(whole) && /^0*$/.test(fraction)) return fail("Enter an amount greater than zero.");
  if (exponent === undefined || currency === undefined) return { ok: true, amount: normalized, minor: 0n };
  if (fraction.length > exponent) return fail(decimalsMessage(currency, exponent));
  const minor = toMinorUnits(normalized, currency);
  if (minor === undefined) return fail(`Enter the amount as a number, such as ${example(exponent)}.`);
  return { ok: true, amount: fromMinorUnits(minor, currency), minor };
}
