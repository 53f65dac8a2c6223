import { type FrameLocator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREENS, startBrowserDemo, type BrowserDemo } from "../support/demo";
import { CHROME_UA } from "../support/embedded";
import { untilHydrated } from "../support/chromium";
import { seriousAccessibilityViolations } from "../support/axe";
import type { FakeOrder } from "../../fake-shopify/shop";

const SHOP = "refund-form.myshopify.com";

let demo: BrowserDemo["demo"];
let browser: BrowserDemo["browser"];
let stop: BrowserDemo["stop"] | undefined;
let page: Page;
let app: FrameLocator;
let order: FakeOrder;

/** A phone: the simulated admin hides its sidebar, as Shopify admin does on a narrow screen, and the app gets the width. */
async function asPhone() {
  await page.setViewportSize({ width: 390, height: 1100 });
  await page.addStyleTag({
    content: "body{grid-template-columns:1fr!important} nav{display:none!important} header{grid-column:1!important} main{padding:0!important}",
  });
}

const openForm = async () => {
  await page.goto(`${demo.adminUrl}/orders/${order.id}/refund`);
  await app
    .getByRole("heading", { name: `Refund ${order.name}` })
    .first()
    .waitFor();
  await untilHydrated(page);
};
const amountField = () => app.getByLabel("Amount (USD)");
const dialog = () => app.getByRole("dialog");

beforeAll(async () => {
  ({ demo, browser, stop } = await startBrowserDemo({ shop: SHOP, historyCount: 5 }, "none"));
  // An order paid over two gateways, never refunded: the confirmation names both.
  order = demo.shopify.shop(SHOP).createOrder({
    amount: "51.35",
    payments: [
      { gateway: "gift_card", amount: "20.00" },
      { gateway: "shopify_payments", amount: "31.35" },
    ],
  });
  // axe needs a context of its own (it opens a page in it).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: CHROME_UA });
  page = await context.newPage();
  app = page.frameLocator("#app-frame");
});

afterAll(async () => stop?.());

describe("the refund form in Chromium", () => {
  it("1280 px: the form passes axe; 10.005 is refused on the field, in words", async () => {
    await openForm();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENS}/refund-form-1280.png` });
    await amountField().fill("10.005");
    await app.getByRole("button", { name: "Refund", exact: true }).click();
    await app.getByText("USD amounts have at most 2 decimals.").waitFor();
    expect(await amountField().getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await amountField().getAttribute("aria-describedby")) ?? "";
    const errorId = describedBy.split(" ").find((id) => id.endsWith("Error"));
    expect(await app.locator(`[id="${errorId}"]`).textContent()).toContain("USD amounts have at most 2 decimals.");
    expect(await dialog().count()).toBe(0);
    await page.screenshot({ path: `${SCREENS}/refund-form-error-1280.png` });
  });

  it("1280 px: the confirmation says amount, currency, order and gateways; confirming issues it and resets the form", async () => {
    await amountField().fill("40,00");
    await app.getByRole("button", { name: "Refund", exact: true }).click();
    await dialog().waitFor();
    const text = (await dialog().textContent()) ?? "";
    expect(text).toContain(`Refund $40.00 on ${order.name}?`);
    expect(text).toContain("$40.00 USD goes back to the customer of");
    // Newest payment first, each up to what Shopify can still refund on it: as the server allocates.
    expect(text).toContain("$20.00 USD to the gift card payment (gift_card)");
    expect(text).toContain("$20.00 USD to the Shopify Payments payment (shopify_payments)");
    expect(text).not.toContain("Yes, another refund");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENS}/refund-form-confirm-1280.png` });

    await dialog().getByRole("button", { name: "Refund $40.00 USD" }).click();
    await app.getByText(/RF-\d{6}: Shopify accepted the refund/).waitFor();
    await expect.poll(() => dialog().count()).toBe(0);
    expect(await amountField().inputValue()).toBe("");
    const sysId = /RF-\d{6}/.exec((await app.getByText(/RF-\d{6}: Shopify accepted the refund/).textContent()) ?? "")![0];
    const record = app.locator(`[data-refund-record="${sysId}"]`);
    await record.waitFor();
    expect(await record.textContent()).toMatch(/40\.00 USD.*(Sent to Shopify|Refunded by Shopify)/);
    // The page looks again on its own while the refund is being checked: its verdict arrives without a reload,
    // and Shopify's answer and the app's check never read as two states at once.
    await expect.poll(() => record.textContent()).toMatch(/Refunded by Shopify.*Verified/);
    expect(await record.textContent()).not.toMatch(/succeeded|Pending|Being checked/);
    // Read in the background: the answer to the person's action is still on the page.
    expect(await app.getByText(/RF-\d{6}: Shopify accepted the refund/).count()).toBe(1);
    const shop = demo.shopify.shop(SHOP);
    const refunds = shop.orders.get(order.id)!.refundIds;
    expect(refunds).toHaveLength(1);
    expect(
      shop.refunds
        .get(refunds[0])!
        .transactionIds.map((id) => shop.transactions.get(id)!.gateway)
        .sort(),
    ).toEqual(["gift_card", "shopify_payments"]);
    await page.screenshot({ path: `${SCREENS}/refund-form-sent-1280.png` });
  });

  it('1280 px: a second refund within minutes demands an explicit "yes, another refund"', async () => {
    await app.getByText("This order was refunded minutes ago").waitFor();
    await amountField().fill("5");
    await app.getByRole("button", { name: "Refund", exact: true }).click();
    await dialog().waitFor();
    const confirm = dialog().getByRole("button", { name: "Refund $5.00 USD" });
    const another = dialog().getByLabel(`Yes, another refund on ${order.name}`);
    await another.waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENS}/refund-form-another-1280.png` });
    await another.check({ force: true });
    expect(await confirm.isDisabled()).toBe(false);
    await confirm.click();
    await expect.poll(() => app.locator("[data-refund-record]").count()).toBe(2);
    expect(demo.shopify.shop(SHOP).orders.get(order.id)!.refundIds).toHaveLength(2);
    expect(await amountField().inputValue()).toBe("");
  });

  it("390 px: the form, the field error and the confirmation fit a phone", async () => {
    await openForm();
    await asPhone();
    await page.screenshot({ path: `${SCREENS}/refund-form-390.png` });
    await amountField().fill("10.005");
    await app.getByRole("button", { name: "Refund", exact: true }).click();
    await app.getByText("USD amounts have at most 2 decimals.").waitFor();
    await page.screenshot({ path: `${SCREENS}/refund-form-error-390.png` });
    await amountField().fill("1,5");
    await app.getByRole("button", { name: "Refund", exact: true }).click();
    // On a narrow screen Polaris lays the dialog's box out through its children: wait for its content.
    await dialog().getByRole("button", { name: "Refund $1.50 USD" }).waitFor();
    await dialog().getByLabel(`Yes, another refund on ${order.name}`).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENS}/refund-form-confirm-390.png` });
    await dialog().getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog().count()).toBe(0);
    expect(demo.shopify.shop(SHOP).orders.get(order.id)!.refundIds).toHaveLength(2);
  });
});
