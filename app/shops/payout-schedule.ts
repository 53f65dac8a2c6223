import { addDays, dayIn, startOfDay } from "../lib/time/days";

/**
 * When a refund's money is late, by the shop's own Shopify Payments payout schedule (decision 032).
 * Pure: the schedule, the instant the refund was verified, the shop's time zone and `now` in; an
 * instant out. What is Shopify's documented word and what is this app's margin is said at each
 * constant, and in the decision. Shopify's answer is parsed into a PayoutSchedule by
 * payout-schedule.server.ts (zod, kept out of the screens' bundle).
 */

export const PAYOUT_INTERVALS = ["DAILY", "WEEKLY", "MONTHLY", "MANUAL"] as const;
/** DayOfTheWeek, in the order of Date's getUTCDay (Sunday is 0). */
export const WEEKDAYS = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"] as const;

export type PayoutInterval = (typeof PAYOUT_INTERVALS)[number];
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * ShopifyPaymentsAccount.payoutSchedule and the account's `country` (ISO 3166-1 alpha-2; null when
 * not read). A weekly schedule always has its weekday, a monthly one its day of the month (1 to 31).
 */
export interface PayoutSchedule {
  interval: PayoutInterval;
  weeklyAnchor: Weekday | null;
  monthlyAnchor: number | null;
  country: string | null;
}

/**
 * Shopify's "pay period": business days between the day an order is paid and the day its money is
 * sent to the bank, as help.shopify.com's "Getting paid with Shopify Payments" states them
 * (United States 2; Canada, Australia, New Zealand 3). Documented for an order's money; Shopify
 * does not say when a refund's debit joins a payout, so the same delay is allowed for it (if it
 * joins sooner, it is only counted late later).
 */
export const DOCUMENTED_PAY_PERIODS: Readonly<Record<string, number>> = { US: 2, CA: 3, AU: 3, NZ: 3 };
/**
 * Any other country, or none read: a margin. Earlier versions of the same page gave 3 business
 * days for most of Europe and 4 for Hong Kong, Italy, Singapore and Sweden, and 5 days (then the
 * next Friday) for Japan; 5 business days is at least every one of them.
 */
export const UNDOCUMENTED_PAY_PERIOD = 5;
/**
 * After the payout day: "Banks typically take between 1-3 business days to process deposits"
 * (help.shopify.com, "Scheduling your Shopify Payments payouts"), and the app counts money as
 * arrived when the payout is PAID, "successfully deposited into the bank" (ShopifyPaymentsPayoutStatus).
 * 3 business days are documented; the 4th is a margin for a public holiday, on which no payout is
 * made ("You can't get payouts at weekends or on public holidays") and of which the app knows no calendar.
 */
export const GRACE_BUSINESS_DAYS = 4;

const weekdayOf = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay();
const isBusinessDay = (day: string) => weekdayOf(day) !== 0 && weekdayOf(day) !== 6;

/** The day itself when it is a business day (Monday to Friday), else the Monday after. Public holidays are not known. */
function businessDayFrom(day: string): string {
  let next = day;
  while (!isBusinessDay(next)) next = addDays(next, 1);
  return next;
}

/** `count` business days after `day` (a weekend day counts from the Monday after). */
export function addBusinessDays(day: string, count: number): string {
  let next = day;
  for (let left = count; left > 0;) {
    next = addDays(next, 1);
    if (isBusinessDay(next)) left--;
  }
  return next;
}

const lastDayOfMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const dayText = (year: number, month: number, date: number) =>
  `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(date).padStart(2, "0")}`;

/** The business days between the day a refund is made and the day its money can be sent, for the account's country. */
export const payPeriodOf = (country: string | null) => (country && DOCUMENTED_PAY_PERIODS[country.toUpperCase()]) || UNDOCUMENTED_PAY_PERIOD;

/**
 * The day of the payout that carries money available on `available`: the first payout day of the
 * schedule on or after it. A payout day on that very day carries it: the pay period names the day
 * the money is sent, which a daily schedule pays that day (for weekly and monthly it is this
 * app's reading). A scheduled day that falls on a weekend is paid the Monday after (Shopify: no
 * payouts at weekends; that it is the day after and not before is the later, safer reading), and is
 * compared before it moves: a month's anchor on a Saturday before the money was available is not its payout.
 */
