import { describe, expect, it } from "vitest";
import {
  addBusinessDays,
  GRACE_BUSINESS_DAYS,
  lateBefore,
  moneyDueAt,
  payoutDayFor,
  payoutInWords,
  payPeriodOf,
  type PayoutSchedule,
} from "../../app/shops/payout-schedule";
import { payoutSchedule } from "../../app/shops/payout-schedule.server";

// Issue 45 point 4, decision 032: "late" is later than the shop's own payout schedule allows.
// Money verified on day D is sent after the country's pay period (business days), in the first
// payout of the schedule on or after that day, and deposited within the grace after it.

const daily = (country: string | null = "US"): PayoutSchedule => ({ interval: "DAILY", weeklyAnchor: null, monthlyAnchor: null, country });
const weekly = (weeklyAnchor: PayoutSchedule["weeklyAnchor"], country: string | null = "US"): PayoutSchedule => ({
  interval: "WEEKLY",
  weeklyAnchor,
  monthlyAnchor: null,
  country,
});
const monthly = (monthlyAnchor: number, country: string | null = "US"): PayoutSchedule => ({ interval: "MONTHLY", weeklyAnchor: null, monthlyAnchor, country });
const manual: PayoutSchedule = { interval: "MANUAL", weeklyAnchor: null, monthlyAnchor: null, country: "US" };

const due = (schedule: PayoutSchedule, verifiedAt: string, timeZone = "UTC") => moneyDueAt(schedule, new Date(verifiedAt), timeZone)?.toISOString() ?? null;

describe("the day of the payout that carries money available on a day", () => {
  it("daily: that business day; a Saturday's money goes on Monday", () => {
    expect(payoutDayFor(daily(), "2026-12-09")).toBe("2026-12-09");
    expect(payoutDayFor(daily(), "2026-12-12")).toBe("2026-12-14");
  });

  it("weekly: the anchor's next day, that very day when the money is available on it", () => {
    expect(payoutDayFor(weekly("FRIDAY"), "2026-12-09")).toBe("2026-12-11");
    expect(payoutDayFor(weekly("WEDNESDAY"), "2026-12-09")).toBe("2026-12-09");
    expect(payoutDayFor(weekly("TUESDAY"), "2026-12-09")).toBe("2026-12-15");
    // The schema's enum has weekend days though Shopify pays "Monday to Friday": paid the Monday after.
    expect(payoutDayFor(weekly("SATURDAY"), "2026-12-09")).toBe("2026-12-14");
  });

  it("monthly: the anchor, or the month's last day when the month is shorter; a weekend moves it to the Monday after", () => {
    expect(payoutDayFor(monthly(15), "2026-12-30")).toBe("2027-01-15");
    expect(payoutDayFor(monthly(15), "2027-01-15")).toBe("2027-01-15");
    // The 31st in February 2027 is the 28th, a Sunday: paid Monday 1 March.
    expect(payoutDayFor(monthly(31), "2027-02-12")).toBe("2027-03-01");
    // Available on 1 March, after the 28th: not February's payout (paid that same Monday), but March's 31st.
    expect(payoutDayFor(monthly(31), "2027-03-01")).toBe("2027-03-31");
    expect(payoutDayFor(monthly(30), "2028-02-10")).toBe("2028-02-29");
    expect(payoutDayFor(monthly(31), "2027-04-05")).toBe("2027-04-30");
    expect(payoutDayFor(manual, "2027-04-05")).toBeNull();
  });

  it("business days skip the weekend", () => {
    expect(addBusinessDays("2026-12-11", 2)).toBe("2026-12-15");
    expect(addBusinessDays("2026-12-12", 1)).toBe("2026-12-14");
    expect(addBusinessDays("2026-12-07", 4)).toBe("2026-12-11");
  });

  it("the pay period is Shopify's for the countries it documents, and 5 business days for any other", () => {
    expect([payPeriodOf("US"), payPeriodOf("CA"), payPeriodOf("au"), payPeriodOf("NZ")]).toEqual([2, 3, 3, 3]);
    expect([payPeriodOf("DE"), payPeriodOf("JP"), payPeriodOf(null)]).toEqual([5, 5, 5]);
  });
});

