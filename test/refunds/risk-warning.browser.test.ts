import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApp, SCREENS, startBrowserDemo, type BrowserDemo } from "../support/demo";
import { seriousAccessibilityViolations } from "../support/axe";

// Issue 43 in Chromium: the refund form warns of money at risk twice and asks "Yes, refund anyway".

const SHOP = "refund-risk.myshopify.com";
const DAY = 24 * 3600_000;

let demo: BrowserDemo["demo"];
let browser: BrowserDemo["browser"];
let stop: BrowserDemo["stop"] | undefined;

beforeAll(async () => {
  ({ demo, browser, stop } = await startBrowserDemo({ shop: SHOP, historyCount: 3 }, "none"));
  demo.shopify.shop(SHOP).grantedScopes.add("read_shopify_payments_disputes");
});
afterAll(async () => stop?.());

async function openForm(orderId: bigint, width: 1280 | 390): Promise<{ page: Page; frame: Page | Frame }> {
  const opened = await openApp(browser, demo, `/orders/${orderId}/refund`, width);
  await opened.frame.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  return opened;
}

async function review(frame: Page | Frame, amount: string) {
  await frame.getByLabel("Amount (USD)").fill(amount);
  await frame.getByRole("button", { name: "Refund", exact: true }).click();
  await frame.getByRole("dialog").getByLabel("Yes, refund anyway").waitFor();
}

describe("the refund form's warning of money at risk twice", () => {
  it("1280 px: an open chargeback with its amount and due date; the refund waits for 'Yes, refund anyway', then goes once", async () => {
    const shop = demo.shopify.shop(SHOP);
    const order = shop.createOrder({ amount: "60.00" });
    shop.createDispute(order.id, { amount: "60.00" });
    const { page, frame } = await openForm(order.id, 1280);
    const warning = frame.locator('[data-refund-risk="OPEN_CHARGEBACK"]');
    expect(await warning.textContent()).toMatch(/This order has an open chargeback.*A chargeback of \$60\.00 USD that needs your response by/);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENS}/refund-risk-1280.png` });
    await review(frame, "20");
    const dialog = frame.getByRole("dialog");
    const confirm = dialog.getByRole("button", { name: "Refund $20.00 USD" });
    expect(await dialog.textContent()).toContain("This refund may pay the customer twice: the order has an open chargeback.");
    expect(await confirm.isDisabled()).toBe(true);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENS}/refund-risk-confirm-1280.png` });
    await dialog.getByLabel("Yes, refund anyway").check({ force: true });
    await confirm.click();
    await frame.getByText(/RF-\d{6}: Shopify accepted the refund/).waitFor();
    expect(shop.orders.get(order.id)!.refundIds).toHaveLength(1);
    await page.context().close();
  });

  it("390 px: an earlier refund to store credit is said with its amount, and the confirmation fits a phone", async () => {
    const shop = demo.shopify.shop(SHOP);
    const order = shop.createOrder({ amount: "50.00" });
    shop.createRefund(order.id, { storeCredit: "20.00", createdAt: new Date(Date.now() - DAY) });
    const { page, frame } = await openForm(order.id, 390);
    const warning = frame.locator('[data-refund-risk="STORE_CREDIT_REFUNDED"]');
    expect(await warning.textContent()).toContain("$20.00 USD of this order already went back to the customer as store credit.");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENS}/refund-risk-390.png` });
    await review(frame, "10");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENS}/refund-risk-confirm-390.png` });
    await frame.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    expect(shop.orders.get(order.id)!.refundIds).toHaveLength(1);
    await page.context().close();
  });
});
