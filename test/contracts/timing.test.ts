import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadContractText } from "../../app/contracts/load";
import { attemptOffset, attemptSchedule, nextCheckAt, waitAfterAttempt } from "../../app/contracts/timing";

const { timing } = loadContractText(readFileSync("contracts/shopify.refund.created@1.0.0.json", "utf8")).contract;

describe("the seed's schedule", () => {
  it("starts after the initial delay and backs off ×2 up to 60 s", () => {
    expect(attemptSchedule(timing).slice(0, 7)).toEqual([1000, 6000, 16000, 36000, 76000, 136000, 196000]);
    expect([1, 2, 3, 4, 5, 6].map((k) => waitAfterAttempt(timing, k))).toEqual([5000, 10000, 20000, 40000, 60000, 60000]);
  });

  it("has at most 40 attempts, the last 2,176,000 ms after the start", () => {
    const schedule = attemptSchedule(timing);
    expect(schedule).toHaveLength(40);
    expect(schedule.at(-1)).toBe(1000 + 5000 + 10000 + 20000 + 40000 + 35 * 60000);
    expect(attemptOffset(timing, 41)).toBeUndefined();
  });

  it("after the polls, the next check is the timeout", () => {
    const start = Date.parse("2026-11-29T10:00:00Z");
    expect(nextCheckAt(timing, start, 0)).toEqual({ atMs: start + 1000, kind: "poll" });
    expect(nextCheckAt(timing, start, 40)).toEqual({ atMs: start + 604_800_000, kind: "timeout" });
  });

  it("the timeout bounds the polls", () => {
    expect(attemptSchedule({ ...timing, timeout_ms: 20_000 })).toEqual([1000, 6000, 16000]);
  });
});