describe("when a refund's money is due", () => {
  it(`daily in the United States: 2 business days, that day's payout, ${GRACE_BUSINESS_DAYS} business days; the end of that day`, () => {
    // Monday: sent Wednesday, deposited by Tuesday: late from Wednesday 00:00.
    expect(due(daily(), "2026-12-07T10:00:00Z")).toBe("2026-12-16T00:00:00.000Z");
    // Friday: sent Tuesday, late from the Tuesday after.
    expect(due(daily(), "2026-12-11T10:00:00Z")).toBe("2026-12-22T00:00:00.000Z");
    // Canada's pay period is a day longer; an undocumented country's is 5 days.
    expect(due(daily("CA"), "2026-12-07T10:00:00Z")).toBe("2026-12-17T00:00:00.000Z");
    expect(due(daily("DE"), "2026-12-07T10:00:00Z")).toBe("2026-12-19T00:00:00.000Z");
  });

  it("weekly: the first anchor day on or after the money is available, then the grace", () => {
    expect(due(weekly("FRIDAY"), "2026-12-07T10:00:00Z")).toBe("2026-12-18T00:00:00.000Z");
    // The anchor on the day the money becomes available: that day's payout.
    expect(due(weekly("WEDNESDAY"), "2026-12-07T10:00:00Z")).toBe("2026-12-16T00:00:00.000Z");
    // Verified on the anchor day itself: not available until Wednesday, so the next Monday's payout.
    expect(due(weekly("MONDAY"), "2026-12-07T10:00:00Z")).toBe("2026-12-19T00:00:00.000Z");
  });

  it("monthly: month ends, the 31st, a year's turn, a leap day", () => {
    // Anchored on the 31st, verified 10 February 2027: February's payout is Monday 1 March (the 28th is a Sunday).
    expect(due(monthly(31), "2027-02-10T10:00:00Z")).toBe("2027-03-06T00:00:00.000Z");
    // Verified 26 February: available Tuesday 2 March, after February's last day: March's 31st.
    expect(due(monthly(31), "2027-02-26T10:00:00Z")).toBe("2027-04-07T00:00:00.000Z");
    expect(due(monthly(15), "2026-12-28T10:00:00Z")).toBe("2027-01-22T00:00:00.000Z");
    expect(due(monthly(30), "2028-02-10T10:00:00Z")).toBe("2028-03-07T00:00:00.000Z");
  });

  it("manual payouts: never due (paid out when the shop asks)", () => {
    expect(due(manual, "2026-12-07T10:00:00Z")).toBeNull();
    expect(lateBefore(manual, "UTC", new Date("2027-06-01T00:00:00Z"))).toBeNull();
  });

  it("the end of the day is the shop's midnight, with its offset on that day (daylight saving time)", () => {
    // New York, winter: the due day starts at 05:00 UTC.
    expect(due(daily(), "2027-02-26T17:00:00Z", "America/New_York")).toBe("2027-03-09T05:00:00.000Z");
    // Across the spring change (Sunday 14 March 2027): due on Tuesday 16 March, which starts at 04:00 UTC.
    expect(due(daily(), "2027-03-05T17:00:00Z", "America/New_York")).toBe("2027-03-16T04:00:00.000Z");
  });

  it("a refund counts from its day in the shop's zone or in UTC, whichever is later", () => {
    // Monday 23:30 in Los Angeles is Tuesday in UTC: counted from Tuesday, due at the end of Wednesday 16th, Los Angeles time.
    expect(due(daily(), "2026-12-08T07:30:00Z", "America/Los_Angeles")).toBe("2026-12-17T08:00:00.000Z");
    // Tuesday 01:00 in Tokyo is Monday in UTC: counted from Tuesday.
    expect(due(daily(), "2026-12-07T16:00:00Z", "Asia/Tokyo")).toBe("2026-12-16T15:00:00.000Z");
  });
});

describe("the late refunds as one bound on when they were verified", () => {
  const zones = ["UTC", "America/New_York", "America/Los_Angeles", "Asia/Tokyo", "America/Santiago"];
  const schedules = [daily(), daily("DE"), weekly("FRIDAY"), weekly("MONDAY"), monthly(31), monthly(1, "CA")];

  it("a refund is late exactly when it was verified before the bound", () => {
    const nows = ["2027-03-16T03:59:59Z", "2027-03-16T04:00:00Z", "2027-03-01T12:34:56Z", "2027-01-02T00:00:00Z"].map((s) => new Date(s));
    let compared = 0;
    for (const timeZone of zones)
      for (const schedule of schedules)
        for (const now of nows) {
          const bound = lateBefore(schedule, timeZone, now)!;
          // Every 4 hours and 1 minute over the 70 days before `now`, and each instant just around the bound.
          const instants = [bound.getTime() - 1, bound.getTime()];
          for (let at = now.getTime() - 70 * 86_400_000; at < now.getTime(); at += 241 * 60_000) instants.push(at);
          for (const at of instants) {
            const late = moneyDueAt(schedule, new Date(at), timeZone)!.getTime() <= now.getTime();
            if (late !== at < bound.getTime())
              throw new Error(
                `${schedule.interval} ${timeZone} now ${now.toISOString()}: verified ${new Date(at).toISOString()} late=${late}, bound ${bound.toISOString()}`,
              );
            compared++;
          }
        }
    expect(compared).toBeGreaterThan(40_000);
  });
});

describe("the schedule in words, and as Shopify's answer is parsed", () => {
  it("says the interval and its anchor", () => {
    expect(payoutInWords(daily())).toBe("the shop's daily payout");
    expect(payoutInWords(weekly("FRIDAY"))).toBe("the shop's weekly payout (Fridays)");
    expect(payoutInWords(monthly(1))).toBe("the shop's monthly payout (the 1st)");
    expect(payoutInWords(monthly(22))).toBe("the shop's monthly payout (the 22nd)");
    expect(payoutInWords(monthly(31))).toBe("the shop's monthly payout (the 31st, or the month's last day)");
  });

  it("takes what the schema allows, and refuses a weekly schedule without its day or a 32nd", () => {
    expect(payoutSchedule.safeParse({ interval: "WEEKLY", weeklyAnchor: "FRIDAY", monthlyAnchor: null, country: "US" }).success).toBe(true);
    expect(payoutSchedule.safeParse({ interval: "WEEKLY", weeklyAnchor: null, monthlyAnchor: null, country: "US" }).success).toBe(false);
    expect(payoutSchedule.safeParse({ interval: "MONTHLY", weeklyAnchor: null, monthlyAnchor: 32, country: "US" }).success).toBe(false);
    expect(payoutSchedule.safeParse({ interval: "FORTNIGHTLY", weeklyAnchor: null, monthlyAnchor: null, country: "US" }).success).toBe(false);
  });
});
