import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREENS, openApp, startBrowserDemo, type BrowserDemo } from "../support/demo";
import { seriousAccessibilityViolations } from "../support/axe";

// Issue 26, items 1 and 4, as a merchant reads the screens at 1280 and 390 px: an order is its
// name (#1340), never Shopify's internal id; the engine's words (codes, operation, observation,
// evaluation, attempt, webhook, API version) stay inside "Technical details".

const SHOP = "words-demo.myshopify.com";
const WIDTHS = [1280, 390] as const;

/** Words of the engine a merchant should not meet outside "Technical details". */
const ENGINE_WORDS = [
  /\b(PENDING|VERIFIED|CONTRADICTED|UNVERIFIABLE|FAILED)\b/,
  /\b(operation|observation|evaluation|attempt)s?\b/i,
  /\bwebhooks?\b/i,
  /\bAPI (version|20\d\d-\d\d)/i,
  /\b[a-z]+(_[a-z]+)+\b/, // reason and class codes: all_conditions_hold, wrong_amount
  /gid:\/\//,
];
/** Shopify's internal ids are 13 digits or more; order names and amounts are short. */
const INTERNAL_ID = /\d{13 }/;

let demo: BrowserDemo["demo"];
let browser: BrowserDemo["browser"];
let db: BrowserDemo["db"];
let stop: BrowserDemo["stop"] | undefined;

beforeAll(async () => {
  // Some refunds are still being checked (within Shopify's stale-read window): their rows must read the same way.
  ({ demo, browser, db, stop } = await startBrowserDemo({ shop: SHOP, historyCount: 20 }, "due"));
});

afterAll(async () => stop?.());

/** What a person can read on the page, "Technical details" (and its hidden content) left out. */
async function merchantText(frame: Page | Frame): Promise<string> {
  await frame.waitForLoadState("networkidle");
  return frame.evaluate(() => {
    const main = document.querySelector("main")!.cloneNode(true) as HTMLElement;
    main.querySelector("#technical-details")?.closest(".Polaris-ShadowBevel, [class*='Card']")?.remove();
    main.querySelector("#technical-details")?.remove();
    return `${document.title}\n${main.innerText || main.textContent || ""}`;
  });
}

/** Fails naming the word found and the words around it. */
function expectMerchantWords(where: string, text: string) {
  for (const word of [...ENGINE_WORDS, INTERNAL_ID]) {
    const found = word.exec(text);
    const around = found ? text.slice(Math.max(0, found.index - 60), found.index + found[0].length + 60).replace(/\s+/g, " ") : "";
    expect(found?.[0], `${where}: «${around}»`).toBeUndefined();
  }
}

describe("an order is its name, and a merchant reads a merchant's words (1280 and 390 px)", () => {
  it("the dashboard: every row names its order #1234, whatever its verdict or whether it is still being checked", async () => {
    const unnamedBefore = await db.operation.count({ where: { shop: SHOP } });
    expect(unnamedBefore).toBeGreaterThan(10);
    for (const width of WIDTHS) {
      const { page, frame } = await openApp(browser, demo, "?range=all", width);
      await frame.waitForSelector("[data-refund-link]");
      const orders = await frame.locator("[data-refund-link]").allInnerTexts();
      expect(orders.length).toBeGreaterThan(5);
      for (const order of orders) expect(order.trim()).toMatch(/^#\d+$/);
      expectMerchantWords(`dashboard at ${width} px`, await merchantText(frame));
      await page.screenshot({ path: `${SCREENS}/names-dashboard-${width}.png`, fullPage: true });
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await page.context().close();
    }
  });

  it("the review queue: each item's heading is its order's name, its sentence in words", async () => {
    for (const width of WIDTHS) {
      const { page, frame } = await openApp(browser, demo, "/review", width);
      await frame.waitForSelector("[data-review-item]");
      const headings = await frame.locator("[data-review-item] a").first().innerText();
      expect(headings.trim()).toMatch(/^#\d+$/);
      expectMerchantWords(`review queue at ${width} px`, await merchantText(frame));
      await page.screenshot({ path: `${SCREENS}/names-review-${width}.png`, fullPage: true });
      await page.context().close();
    }
  });

  it("a refund's evidence of every kind the demo makes: its title, heading and sentences name orders by name, in a merchant's words", async () => {
    const operations = await db.operation.findMany({ where: { shop: SHOP }, orderBy: { startedAt: "asc" } });
    // One refund of each verdict and class (a wrong order, a duplicate, a wrong amount, a gateway failure, verified, still checked).
    const kinds = new Map<string, (typeof operations)[number]>();
    for (const op of operations) {
      const classes = (JSON.parse(op.classes) as string[]).join("+");
      const kind = classes ? `${op.status}-${classes}` : op.status;
      if (!kinds.has(kind)) kinds.set(kind, op);
    }
    expect(kinds.size).toBeGreaterThanOrEqual(4);
    for (const [kind, op] of kinds) {
      for (const width of WIDTHS) {
        const { page, frame } = await openApp(browser, demo, `/refunds/${op.id}`, width);
        await frame.waitForSelector("[data-evidence-lead]");
        expect(await frame.title(), kind).toMatch(/^Refund on #\d+ · Refund Verifier$/);
        expect((await frame.locator("h1").innerText()).trim(), kind).toMatch(/^Refund on #\d+$/);
        expectMerchantWords(`evidence ${kind} at ${width} px`, await merchantText(frame));
        await page.screenshot({ path: `${SCREENS}/names-evidence-${kind}-${width}.png`, fullPage: true });
        await page.context().close();
      }
    }
  });
});
