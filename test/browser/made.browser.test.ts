import { randomUUID } from "node:crypto";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { untilHydrated } from "../support/chromium";
import { SCREENS, openApp, startBrowserDemo, untilDemoDecided, type BrowserDemo } from "../support/demo";
import { seriousAccessibilityViolations } from "../support/axe";
import { dataPath, embeddedFetch } from "../support/embedded";

// Issue 45, point 2 (decision 031): where a refund was made and by whom, in a merchant's words, on
// the dashboard, a refund's evidence and the review queue, at 1280 px in the simulated admin and 390
// px on a phone. The demo's refunds are made in the admin by its owner Dana Whitfield (her name is
// known: she opens the app) and by a colleague who never did, on Point of Sale, by the app Returns
// Pro, and by nobody Shopify names; Ada Lovelace refunds one from the app's own form.

const SHOP = "made-demo.myshopify.com";
const WIDTHS = [1280, 390] as const;
/** How the app learned of a refund, in the old words: only "Technical details" may say it now. */
const LEARNED_WORDS = /\b(Webhook|Found by sweep|From history)\b/;

let demo: BrowserDemo["demo"];
let browser: BrowserDemo["browser"];
let db: BrowserDemo["db"];
let stop: BrowserDemo["stop"] | undefined;
let fromTheApp: string;

beforeAll(async () => {
  ({ demo, browser, db, stop } = await startBrowserDemo({ shop: SHOP, historyCount: 18 }));
  demo.shopify.addStaff(SHOP, { id: "88", firstName: "Ada", lastName: "Lovelace" });
  const order = demo.shopify.shop(SHOP).createOrder({ amount: "75.00" });
  const form = dataPath(`/app/orders/${order.id}/refund`, "routes/app.orders.$orderId.refund");
  const asked = await embeddedFetch(
    demo.appUrl,
    SHOP,
    "88",
  )(form, {
    method: "POST",
    body: new URLSearchParams({ intent: "issue", amount: "12.00", formToken: randomUUID() }),
  });
  expect(asked.status).toBe(200);
  await untilDemoDecided(db);
  fromTheApp = (await db.operation.findFirstOrThrow({ where: { shop: SHOP, origin: "app" } })).id;
});

afterAll(async () => stop?.());

/** The text a person reads in the app's main landmark, "Technical details" left out. */
async function mainText(frame: Page | Frame): Promise<string> {
  return frame.evaluate(() => {
    const main = document.querySelector("main")!.cloneNode(true) as HTMLElement;
    main.querySelector("#technical-details")?.remove();
    return main.innerText;
  });
}

/** The dashboard at 1280 px in the simulated admin, its rows shown and hydrated. */
async function openDashboard() {
  const opened = await openApp(browser, demo, "", 1280);
  await opened.frame.waitForSelector("[data-refund-link]");
  await untilHydrated(opened.page);
  return opened;
}

/** "Add filter", then Made, then "On Point of Sale": the filter's popover is left open. */
async function pickMadeOnPointOfSale(frame: Page | Frame) {
  await frame.getByRole("button", { name: /Add filter/ }).click();
  await frame.locator(".Polaris-Popover").getByText("Made", { exact: true }).click();
  await frame.locator(".Polaris-Popover").getByText("On Point of Sale", { exact: true }).click();
}

