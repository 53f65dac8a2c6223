import { describe, expect, it } from "vitest";
import { nextSteps, VERDICT_MEANINGS } from "../../app/onboarding/content";
import { VERDICTS } from "../../app/verdicts/filters";

describe("the first-run page's words", () => {
  it("explains every verdict", () => {
    expect(VERDICT_MEANINGS.map((v) => v.status).sort()).toEqual([...VERDICTS].sort());
  });

  it("says what the app does next, from the worker's schedule and the first sweep's state", () => {
    const schedule = { intervalMs: 900_000, firstLookBackMs: 86_400_000 };
    const waiting = nextSteps({ ...schedule, lastCompletedAt: null, runningSince: null });
    expect(waiting.join(" ")).toMatch(/refunds\/create/);
    expect(waiting.join(" ")).toMatch(/Every 15 minutes/);
    expect(waiting.join(" ")).toMatch(/starts within 15 minutes: it reads orders updated in the last 24 hours/);
    expect(nextSteps({ ...schedule, lastCompletedAt: null, runningSince: "2026-11-30T00:00:00Z" }).join(" ")).toMatch(/running now/);
    expect(nextSteps({ ...schedule, lastCompletedAt: "2026-11-30T00:00:00Z", runningSince: null }).join(" ")).toMatch(/is done/);
  });
});
