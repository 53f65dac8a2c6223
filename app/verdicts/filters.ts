import type { Prisma } from "@prisma/client";
import { VERDICTS } from "../contracts/schema";
import { addDays, dayIn, startOfDay } from "../lib/time/days";
import { GRACE_BUSINESS_DAYS, lateBefore, payoutInWords, type PayoutSchedule } from "../shops/payout-schedule";
import { MADE_IN, type MadeIn } from "./made";

export { VERDICTS };
export const ORIGINS = ["webhook", "reconciliation", "app", "backfill"] as const;
/** The contract's contradiction classes, by the short names people filter with. */
export const CLASSES = {
  duplicate: "duplicate side effect",
  wrong_amount: "wrong amount",
  wrong_order: "wrong subject",
  pre_existing: "pre existing state",
} as const;
export const SORTS = ["newest", "oldest", "amount_desc", "amount_asc"] as const;
/** Review states a person filters by: open is "Needs review". */
export const REVIEW_STATES = ["open", "resolved"] as const;
/** Date presets, in the shop's time zone; custom is the from/to dates, all is every date. */
export const RANGES = ["today", "7d", "30d", "all", "custom"] as const;
/** The dashboard's period when none was chosen: its figures and its table cover the same days. */
export const DEFAULT_DASHBOARD_RANGE = "30d" satisfies RangeKey;
/**
 * After how many days a verified refund's money is late when not in a paid payout yet, when the
 * shop's payout schedule is not known (not read yet, or Shopify did not say it): the fallback of
 * `money=late` (decision 032); `money_days` asks for another number of days.
 */
export const MONEY_LATE_DAYS = 7;
const MAX_MONEY_LATE_DAYS = 365;

export type Verdict = (typeof VERDICTS)[number];
export type ClassKey = keyof typeof CLASSES;
export type ReviewState = (typeof REVIEW_STATES)[number];
export type RangeKey = (typeof RANGES)[number];
/**
 * `money=late`, as the shop's payouts make it:
 * - `schedule`: later than the shop's payout schedule allows (the payout it gives for the day a
 *   refund was verified, and the grace after it: app/settlement/payout-schedule.ts);
 * - `days`: `money_days` days after the refund was verified, as the URL asks;
 * - `fallback`: 7 days, the schedule not being known;
 * - `manual`: payouts the shop asks for: no money is late by a schedule; the refunds whose money
 *   waits for a payout are listed, never counted as late.
 */
export interface MoneyLate {
  by: "schedule" | "days" | "fallback" | "manual";
  /** The days of `days` and `fallback`; null otherwise. */
  days: number | null;
  /** Refunds verified before this instant (ISO) are late; null: any (manual payouts: every one waiting). */
  verifiedBefore: string | null;
  /** What they are, after "2 refunds: ": "money not arrived 4 business days after the shop's weekly payout (Fridays)". */
  words: string;
}

export interface DashboardFilters {
  verdicts: Verdict[];
  classes: ClassKey[];
  gatewayFailures: boolean;
  /** How the app learned of the refunds (`origin=`: the history's own list links here); not where they were made. */
  origins: string[];
  /** Where the refunds were made (`made=admin,pos`; decision 031). */
  made: MadeIn[];
  review?: ReviewState;
  /** The date preset chosen, if any (custom when only from/to were given). */
  range?: RangeKey;
  /** Days (YYYY-MM-DD) in `timeZone`, both included. */
  from?: string;
  to?: string;
  /** The shop's IANA time zone: days start and end at its midnight. */
  timeZone: string;
  /**
   * `money=late`: refunds followed to the payout whose money has not arrived: still PENDING `days`
   * after they were verified (before `verifiedBefore`, an ISO instant), or never settled (UNVERIFIABLE).
   */
  moneyLate?: MoneyLate;
  /** `risk=twice`: refunds whose money is at risk of being paid twice (contract shopify.refund.exposure, every date). */
  atRiskTwice?: boolean;
  query: string;
  sort: (typeof SORTS)[number];
  after?: string;
  before?: string;
  pageSize: number;
}