describe("where a refund was made, in a merchant's words (1280 and 390 px)", () => {
  it("the dashboard: a Made column (a line on a phone) names the place and the person; no row says how the app learned of it", async () => {
    for (const width of WIDTHS) {
      const { page, frame } = await openApp(browser, demo, "?range=all", width);
      await frame.waitForSelector("[data-refund-link]");
      await untilHydrated(page);
      const text = await mainText(frame);
      if (width === 1280) {
        expect(await frame.locator("thead th").allInnerTexts()).toContain("Made");
        for (const cell of [
          "In Shopify admin by Dana Whitfield",
          "In Shopify admin by a staff member",
          "By the app Returns Pro",
          "In this app by Ada Lovelace",
        ])
          expect(text, cell).toContain(cell);
        expect(text).toMatch(/On Point of Sale by Dana Whitfield/);
        expect(text).toContain("In Shopify; who made it is not known");
      } else {
        for (const line of ["Made in Shopify admin by Dana Whitfield · ", "Made by the app Returns Pro · ", "Made in this app by Ada Lovelace · "])
          expect(text, line).toContain(line);
      }
      expect(text).not.toMatch(LEARNED_WORDS);
      await page.screenshot({ path: `${SCREENS}/made-dashboard-${width}.png`, fullPage: true });
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await page.context().close();
    }
  });

  it("the dashboard's filter: a person picks where refunds were made (Point of Sale), and sees only those, its pill in words", async () => {
    const { page, frame } = await openDashboard();
    await pickMadeOnPointOfSale(frame);
    // Closed once the refunds are there (closed at once is the next test's).
    await expect.poll(() => frame.url()).toContain("made=pos");
    await page.keyboard.press("Escape");
    await expect.poll(() => mainText(frame)).toContain("Made: On Point of Sale");
    const rows = () => frame.locator("tbody tr").allInnerTexts();
    await expect.poll(async () => (await rows()).every((row) => row.includes("On Point of Sale by Dana Whitfield"))).toBe(true);
    expect((await rows()).length).toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENS}/made-dashboard-filter-1280.png` });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.context().close();
  });

  it("the dashboard's filter keeps its pill when the person clicks away before the refunds arrive", async () => {
    const { page, frame } = await openDashboard();
    // The answer to the choice is held until the popover has closed, as on a slow connection.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await page.route(
      (url) => url.searchParams.get("made") === "pos" && url.pathname.endsWith(".data"),
      async (route) => {
        await answered;
        await route.continue();
      },
    );
    await pickMadeOnPointOfSale(frame);
    await page.keyboard.press("Escape");
    await expect.poll(() => frame.locator(".Polaris-Popover").count()).toBe(0);
    answer();
    await expect.poll(() => frame.url()).toContain("made=pos");
    const rows = () => frame.locator("tbody tr").allInnerTexts();
    await expect.poll(async () => (await rows()).every((row) => row.includes("On Point of Sale"))).toBe(true);
    expect(await mainText(frame)).toContain("Made: On Point of Sale");
    await page.context().close();
  });

  it("a refund's evidence: its header says where it was made and by whom; how the app learned of it only under Technical details", async () => {
    const inAdmin = await db.operation.findFirstOrThrow({ where: { shop: SHOP, origin: "webhook", madeIn: "admin", madeByStaff: "42" } });
    for (const [id, words] of [
      [inAdmin.id, "Made in Shopify admin by Dana Whitfield"],
      [fromTheApp, "Made in this app by Ada Lovelace"],
    ] as const) {
      for (const width of WIDTHS) {
        const { page, frame } = await openApp(browser, demo, `/refunds/${id}`, width);
        await frame.waitForSelector("[data-evidence-lead]");
        await untilHydrated(page);
        // The page's header: its title, verdict and subtitle, above the verdict's card.
        const header = (await mainText(frame)).split("What the verdict means")[0];
        expect(header).toContain(words);
        expect(header).not.toMatch(LEARNED_WORDS);
        expect(await mainText(frame)).not.toMatch(/How the app learned of it/);
        await frame.getByRole("button", { name: "Technical details" }).click();
        const technical = frame.locator("#technical-details");
        await expect.poll(() => technical.innerText()).toContain("How the app learned of it: ");
        expect(await technical.innerText()).toContain("Where Shopify says it was made: madeIn ");
        await page.screenshot({ path: `${SCREENS}/made-evidence-${id === fromTheApp ? "this-app" : "admin"}-${width}.png`, fullPage: true });
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await page.context().close();
      }
    }
  });

  it("the review queue: each item says where its refund was made", async () => {
    for (const width of WIDTHS) {
      const { page, frame } = await openApp(browser, demo, "/review", width);
      await frame.waitForSelector("[data-review-item]");
      await untilHydrated(page);
      const items = await frame.locator("[data-review-item]").allInnerTexts();
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(item).toMatch(/Made (in Shopify|in this app|on Point of Sale|by the app)/);
      expect(await mainText(frame)).not.toMatch(LEARNED_WORDS);
      await page.screenshot({ path: `${SCREENS}/made-review-${width}.png`, fullPage: true });
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await page.context().close();
    }
  });
});
