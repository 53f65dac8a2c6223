import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askAboutScopesAgain } from "../../app/shops/payments.server";
import type { PayoutScheduleView } from "../../fake-shopify/payments";
import { seriousAccessibilityViolations } from "../support/axe";
import { untilHydrated } from "../support/chromium";
import { SCREENS, openApp, startBrowserDemo, type BrowserDemo } from "../support/demo";
import { waitFor } from "../support/wait";

// Issue 45 point 4, what a merchant reads (decision 032): the dashboard's late-money figure and
// its filter say the shop's own payout schedule, as Shopify answers it with the payments account:
// "2 refunds: money not arrived 4 business days after the shop's weekly payout (Fridays)", not
// "after 7 days"; a shop paid out manually reads why nothing is called late. At 1280 px in the
// simulated admin and at 390 px on a phone, axe clean.

const SHOP = "payout-days.myshopify.com";
const DAY = 24 * 3600_000;
const FAR = new Date("2100-01-01T00:00:00Z");

let demo: BrowserDemo["demo"];
let browser: BrowserDemo["browser"];
let db: BrowserDemo["db"];
let stop: BrowserDemo["stop"] | undefined;

/** Shopify's schedule for the shop becomes `schedule`; the demo's worker reads it with the account at its next settlement pass (every 30 s). */
async function scheduleIs(schedule: PayoutScheduleView) {
  demo.shopify.shop(SHOP).payments.payoutSchedule = schedule;
  await askAboutScopesAgain(db, SHOP);
  await expect
    .poll(async () => JSON.parse((await db.shopState.findUnique({ where: { shop: SHOP } }))?.payoutSchedule ?? "null")?.interval, {
      message: `the demo's worker did not read the ${schedule.interval} schedule`,
      timeout: 90_000,
      interval: 250,
    })
    .toBe(schedule.interval);
}

beforeAll(async () => {
  ({ demo, browser, db, stop } = await startBrowserDemo({ shop: SHOP, historyCount: 12 }));
  // The demo follows each refund paid back through Shopify Payments to its payout. Three of them are
  // made to wait for theirs (PENDING, never read again by the worker): two verified 20 days ago, one 8.
  const followed = () => db.settlement.findMany({ where: { shop: SHOP, status: { in: ["PENDING", "VERIFIED"] } }, orderBy: { startedAt: "asc" }, take: 3 });
  await waitFor("the demo to open 3 settlements", async () => (await followed()).length === 3);
  const ages = [20, 20, 8];
  for (const [i, settlement] of (await followed()).entries()) {
    const updated = await db.settlement.updateMany({
      where: { id: settlement.id },
      data: {
        status: "PENDING",
        money: "awaiting_ledger",
        decidedAt: null,
        startedAt: new Date(Date.now() - ages[i] * DAY),
        nextDueAt: FAR,
        claimedBy: null,
        claimedUntil: null,
        revision: { increment: 1 },
      },
    });
    expect(updated.count).toBe(1);
  }
});

afterAll(async () => stop?.());

/**
 * axe reads the page at rest: not while the table shows Polaris's loading panel (a navigation, or
 * the dashboard's refresh every 15 s), whose text is below axe's contrast threshold while it fades
 * (it is always in the page; hidden at rest).
 */
async function accessibilityViolations(page: Page, frame: Page | Frame) {
  const panels = frame.locator(".Polaris-IndexTable__LoadingPanel");
  await expect.poll(() => panels.evaluateAll((all) => all.every((panel) => getComputedStyle(panel).visibility === "hidden"))).toBe(true);
  return seriousAccessibilityViolations(page);
}

const figureText = async (frame: Page | Frame) => {
  const figure = frame.locator("p", { has: frame.locator("#figure-money-late") });
  await figure.waitFor();
  return ((await figure.textContent()) ?? "").replace(/\s+/g, " ").trim();
};

describe("the late-money figure says the shop's payout schedule", () => {
  for (const width of [1280, 390] as const) {
    it(`${width} px: weekly on Fridays: the two refunds of 20 days, not the one of 8 days the 7 days counted; the filter says the same`, async () => {
      await scheduleIs({ interval: "WEEKLY", weeklyAnchor: "FRIDAY", monthlyAnchor: null });
      const { page, frame } = await openApp(browser, demo, "/", width);
      await untilHydrated(page);
      expect(await figureText(frame)).toBe("2 refunds: money not arrived 4 business days after the shop's weekly payout (Fridays)");
      expect(await figureText(frame)).not.toContain("after 7 days");
      expect(await accessibilityViolations(page, frame)).toEqual([]);
      await page.screenshot({ path: `${SCREENS}/money-late-weekly-${width}.png`, fullPage: width === 390 });
      // The number opens the table it counts, and the filter's chip says the same words.
      await frame.getByRole("link", { name: /^2 refunds: money not arrived 4 business days after the shop's weekly payout \(Fridays\), show them$/ }).click();
      await frame.getByText("Money not arrived 4 business days after the shop's weekly payout (Fridays)").first().waitFor();
      await expect.poll(() => frame.locator(width === 390 ? "[data-condensed-row]" : "[data-refund-link]").count()).toBe(2);
      expect(await accessibilityViolations(page, frame)).toEqual([]);
      await page.screenshot({ path: `${SCREENS}/money-late-weekly-filtered-${width}.png`, fullPage: width === 390 });
      await page.context().close();
    });
  }

  it("390 px: paid out manually: nothing is late, the money waiting for a payout is said as such, without a warning", async () => {
    await scheduleIs({ interval: "MANUAL", weeklyAnchor: null, monthlyAnchor: null });
    const { page, frame } = await openApp(browser, demo, "/", 390);
    await untilHydrated(page);
    expect(await figureText(frame)).toMatch(/^\d+ refunds?: money waiting for a payout \(the shop's payouts are manual: paid out when the shop asks\)$/);
    expect(await figureText(frame)).not.toContain("not arrived");
    expect(await accessibilityViolations(page, frame)).toEqual([]);
    await page.screenshot({ path: `${SCREENS}/money-late-manual-390.png`, fullPage: true });
    await page.context().close();
  });
});
