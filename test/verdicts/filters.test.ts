import { describe, expect, it } from "vitest";
import { dateBounds, parseFilters, period } from "../../app/verdicts/filters";
import { dayIn, startOfDay } from "../../app/lib/time/days";

const NOW = new Date("2026-11-30T03:30:00Z"); // 22:30 on Nov 29 in New York

describe("the dashboard's filters from the URL", () => {
  it("resolves date presets to days in the shop's time zone", () => {
    const ny = { now: NOW, timeZone: "America/New_York" };
    expect(parseFilters(new URLSearchParams("range=today"), ny)).toMatchObject({ range: "today", from: "2026-11-29", to: "2026-11-29" });
    expect(parseFilters(new URLSearchParams("range=today"), { now: NOW, timeZone: "UTC" })).toMatchObject({ from: "2026-11-30", to: "2026-11-30" });
    expect(parseFilters(new URLSearchParams("range=7d"), ny)).toMatchObject({ from: "2026-11-23", to: "2026-11-29" });
    expect(parseFilters(new URLSearchParams("range=30d"), ny)).toMatchObject({ from: "2026-10-31", to: "2026-11-29" });
    expect(parseFilters(new URLSearchParams("range=custom&from=2026-11-01&to=2026-11-02"), ny)).toMatchObject({
      range: "custom",
      from: "2026-11-01",
      to: "2026-11-02",
    });
    expect(parseFilters(new URLSearchParams("from=2026-11-01"), ny)).toMatchObject({ range: "custom", from: "2026-11-01", to: undefined });
    expect(parseFilters(new URLSearchParams("range=yesterday"), ny)).toMatchObject({ range: undefined, from: undefined });
  });

  it("reads the review state, ignoring anything else", () => {
    expect(parseFilters(new URLSearchParams("review=open")).review).toBe("open");
    expect(parseFilters(new URLSearchParams("review=resolved")).review).toBe("resolved");
    expect(parseFilters(new URLSearchParams("review=everything")).review).toBeUndefined();
  });

  it("days start at the shop's midnight, across daylight saving time", () => {
    expect(startOfDay("2026-11-29", "America/New_York").toISOString()).toBe("2026-11-29T05:00:00.000Z");
    expect(startOfDay("2026-07-01", "America/New_York").toISOString()).toBe("2026-07-01T04:00:00.000Z");
    expect(startOfDay("2026-03-08", "America/New_York").toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(startOfDay("2026-11-29", "Asia/Kolkata").toISOString()).toBe("2026-11-28T18:30:00.000Z");
    expect(startOfDay("2026-11-29", "UTC").toISOString()).toBe("2026-11-29T00:00:00.000Z");
    expect(dayIn(NOW, "Asia/Tokyo")).toBe("2026-11-30");
  });

  it("bounds the rows and the figures' period by whole days", () => {
    const filters = parseFilters(new URLSearchParams("range=today"), { now: NOW, timeZone: "America/New_York" });
    expect(dateBounds(filters)).toEqual({ gte: new Date("2026-11-29T05:00:00Z"), lt: new Date("2026-11-30T05:00:00Z") });
    expect(period(filters)).toEqual({ from: new Date("2026-11-29T05:00:00Z"), to: new Date("2026-11-30T05:00:00Z") });
    // The dashboard's default (30 days) unless dates were chosen; "all" is every date, as is no default (the review queue).
    const dashboard = parseFilters(new URLSearchParams(""), { now: NOW, timeZone: "America/New_York", defaultRange: "30d" });
    expect(dashboard).toMatchObject({ range: "30d", from: "2026-10-31", to: "2026-11-29" });
    expect(parseFilters(new URLSearchParams("from=2026-11-01"), { now: NOW, defaultRange: "30d" })).toMatchObject({ range: "custom", from: "2026-11-01" });
    const all = parseFilters(new URLSearchParams("range=all&from=2026-11-01"), { now: NOW, defaultRange: "30d" });
    expect([all.range, all.from, all.to]).toEqual(["all", undefined, undefined]);
    expect(period(parseFilters(new URLSearchParams(""), { now: NOW }))).toEqual({ from: new Date(0), to: new Date(Date.UTC(9999, 0, 1)) });
  });
});