const list = <T extends string>(params: URLSearchParams, name: string, allowed: readonly T[]): T[] =>
  params
    .getAll(name)
    .flatMap((v) => v.split(","))
    .filter((v): v is T => (allowed as readonly string[]).includes(v));

/**
 * The days a filter can name. Refunds are instants since 1970; the day after the last is still a
 * four-digit year. A URL's year 0000 reached Date.UTC's two-digit years (0-99 are 1900-1999) and
 * instants before year 0, and answered 500 (issue 42): a day outside is ignored like any other
 * the app cannot read.
 */
const FIRST_DAY = "1970-01-01";
const LAST_DAY = "9998-12-31";

// Date.parse rolls "2026-02-30" over to March 2: a day must come back as itself.
const day = (value: string | null) =>
  value &&
  /^\d{4}-\d{2}-\d{2}$/.test(value) &&
  value >= FIRST_DAY &&
  value <= LAST_DAY &&
  !Number.isNaN(Date.parse(value)) &&
  new Date(Date.parse(value)).toISOString().slice(0, 10) === value
    ? value
    : undefined;
const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  (allowed as readonly string[]).includes(value ?? "") ? (value as T) : undefined;

/**
 * The dashboard's filters from the URL; anything unknown is ignored, never an error. Presets are
 * resolved to days in the shop's time zone; without dates, `defaultRange` applies (every date when none).
 */
export function parseFilters(
  params: URLSearchParams,
  /** `payouts`: the shop's payout schedule as last read (null: not known), for `money=late`. */
  context: { now?: Date; timeZone?: string; defaultRange?: RangeKey; payouts?: PayoutSchedule | null } = {},
): DashboardFilters {
  const timeZone = context.timeZone ?? "UTC";
  const sort = params.get("sort");
  let from = day(params.get("from"));
  let to = day(params.get("to"));
  let range = oneOf(params.get("range"), RANGES) ?? (from || to ? undefined : context.defaultRange);
  if (range === "all") {
    from = undefined;
    to = undefined;
  } else if (range && range !== "custom") {
    const today = dayIn(context.now ?? new Date(), timeZone);
    to = today;
    from = range === "today" ? today : addDays(today, range === "7d" ? -6 : -29);
  } else if (!range && (from || to)) {
    range = "custom";
  }
  return {
    verdicts: list(params, "verdict", VERDICTS),
    classes: list(params, "class", Object.keys(CLASSES) as ClassKey[]),
    gatewayFailures: params.get("gateway") === "failed",
    origins: list(params, "origin", ORIGINS),
    made: list(params, "made", MADE_IN),
    review: oneOf(params.get("review"), REVIEW_STATES),
    ...(params.get("money") === "late"
      ? { moneyLate: moneyLate(context.now ?? new Date(), params.get("money_days"), { schedule: context.payouts ?? null, timeZone }) }
      : {}),
    ...(params.get("risk") === "twice" ? { atRiskTwice: true } : {}),
    range,
    from,
    to,
    timeZone,
    query: (params.get("q") ?? "").trim().slice(0, 100),
    sort: (SORTS as readonly string[]).includes(sort ?? "") ? (sort as DashboardFilters["sort"]) : "newest",
    after: params.get("after") ?? undefined,
    before: params.get("before") ?? undefined,
    pageSize: Math.min(Math.max(Number(params.get("size")) || 25, 1), 100),
  };
}

/**
 * Which refunds' money is late at `now`: after `daysText` days when the URL asks for a whole number
 * of 1 to 365, else by the shop's payout schedule when it is known, else after 7 days (the
 * fallback, said as such). Instants are compared as instants; the schedule's days are the shop's.
 */
