/**
 * Shopify's search syntax (https://shopify.dev/api/usage/search-syntax), as far as the fake needs
 * it: `field:value` terms with the comparators `:>`, `:>=`, `:<`, `:<=`, values bare or quoted
 * ('…' or "…"), terms joined by spaces or AND, OR, NOT or a leading `-`, and parentheses.
 */
export interface SearchTerm {
  field: string;
  op: "=" | ">" | ">=" | "<" | "<=";
  value: string;
}

/**
 * What a term says of a record: true or false, or null when the field is not one the fake
 * searches (a bare word, an undocumented or unmodelled field): Shopify ignores a search field it
 * does not know rather than failing the request, so such a term filters nothing, negated or not.
 */
export type TermTest<T> = (term: SearchTerm, record: T) => boolean | null;

type Expr = { term: SearchTerm } | { not: Expr } | { and: Expr[] } | { or: Expr[] };

const TOKEN = /\(|\)|-?[A-Za-z_]+:(?:>=|<=|>|<)?(?:'[^']*'|"[^"]*"|[^\s()]+)|[^\s()]+/g;

function termOf(token: string): Expr {
  const negated = token.startsWith("-");
  const match = /^-?([A-Za-z_]+):(>=|<=|>|<)?(.*)$/.exec(token);
  const term: SearchTerm = match
    ? { field: match[1].toLowerCase(), op: (match[2] as SearchTerm["op"]) ?? "=", value: match[3].replace(/^(['"])(.*)\1$/, "$2") }
    : { field: "default", op: "=", value: token };
  return negated ? { not: { term } } : { term };
}

function parse(query: string): Expr {
  const tokens = query.match(TOKEN) ?? [];
  let at = 0;
  const or = (): Expr => {
    const parts = [and()];
    while (tokens[at] === "OR") {
      at++;
      parts.push(and());
    }
    return { or: parts };
  };
  const and = (): Expr => {
    const parts: Expr[] = [];
    while (at < tokens.length && tokens[at] !== ")" && tokens[at] !== "OR") {
      if (tokens[at] === "AND") at++;
      else parts.push(unary());
    }
    return { and: parts };
  };
  const unary = (): Expr => {
    const token = tokens[at++];
    if (token === "NOT") return { not: unary() };
    if (token !== "(") return termOf(token);
    const inner = or();
    if (tokens[at] === ")") at++;
    return inner;
  };
  return or();
}

function evaluate<T>(expr: Expr, record: T, test: TermTest<T>): boolean | null {
  if ("term" in expr) return test(expr.term, record);
  if ("not" in expr) {
    const inner = evaluate(expr.not, record, test);
    return inner === null ? null : !inner;
  }
  const results = ("and" in expr ? expr.and : expr.or).map((e) => evaluate(e, record, test)).filter((r) => r !== null);
  if (!results.length) return null;
  return "and" in expr ? results.every(Boolean) : results.some(Boolean);
}

/** The records `query` selects (all of them for an empty or absent query). */
export function search<T>(records: T[], query: string | null | undefined, test: TermTest<T>): T[] {
  if (!query?.trim()) return records;
  const expr = parse(query);
  return records.filter((record) => evaluate(expr, record, test) !== false);
}

/** A comparison of `left` with the term's value under its comparator. */
export function compare<N extends number | bigint>(term: SearchTerm, left: N, right: N): boolean {
  switch (term.op) {
    case ">":
      return left > right;
    case ">=":
      return left >= right;
    case "<":
      return left < right;
    case "<=":
      return left <= right;
    default:
      return left === right;
  }
}

/** A `time` term (processed_at:>=2026-12-01T10:00:00Z) against a date; null for a value that is no date. */
export function compareTime(term: SearchTerm, date: Date | null): boolean | null {
  const right = Date.parse(term.value);
  if (Number.isNaN(right)) return null;
  if (date === null) return false;
  // A date without a time (payout_date:2026-12-02) names the whole day (UTC).
  if (term.op === "=" && /^\d{4}-\d{2}-\d{2}$/.test(term.value)) return date.getTime() >= right && date.getTime() < right + 86_400_000;
  return compare(term, date.getTime(), right);
}

/** An `id` term (id:>=1234, or a gid) against a numeric id; null for a value that is no id. */
export function compareId(term: SearchTerm, id: bigint | null): boolean | null {
  const digits = /(\d+)$/.exec(term.value);
  if (!digits) return null;
  return id !== null && compare(term, id, BigInt(digits[1]));
}
