/**
 * Value kinds the operators understand. Money arrives as Shopify `Decimal` strings ("25.0",
 * "25.00") or JSON numbers, so decimals are compared exactly, digit by digit, never as floats.
 * Timestamps are ISO 8601 with an offset and compare as instants.
 *
 * Both parsers read characters by hand rather than through a regular expression, BigInt or
 * `Date.parse`: the engine runs them for every condition of every evaluation (issue 3's bar).
 */

export interface ExactDecimal {
  /** The value times 10^scale, exactly. */
  units: bigint;
  scale: number;
}

/** Where the digits of a decimal text are: `[-+]?digits(.digits)?`, nothing else. */
interface DecimalDigits {
  text: string;
  negative: boolean;
  /** First digit of the whole part. */
  wholeStart: number;
  /** First non-zero digit of the whole part (= dot when the whole part is all zeros). */
  significantStart: number;
  /** The dot, or the end of the text. */
  dot: number;
  /** Just after the last non-zero fraction digit (= dot + 1 when there is none). */
  significantEnd: number;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

function scanDecimal(value: unknown): DecimalDigits | undefined {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    // Shortest round-trip form; JSON numbers with exponents are not money.
    text = String(value);
  } else if (typeof value === "string") {
    // Most strings compared are ids ("gid://…") or instants: reject them on the first characters.
    const first = value.charCodeAt(0);
    if (!(isDigit(first) || first === 43 || first === 45 || first === 32)) return undefined;
    text = value.trim();
  } else {
    return undefined;
  }
  const negative = text.charCodeAt(0) === 45;
  const wholeStart = negative || text.charCodeAt(0) === 43 ? 1 : 0;
  let at = wholeStart;
  let significantStart = -1;
  while (at < text.length && isDigit(text.charCodeAt(at))) {
    if (significantStart < 0 && text.charCodeAt(at) !== 48) significantStart = at;
    at++;
  }
  const dot = at;
  if (dot === wholeStart) return undefined;
  if (significantStart < 0) significantStart = dot;
  let significantEnd = dot + 1;
  if (dot < text.length) {
    if (text.charCodeAt(dot) !== 46 || dot + 1 === text.length) return undefined;
    for (at = dot + 1; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (!isDigit(code)) return undefined;
      if (code !== 48) significantEnd = at + 1;
    }
  }
  return { text, negative, wholeStart, significantStart, dot, significantEnd };
}

export function parseDecimal(value: unknown): ExactDecimal | undefined {
  const digits = scanDecimal(value);
  if (!digits) return undefined;
  const { text, negative, wholeStart, dot } = digits;
  const fraction = text.slice(dot + 1);
  const units = BigInt(text.slice(wholeStart, dot) + fraction);
  return { units: negative ? -units : units, scale: fraction.length };
}

function signOf(d: DecimalDigits): number {
  if (d.significantStart === d.dot && d.significantEnd === d.dot + 1) return 0;
  return d.negative ? -1 : 1;
}

function compareMagnitudes(a: DecimalDigits, b: DecimalDigits): number {
  const wholeLength = a.dot - a.significantStart;
  if (wholeLength !== b.dot - b.significantStart) return wholeLength > b.dot - b.significantStart ? 1 : -1;
  for (let i = 0; i < wholeLength; i++) {
    const difference = a.text.charCodeAt(a.significantStart + i) - b.text.charCodeAt(b.significantStart + i);
    if (difference !== 0) return difference > 0 ? 1 : -1;
  }
  const fractionLength = Math.max(a.significantEnd - a.dot, b.significantEnd - b.dot) - 1;
  for (let i = 1; i <= fractionLength; i++) {
    const left = a.dot + i < a.significantEnd ? a.text.charCodeAt(a.dot + i) : 48;
    const right = b.dot + i < b.significantEnd ? b.text.charCodeAt(b.dot + i) : 48;
    if (left !== right) return left > right ? 1 : -1;
  }
  return 0;
}

/** -1, 0 or 1 when both values are decimals ("25.0" equals "25.00" and 25), else undefined. */
export function compareDecimalValues(a: unknown, b: unknown): number | undefined {
  const left = scanDecimal(a);
  if (!left) return undefined;
  const right = scanDecimal(b);
  if (!right) return undefined;
  const leftSign = signOf(left);
  const rightSign = signOf(right);
  if (leftSign !== rightSign) return leftSign > rightSign ? 1 : -1;
  return leftSign * compareMagnitudes(left, right) || 0;
}

function digitsAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
}

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719468;
}

/**
 * Milliseconds since the epoch, or undefined for anything that is not an offset-qualified
 * ISO 8601 instant `YYYY-MM-DDTHH:MM:SS(.f{1,9})?(Z|±HH:MM)` naming a real calendar day.
 * Agrees with `Date.parse` on every instant it accepts (fractions truncated to milliseconds,
 * 24:00:00 as the next midnight); unlike `Date.parse` it refuses days such as 02-30.
 */
export function parseInstant(text: unknown): number | undefined {
  if (typeof text !== "string" || text.length < 20) return undefined;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58)
    return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour < 0 || hour > 24 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;

  let at = 19;
  let millisecond = 0;
  let fractionIsZero = true;
  if (text.charCodeAt(at) === 46) {
    const start = ++at;
    while (at < text.length && isDigit(text.charCodeAt(at))) {
      const digit = text.charCodeAt(at) - 48;
      if (at - start < 3) millisecond = millisecond * 10 + digit;
      if (digit !== 0) fractionIsZero = false;
      at++;
    }
    const length = at - start;
    if (length < 1 || length > 9) return undefined;
    for (let i = length; i < 3; i++) millisecond *= 10;
  }
  if (hour === 24 && (minute !== 0 || second !== 0 || !fractionIsZero)) return undefined;

  let offsetMinutes = 0;
  const designator = text.charCodeAt(at);
  if (designator === 90 /* Z */) {
    if (at + 1 !== text.length) return undefined;
  } else if (designator === 43 || designator === 45) {
    if (at + 6 !== text.length || text.charCodeAt(at + 3) !== 58) return undefined;
    const offsetHours = digitsAt(text, at + 1, 2);
    const offsetRest = digitsAt(text, at + 4, 2);
    if (offsetHours < 0 || offsetHours > 23 || offsetRest < 0 || offsetRest > 59) return undefined;
    offsetMinutes = (designator === 43 ? 1 : -1) * (offsetHours * 60 + offsetRest);
  } else {
    return undefined;
  }
  const minutes = (daysSinceEpoch(year, month, day) * 24 + hour) * 60 + minute - offsetMinutes;
  return minutes * 60_000 + second * 1000 + millisecond;
}

export function wholeSecond(ms: number): number {
  return Math.floor(ms / 1000);
}