export function moneyLate(now: Date, daysText: string | null = null, payouts: { schedule: PayoutSchedule | null; timeZone: string } | null = null): MoneyLate {
  const asked = Number(daysText);
  const before = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
  if (daysText && Number.isInteger(asked) && asked >= 1 && asked <= MAX_MONEY_LATE_DAYS)
    return { by: "days", days: asked, verifiedBefore: before(asked), words: `money not arrived after ${asked} days` };
  const schedule = payouts?.schedule;
  if (!schedule)
    return {
      by: "fallback",
      days: MONEY_LATE_DAYS,
      verifiedBefore: before(MONEY_LATE_DAYS),
      words: `money not arrived after ${MONEY_LATE_DAYS} days (the shop's payout schedule is not known yet)`,
    };
  if (schedule.interval === "MANUAL")
    return { by: "manual", days: null, verifiedBefore: null, words: "money waiting for a payout (the shop's payouts are manual: paid out when the shop asks)" };
  return {
    by: "schedule",
    days: null,
    verifiedBefore: lateBefore(schedule, payouts.timeZone, now)!.toISOString(),
    words: `money not arrived ${GRACE_BUSINESS_DAYS} business days after ${payoutInWords(schedule)}`,
  };
}

/**
 * The refunds whose money has not arrived, as a filter on Operation (the shop inside the relation
 * filter lets the database read the settlement's (shop, …) indexes). After a number of days: its
 * Settlement still PENDING and verified before `verifiedBefore`, or UNVERIFIABLE (never settled
 * within the contract's timeout), as before. By the schedule: PENDING or UNVERIFIABLE, verified
 * before the bound (a settlement opened under 1.0.0 gave up at 35 days, before a monthly payout
 * may be due: an UNVERIFIABLE refund is not late before its payout is). Manual payouts: every one still waiting.
 */
export function moneyLateWhere(shop: string, late: Pick<MoneyLate, "by" | "verifiedBefore">): Prisma.OperationWhereInput {
  const before = late.verifiedBefore ? { startedAt: { lt: new Date(late.verifiedBefore) } } : {};
  if (late.by === "days" || late.by === "fallback") return { settlement: { is: { shop, OR: [{ status: "PENDING", ...before }, { status: "UNVERIFIABLE" }] } } };
  return { settlement: { is: { shop, status: { in: ["PENDING", "UNVERIFIABLE"] }, ...before } } };
}

/** The refunds at risk of being paid twice, as a filter on Operation: their exposure's latest judgement is CONTRADICTED. */
export function atRiskTwiceWhere(shop: string): Prisma.OperationWhereInput {
  return { exposure: { is: { shop, status: "CONTRADICTED" } } };
}

/** The table the money-at-risk-twice figure counts: every date. */
export const AT_RISK_TWICE_LINK = `/app?${new URLSearchParams({ range: "all", risk: "twice" })}`;

/** The table the late-money figure counts: every date, money late by the shop's own rule (its schedule, or the fallback). */
export const MONEY_LATE_LINK = `/app?${new URLSearchParams({ range: "all", money: "late" })}`;

/** The instants the chosen days cover: [start of from, start of the day after to). */
export function dateBounds(filters: Pick<DashboardFilters, "from" | "to" | "timeZone">): { gte?: Date; lt?: Date } {
  return {
    gte: filters.from ? startOfDay(filters.from, filters.timeZone) : undefined,
    lt: filters.to ? startOfDay(addDays(filters.to, 1), filters.timeZone) : undefined,
  };
}

/** The earliest and latest instants a filter without dates covers. */
const ALL_TIME = { from: new Date(0), to: new Date(Date.UTC(9999, 0, 1)) };

/** The instants the figures and the table's count cover: the chosen days, or all time. */
export function period(filters: Pick<DashboardFilters, "from" | "to" | "timeZone">): { from: Date; to: Date } {
  const bounds = dateBounds(filters);
  return { from: bounds.gte ?? ALL_TIME.from, to: bounds.lt ?? ALL_TIME.to };
}

/** The URL of the table a figure counts: the same dates, that verdict, nothing else. */
export function figureLink(filters: DashboardFilters, verdict: string): string {
  const params = new URLSearchParams();
  if (filters.range && filters.range !== "custom") params.set("range", filters.range);
  else {
    if (filters.from) params.set("from", filters.from);
    if (filters.to) params.set("to", filters.to);
  }
  params.set("verdict", verdict);
  return `/app?${params}`;
}
