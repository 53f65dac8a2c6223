import { writeFileSync } from "node:fs";
import { type FrameLocator, type Page } from "playwright-core";
import { untilHydrated } from "../support/chromium";
import { waitFor } from "../support/wait";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREENS, startBrowserDemo, type BrowserDemo } from "../support/demo";
import { CHROME_UA } from "../support/embedded";

const SHOP = "browser-demo.myshopify.com";

let demo: BrowserDemo["demo"];
let browser: BrowserDemo["browser"];
let db: BrowserDemo["db"];
let stop: BrowserDemo["stop"] | undefined;
let page: Page;
let app: FrameLocator;

beforeAll(async () => {
  // Every history refund has a verdict once the contract's 20 s stale-read window has passed since its delivery.
  ({ demo, browser, db, stop } = await startBrowserDemo({ shop: SHOP, historyCount: 40, preInstallRefunds: 60 }));
  // And the history backfill the install started has verified the 60 refunds made before it.
  await waitFor("the install's history backfill to be done", () => db.backfill.findFirst({ where: { state: "done" } }));
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, userAgent: CHROME_UA });
  app = page.frameLocator("#app-frame");
});

afterAll(async () => stop?.());

describe("the demo in Chromium", () => {
  it("serves the app's icons from public/", async () => {
    const icon = await fetch(`${demo.appUrl}/favicon.svg`);
    expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/svg+xml"]);
    expect((await fetch(`${demo.appUrl}/app-icon-1200.png`)).headers.get("content-type")).toBe("image/png");
  });

  it("dashboard: shows the figures and the refunds", async () => {
    await page.goto(demo.adminUrl);
    await app.getByRole("heading", { name: "Refunds", exact: true }).waitFor();
    // Clicks reach React only once it has hydrated the frame.
    await untilHydrated(page);
    const verified = Number(await app.locator("#figure-verified").textContent());
    const contradicted = Number(await app.locator("#figure-contradicted").textContent());
    expect(verified).toBeGreaterThan(10);
    expect(contradicted).toBeGreaterThan(0);
    expect(await app.locator("tbody tr").count()).toBe(25);
    await expect.poll(() => app.locator("#backfill-progress").textContent()).toMatch(/^60 refunds in 60 days: \d+ verified, \d+ duplicates?, /);
    await page.screenshot({ path: `${SCREENS}/dashboard.png` });
    const vitals = await page
      .frames()
      .find((f) => f.url().includes("/app"))!
      .evaluate(
        () =>
          new Promise<{ lcp: number; cls: number }>((resolve) => {
            let lcp = 0;
            let cls = 0;
            new PerformanceObserver((list) => list.getEntries().forEach((e) => (lcp = Math.max(lcp, e.startTime)))).observe({
              type: "largest-contentful-paint",
              buffered: true,
            });
            new PerformanceObserver((list) => list.getEntries().forEach((e) => (cls += (e as unknown as { value: number }).value))).observe({
              type: "layout-shift",
              buffered: true,
            });
            setTimeout(() => resolve({ lcp, cls }), 500);
          }),
      );
    writeFileSync(`${SCREENS}/web-vitals.json`, JSON.stringify({ measured: new Date().toISOString(), ...vitals }, null, 2));
    console.log(`dashboard in the demo: LCP ${Math.round(vitals.lcp)} ms, CLS ${vitals.cls.toFixed(3)}`);
  });

  it("a filter narrows the table", async () => {
    await app.getByRole("button", { name: "Verdict" }).click();
    await app.getByRole("checkbox", { name: "Contradicted", exact: true }).click();
    await page.keyboard.press("Escape");
    await expect.poll(async () => app.locator("tbody tr").count()).toBeLessThan(25);
    const badges = await app.locator("tbody tr td:nth-child(3)").allTextContents();
    expect(badges.length).toBeGreaterThan(0);
    expect(badges.every((text) => text.includes("Contradicted"))).toBe(true);
    await page.screenshot({ path: `${SCREENS}/dashboard-filtered.png` });
  });

  it("a refund's detail shows its conditions", async () => {
    await app.locator("tbody tr").first().locator("td").nth(3).click();
    await app.getByText("What the verdict means").waitFor();
    for (const id of [
      "refund_created_in_window",
      "refund_present",
      "refund_webhook_present",
      "refund_amount_mismatch",
      "refund_currency_mismatch",
      "transaction_failed",
    ]) {
      await expect.poll(async () => app.locator(`tr[data-condition="${id}"]`).count()).toBe(1);
    }
    await expect.poll(async () => app.getByText("shopify.refund.created 1.3.0").count()).toBe(1);
    await page.screenshot({ path: `${SCREENS}/refund-detail.png`, fullPage: true });
  });

  it("the demo's shop has an order paid in EUR and a refund split over two gateways, both verified", async () => {
    const eur = await db.operation.findFirstOrThrow({ where: { currency: "EUR" } });
    expect(eur).toMatchObject({ status: "VERIFIED", shopCurrency: "USD" });
    const shop = demo.shopify.shop(SHOP);
    const split = [...shop.refunds.values()].find((r) => new Set(r.transactionIds.map((id) => shop.transactions.get(id)!.gateway)).size === 2)!;
    expect(await db.operation.findFirstOrThrow({ where: { refundGid: `gid://shopify/Refund/${split.id}` } })).toMatchObject({ status: "VERIFIED" });
  });

  it("a refund whose webhook was lost is found by the sweep within a minute", async () => {
    const shop = demo.shopify.shop(SHOP);
    const order = shop.createOrder({ amount: "42.00" });
    const lost = shop.createRefund(order.id, { amount: "12.00" });
    const started = Date.now();
    await expect
      .poll(() => db.operation.count({ where: { refundGid: `gid://shopify/Refund/${lost.id}`, origin: "reconciliation" } }), { interval: 1_000 })
      .toBe(1);
    console.log(`lost webhook found by the sweep after ${Math.round((Date.now() - started) / 1000)} s`);
  });

  it("resolving from the review queue removes the refund from the queue", async () => {
    await page.getByText("Review queue", { exact: true }).click();
    await app.getByText("that a person must look at").waitFor();
    await untilHydrated(page);
    const before = await app.locator("[data-review-item]").count();
    expect(before).toBeGreaterThan(0);
    const first = app.locator("[data-review-item]").first();
    const title = await first.locator("a").first().textContent();
    await page.screenshot({ path: `${SCREENS}/review-queue.png` });
    await first.getByPlaceholder("What you checked and what you did").fill("Checked the order in Shopify admin: refunded once, customer informed.");
    await first.getByRole("button", { name: `Resolve the refund on ${title}` }).click();
    await expect.poll(async () => app.locator("[data-review-item]").count()).toBe(before - 1);
    expect(await app.locator("[data-review-item] a").allTextContents()).not.toContain(title);
    await page.screenshot({ path: `${SCREENS}/review-queue-resolved.png` });
  });

  it("alerts: the settings page, the delivery log, a field error, and what reached the mailbox, Slack and Flow", async () => {
    // The demo shop's alerts were set up through this page; its history holds contradictions.
    await expect.poll(() => demo.mailbox.messages.length, { interval: 500 }).toBeGreaterThan(0);
    await expect.poll(() => demo.slack.messages.length, { interval: 500 }).toBeGreaterThan(0);
    expect(demo.shopify.flow.calls.length).toBeGreaterThan(0);
    expect(demo.shopify.flow.calls.every((call) => call.ranWorkflows)).toBe(true);

    await page.getByText("Alerts", { exact: true }).click();
    await app.getByText("Where alerts go").waitFor();
    await untilHydrated(page);
    await app.getByText("Delivered").first().waitFor();
    // Contradicted, failed at gateway, unverifiable, payout failed, refund on a disputed order and refund waiting for approval…
    expect(await app.getByText("Used by a workflow").count()).toBe(6);
    expect(await app.locator("input[name=slackUrl]").inputValue()).toBe("");
    expect(await app.locator("body").textContent()).not.toContain(demo.slack.webhookUrl);
    await page.screenshot({ path: `${SCREENS}/alerts-settings.png` });
    await app.getByText("Delivery log").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENS}/alerts-delivery-log.png` });

    await app.getByLabel("Slack incoming-webhook URL").fill("https://example.com/not-slack");
    await app.getByRole("button", { name: "Save" }).click();
    await app.getByText(/A Slack incoming-webhook URL starts with/).waitFor();
    await page.screenshot({ path: `${SCREENS}/alerts-field-error.png` });

    const inbox = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    try {
      const origin = new URL(demo.adminUrl).origin;
      const mailSent = demo.mailbox.messages.length;
      await inbox.goto(`${origin}/demo/mail`);
      expect(await inbox.locator("[data-mail]").count()).toBeGreaterThanOrEqual(mailSent);
      expect(await inbox.locator("[data-mail] a").first().getAttribute("href")).toContain(`${origin}/store/`);
      await inbox.screenshot({ path: `${SCREENS}/demo-mailbox.png` });
      const flowRuns = demo.shopify.flow.calls.length;
      await inbox.goto(`${origin}/demo/flow`);
      expect(await inbox.locator("[data-flow-run]").count()).toBeGreaterThanOrEqual(flowRuns);
      await inbox.screenshot({ path: `${SCREENS}/demo-flow-runs.png` });
    } finally {
      await inbox.close();
    }
  });
});
