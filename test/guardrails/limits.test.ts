import { describe, expect, it } from "vitest";
import { breachesSentence, limitBreaches, NO_LIMITS, type RecentRefunds, type ShopLimits } from "../../app/guardrails/limits";
import { parseLimitsForm } from "../../app/guardrails/limits-form";

const NOTHING: RecentRefunds = { staffDayMinor: 0n, shopHour: { count: 0, minor: 0n }, shopDay: { count: 0, minor: 0n } };
const limits = (patch: Partial<ShopLimits>): ShopLimits => ({ ...NO_LIMITS("USD"), revision: 1, ...patch });
const words = (l: ShopLimits, amount: bigint, recent = NOTHING, userId = "7") => breachesSentence(limitBreaches(l, userId, "USD", amount, recent));

describe("a refund against the shop's limits", () => {
  it("no limit set: nothing waits, whatever the amount", () => {
    expect(limitBreaches(NO_LIMITS("USD"), "7", "USD", 10_000_000n, NOTHING)).toEqual([]);
  });

  it("per refund: the limit itself goes through, a cent over waits, in the words the person reads", () => {
    const l = limits({ perRefundMinor: 10_000n });
    expect(limitBreaches(l, "7", "USD", 10_000n, NOTHING)).toEqual([]);
    expect(words(l, 18_000n)).toBe("$180.00 is over the shop's limit of $100.00 per refund.");
    expect(
      words(
        limits({ perRefundMinor: 10_000n, people: [{ userId: "7", perRefundMinor: 5_000n, dailyMinor: null, approver: false, setsLimits: false }] }),
        6_000n,
      ),
    ).toBe("$60.00 is over your limit of $50.00 per refund.");
  });

  it("a person's own limit replaces the shop's, upwards too", () => {
    const l = limits({ perRefundMinor: 10_000n, people: [{ userId: "7", perRefundMinor: 50_000n, dailyMinor: null, approver: false, setsLimits: false }] });
    expect(limitBreaches(l, "7", "USD", 18_000n, NOTHING)).toEqual([]);
    expect(limitBreaches(l, "8", "USD", 18_000n, NOTHING)).toHaveLength(1);
  });

  it("a refund split in parts under the per-refund limit is caught by the daily total", () => {
    const l = limits({ perRefundMinor: 10_000n, dailyPerStaffMinor: 15_000n });
    expect(limitBreaches(l, "7", "USD", 9_000n, NOTHING)).toEqual([]);
    expect(words(l, 9_000n, { ...NOTHING, staffDayMinor: 9_000n })).toBe(
      "$90.00 would bring your refunds in 24 hours to $180.00, over the shop's limit of $150.00 a day per staff member.",
    );
  });

  it("shop-wide counts and amounts per hour and per day, each in words", () => {
    const l = limits({ shopHourlyCount: 10, shopDailyMinor: 100_000n });
    const recent = { staffDayMinor: 0n, shopHour: { count: 10, minor: 50_000n }, shopDay: { count: 30, minor: 95_000n } };
    expect(words(l, 9_000n, recent)).toBe(
      "This would be the shop's 11th refund in an hour, over the shop's limit of 10 an hour; and $90.00 would bring the shop's refunds in 24 hours to $1,040.00, over the shop's limit of $1,000.00 a day.",
    );
  });

  it("limits saved in another currency than the shop's now: every refund waits until they are saved again", () => {
    expect(limitBreaches(limits({ currency: "EUR", perRefundMinor: 10_000n }), "7", "USD", 100n, NOTHING)).toEqual([
      { kind: "currency_changed", limitsCurrency: "EUR", shopCurrency: "USD" },
    ]);
  });

  it("another person's limits are named by their name for an approver", () => {
    const l = limits({ people: [{ userId: "7", perRefundMinor: 5_000n, dailyMinor: null, approver: false, setsLimits: false }] });
    expect(breachesSentence(limitBreaches(l, "7", "USD", 6_000n, NOTHING), "Sam Lee's")).toBe("$60.00 is over Sam Lee's limit of $50.00 per refund.");
  });
});

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries({ revision: "0", people: "", ...fields })) data.set(key, value);
  return data;
};

describe("the limits form", () => {
  it("empty fields are limits off; amounts in the shop's currency; counts whole", () => {
    const parsed = parseLimitsForm(form({ perRefund: "100", shopHourlyCount: "20", people: "7", "daily.7": "250.50", "approver.7": "on" }), "USD");
    expect(parsed).toEqual({
      ok: true,
      data: {
        perRefundMinor: 10_000n,
        dailyPerStaffMinor: null,
        shopHourlyMinor: null,
        shopDailyMinor: null,
        shopHourlyCount: 20,
        shopDailyCount: null,
        people: [{ userId: "7", perRefundMinor: null, dailyMinor: 25_050n, approver: true, setsLimits: false }],
        revision: 0,
      },
    });
  });

  it("negative, huge and non-numeric limits are words under their field, and nothing is saved", () => {
    const parsed = parseLimitsForm(
      form({
        perRefund: "-5",
        dailyPerStaff: "99999999999",
        shopHourlyAmount: "ten",
        shopDailyCount: "1.5",
        shopHourlyCount: "0",
        people: "7",
        "perRefund.7": "1e9",
      }),
      "USD",
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.fieldErrors).toEqual({
      perRefund: "A limit cannot be below zero. Leave it empty for no limit.",
      dailyPerStaff: "At most $1,000,000,000.00. Leave it empty for no limit.",
      shopHourlyAmount: "Enter the amount as a number, such as 25.00.",
      shopDailyCount: "Enter a whole number of refunds, such as 20, or leave it empty for no limit.",
      shopHourlyCount: "At least 1. Leave it empty for no limit.",
      "perRefund.7": "Enter the amount as a number, such as 25.00.",
    });
  });

  it("decimals the currency does not have are refused (JPY has none)", () => {
    const parsed = parseLimitsForm(form({ perRefund: "100.5" }), "JPY");
    expect(parsed.ok ? null : parsed.fieldErrors.perRefund).toBe("JPY amounts have no decimals.");
  });

  it("a forged list of people (not ids, repeated) is an out-of-date form", () => {
    for (const people of ["7,7", "x", "7,../8"]) {
      const parsed = parseLimitsForm(form({ people }), "USD");
      expect(parsed.ok ? null : parsed.fieldErrors.form).toBe("This form is out of date. Reload the page and try again.");
    }
  });
});