export function payoutDayFor(schedule: PayoutSchedule, available: string): string | null {
  switch (schedule.interval) {
    case "MANUAL":
      return null;
    case "DAILY":
      // "Each business day."
      return businessDayFrom(available);
    case "WEEKLY": {
      const anchor = WEEKDAYS.indexOf(schedule.weeklyAnchor!);
      return businessDayFrom(addDays(available, (anchor - weekdayOf(available) + 7) % 7));
    }
    case "MONTHLY": {
      // "Payouts scheduled between 29-31st of the month are sent on the last day of shorter months."
      let year = Number(available.slice(0, 4));
      let month = Number(available.slice(5, 7));
      for (;;) {
        const scheduled = dayText(year, month, Math.min(schedule.monthlyAnchor!, lastDayOfMonth(year, month)));
        if (scheduled >= available) return businessDayFrom(scheduled);
        month = month === 12 ? 1 : month + 1;
        if (month === 1) year++;
      }
    }
  }
}

/**
 * The day a refund counts from: its day in the shop's time zone, or in UTC when that is later (an
 * older version of Shopify's page said an order's day is taken in UTC; the later of the two never
 * counts a refund late too soon).
 */
const dayCounted = (instant: Date, timeZone: string) => {
  const local = dayIn(instant, timeZone);
  const utc = instant.toISOString().slice(0, 10);
  return local > utc ? local : utc;
};

/** The instant money counted from `day` is late: the end, in the shop's time zone, of the grace after its payout day. */
function dueAfterDay(schedule: PayoutSchedule, day: string, timeZone: string): Date | null {
  const payout = payoutDayFor(schedule, addBusinessDays(day, payPeriodOf(schedule.country)));
  if (payout === null) return null;
  return startOfDay(addDays(addBusinessDays(payout, GRACE_BUSINESS_DAYS), 1), timeZone);
}

/**
 * The instant from which the money of a refund verified at `verifiedAt` is late by the shop's
 * schedule: the end of the last grace day after the payout the schedule gives for it. Null for
 * manual payouts: "Payouts will not be automatically made", so no money is ever late by a schedule.
 */
export function moneyDueAt(schedule: PayoutSchedule, verifiedAt: Date, timeZone: string): Date | null {
  return dueAfterDay(schedule, dayCounted(verifiedAt, timeZone), timeZone);
}

/**
 * The refunds whose money is late at `now`, as one bound on the instant they were verified: a
 * refund verified before the instant returned is late (its `moneyDueAt` is at or before `now`),
 * one verified at or after it is not. The due instant only grows with the day a refund counts
 * from, so the bound is the start of the day after the last day whose money is due; that day
 * starts at the earlier of its local and its UTC midnight (the day counted is the later of the
 * two). Null for manual payouts.
 */
export function lateBefore(schedule: PayoutSchedule, timeZone: string, now: Date): Date | null {
  if (schedule.interval === "MANUAL") return null;
  // The longest wait (a monthly payout just missed, the pay period and the grace) is under 60 days.
  let day = dayCounted(now, timeZone);
  for (let back = 0; back < 120; back++, day = addDays(day, -1)) {
    if (dueAfterDay(schedule, day, timeZone)!.getTime() <= now.getTime()) {
      const next = addDays(day, 1);
      return new Date(Math.min(startOfDay(next, timeZone).getTime(), Date.parse(`${next}T00:00:00Z`)));
    }
  }
  return new Date(Date.parse(`${day}T00:00:00Z`));
}

const ordinal = (n: number) => `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`;
const weekdayWords = (day: Weekday) => `${day.charAt(0)}${day.slice(1).toLowerCase()}s`;

/** "the shop's weekly payout (Fridays)": the schedule in a merchant's words. */
export function payoutInWords(schedule: PayoutSchedule): string {
  switch (schedule.interval) {
    case "DAILY":
      return "the shop's daily payout";
    case "WEEKLY":
      return `the shop's weekly payout (${weekdayWords(schedule.weeklyAnchor!)})`;
    case "MONTHLY":
      return `the shop's monthly payout (the ${ordinal(schedule.monthlyAnchor!)}${schedule.monthlyAnchor! > 28 ? ", or the month's last day" : ""})`;
    case "MANUAL":
      return "the shop's payouts, which are manual: paid out when the shop asks";
  }
}
