import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREENS, askOverTheLimit, openApp, startBrowserDemo, type BrowserDemo } from "../support/demo";
import { CHROME_UA, PHONE_UA } from "../support/embedded";
import { untilHydrated } from "../support/chromium";

// Issue 30, fast on a merchant's phone: the page the server sends is the page the phone keeps. A
// phone gets its condensed list from the server; every screen hydrates without React throwing the
// server's HTML away (which costs a phone seconds of rendering the whole page again); and nothing
// on a screen moves by more than Built for Shopify's layout-shift limit (0.1) once it has loaded.

const SHOP = "phone-demo.myshopify.com";
const WIDTHS = [1280, 390] as const;
/** Built for Shopify's limit for cumulative layout shift (p75 of real visits). */
const CLS_LIMIT = 0.1;

let demo: BrowserDemo["demo"];
let browser: BrowserDemo["browser"];
let db: BrowserDemo["db"];
let stop: BrowserDemo["stop"] | undefined;

beforeAll(async () => {
  ({ demo, browser, db, stop } = await startBrowserDemo({ shop: SHOP, historyCount: 40 }));
});

afterAll(async () => stop?.());

/** Every screen a merchant opens: its name and its path in the app. */
async function screens(): Promise<[string, string][]> {
  const contradicted = await db.operation.findFirstOrThrow({ where: { shop: SHOP, status: "CONTRADICTED" }, orderBy: { startedAt: "asc" } });
  const neverRefunded = demo.shopify.shop(SHOP).createOrder({ amount: "30.00" });
  return [
    ["dashboard", ""],
    ["evidence", `/refunds/${contradicted.id}`],
    ["review queue", "/review"],
    ["refund form", `/orders/${neverRefunded.id}/refund`],
    ["alert settings", "/settings/alerts"],
    ["refund limits", "/settings/limits"],
    ["refund request", `/approvals/${await waitingRequest()}`],
  ];
}

/** A refund over the shop's limit waiting for approval, once. */
const waitingRequest = () => (asked ??= askOverTheLimit(demo, db, SHOP));
let asked: Promise<string> | undefined;

/** The HTML the server sends for `path` to a phone or a desktop browser, as a page with no JavaScript shows it. */
async function serverPage(path: string, device: "phone" | "desktop"): Promise<Page> {
  const admin = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: CHROME_UA })).newPage();
  await admin.goto(`${demo.adminUrl}${path}`);
  const src = (await admin.locator("#app-frame").getAttribute("src"))!;
  await admin.context().close();
  const page = await (
    await browser.newContext(
      device === "phone"
        ? { viewport: { width: 390, height: 844 }, userAgent: PHONE_UA, isMobile: true, javaScriptEnabled: false }
        : { viewport: { width: 1280, height: 900 }, userAgent: CHROME_UA, javaScriptEnabled: false },
    )
  ).newPage();
  await page.goto(src);
  return page;
}

/** React's words when it could not hydrate the server's HTML (production builds give only the error's number). */
const HYDRATION_FAILED = /Hydration failed|did not match|Expected server HTML|Minified React error #(418|419|422|423|425)\b/;
/** The one difference the server makes on purpose: Remix's preload links made inert (app/lib/http/scripts-after-paint.server.ts). */
const INERT_PRELOAD = /rel "x-after-first-paint" "modulepreload"/;
const hydrationFailed = (text: string) => HYDRATION_FAILED.test(text) && !INERT_PRELOAD.test(text);

describe("on a phone, the page the server sends is the page the phone keeps", () => {
  it("a phone gets the dashboard's condensed list from the server; a desktop gets the table", async () => {
    const phone = await serverPage("", "phone");
    expect(await phone.locator("[data-condensed-row]").count()).toBeGreaterThan(5);
    expect(await phone.locator("tbody tr").count()).toBe(0);
    await phone.context().close();
    const desktop = await serverPage("", "desktop");
    expect(await desktop.locator("tbody tr").count()).toBeGreaterThan(5);
    expect(await desktop.locator("[data-condensed-row]").count()).toBe(0);
    await desktop.context().close();
  });

  it("a phone keeps its own system font and asks for no web font; a desktop preloads Inter beside the stylesheet", async () => {
    const fontsOf = (page: Page) =>
      page.evaluate(() => ({
        preloaded: [...document.querySelectorAll('link[rel="preload"][as="font"]')].map((link) => link.getAttribute("href")),
        faces: [...document.querySelectorAll("style")].filter((style) => style.textContent?.includes("@font-face")).length,
      }));
    const phone = await serverPage("", "phone");
    expect(await fontsOf(phone)).toEqual({ preloaded: [], faces: 0 });
    await phone.context().close();
    const desktop = await serverPage("", "desktop");
    const wide = await fontsOf(desktop);
    expect(wide.preloaded).toEqual([expect.stringMatching(/\/assets\/inter-latin-wght-normal-.*\.woff2$/)]);
    expect(wide.faces).toBe(1);
    await desktop.context().close();
  });

  it("a phone hydrates only what it can interact with: the dashboard's rows and the review queue's items stay as the server wrote them, and their links still open pages in the app without a reload", async () => {
    /** How many elements inside `selector` React built or adopted node by node (each such element carries React's fiber). */
    const builtByReact = (page: Page, selector: string) =>
      page.evaluate((selector) => {
        const inside = [...document.querySelectorAll(selector)].flatMap((part) => [...part.querySelectorAll("*")]);
        return { elements: inside.length, built: inside.filter((element) => Object.keys(element).some((key) => key.startsWith("__reactFiber"))).length };
      }, selector);
    const { page } = await openApp(browser, demo, "", 390);
    await untilHydrated(page);
    const rows = await builtByReact(page, "[data-condensed-row]");
    expect(rows.elements, "the dashboard's rows have content").toBeGreaterThan(100);
    expect(rows.built, "elements of the dashboard's rows that hydration built").toBe(0);
    // A link inside still opens its page within the app: no new document (the mark on the window survives).
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const first = page.locator("[data-condensed-row] [data-refund-link] a").first();
    const id = await page.locator("[data-condensed-row]").first().getAttribute("data-condensed-row");
    await first.click();
    await page.waitForURL(new RegExp(`/app/refunds/${id}`));
    await page.locator("[data-evidence-lead]").waitFor();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await page.context().close();

    const queue = await openApp(browser, demo, "/review", 390);
    await untilHydrated(queue.page);
    const items = await builtByReact(queue.page, "[data-review-item] [data-server-rendered]");
    expect(items.elements, "the queue's items have content").toBeGreaterThan(50);
    expect(items.built, "elements of the queue's items that hydration built").toBe(0);
    // The resolve form beside them is React's: it works at once.
    expect((await builtByReact(queue.page, "[data-review-item] form")).built).toBeGreaterThan(0);
    await queue.page.context().close();
  });

  it("a page React cannot hydrate (an extension changed its text first) is rendered again by React with every row and item still shown", async () => {
    // As a translation or grammar extension does: the page's title is changed before the scripts run, so hydration fails and React renders the page anew.
    const changeTitleFirst = async (page: Page) => {
      await page.addInitScript(() =>
        document.addEventListener("DOMContentLoaded", () => {
          const title = document.querySelector("h1");
          if (title) title.textContent = `${title.textContent} (changed)`;
        }),
      );
    };
    for (const [path, part] of [
      ["", "[data-condensed-row]"],
      ["/review", "[data-review-item] [data-server-rendered]"],
    ] as const) {
      const { page } = await openApp(browser, demo, path, 390, changeTitleFirst);
      await untilHydrated(page);
      // React gave up on the server's page: its title is the app's again.
      await expect.poll(() => page.locator("h1").first().innerText()).not.toContain("(changed)");
      const texts = await page.locator(part).allInnerTexts();
      expect(texts.length, `${path || "/"}: parts`).toBeGreaterThan(0);
      expect(
        texts.filter((text) => !text.trim()),
        `${path || "/"}: parts left empty`,
      ).toEqual([]);
      await page.context().close();
    }
  });

  it("every screen's scripts start downloading once its first contentful paint is on the screen: they do not share a phone's network with what it paints", async () => {
    for (const [name, path] of await screens()) {
      const { page, frame } = await openApp(browser, demo, path, 390);
      await untilHydrated(page);
      const { stylesheetAt, contentfulPaintAt, scriptsFrom } = await frame.evaluate(() => {
        const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
        return {
          stylesheetAt: Math.max(...resources.filter((entry) => /\/assets\/polaris-.*\.css$/.test(entry.name)).map((entry) => entry.responseEnd)),
          contentfulPaintAt: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
          scriptsFrom: Math.min(...resources.filter((entry) => /\/assets\/.*\.js$/.test(entry.name)).map((entry) => entry.startTime)),
        };
      });
      expect(stylesheetAt, `${name}: Polaris's stylesheet was loaded`).toBeGreaterThan(0);
      expect(contentfulPaintAt, `${name}: the browser reported the first contentful paint`).toBeGreaterThan(0);
      const when = `the first script started at ${Math.round(scriptsFrom)} ms, the stylesheet arrived at ${Math.round(stylesheetAt)} ms, the first contentful paint at ${Math.round(contentfulPaintAt)} ms`;
      expect(scriptsFrom, `${name}: ${when}`).toBeGreaterThanOrEqual(Math.max(stylesheetAt, contentfulPaintAt));
      await page.context().close();
    }
  });

  it("every screen hydrates what the server sent and asks for nothing that fails offline, at 1280 px in the admin and at 390 px on a phone", async () => {
    for (const [name, path] of await screens()) {
      for (const width of WIDTHS) {
        const failures: string[] = [];
        const failedRequests: string[] = [];
        const { page, frame } = await openApp(browser, demo, path, width, async (page) => {
          page.on("requestfailed", (request) => failedRequests.push(`${request.url()} (${request.failure()?.errorText})`));
          page.on("console", (message) => {
            if (message.type() === "error" && hydrationFailed(message.text())) failures.push(message.text().slice(0, 200));
          });
          page.on("pageerror", (error) => {
            if (hydrationFailed(error.message)) failures.push(error.message.slice(0, 200));
          });
        });
        await frame.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
        await frame.waitForLoadState("networkidle");
        expect(failures, `${name} at ${width} px`).toEqual([]);
        // The demo is offline: Shopify's CDN (App Bridge, the Inter font) is out of reach, and what the page needs is served locally.
        expect(failedRequests, `${name} at ${width} px`).toEqual([]);
        await page.context().close();
      }
    }
  });

  it("no screen moves by more than 0.1 once loaded, at 1280 px and on a phone at 4x CPU", async () => {
    for (const [name, path] of await screens()) {
      for (const width of WIDTHS) {
        const { page, frame } = await openApp(browser, demo, path, width, async (page) => {
          // Every frame records its layout shifts from its first paint (a shift right after a person's input does not count).
          await page.addInitScript(() => {
            const record = window as unknown as { __shifts: { total: number; lastAt: number } };
            record.__shifts = { total: 0, lastAt: 0 };
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; startTime: number }[]) {
                if (entry.hadRecentInput) continue;
                record.__shifts.total += entry.value;
                record.__shifts.lastAt = entry.startTime;
              }
            }).observe({ type: "layout-shift", buffered: true });
          });
          if (width === 390) await (await page.context().newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: 4 });
        });
        await frame.waitForFunction(() => document.documentElement.dataset.hydrated === "true", undefined, { timeout: 60_000 });
        await frame.waitForLoadState("networkidle");
        // Measured once the page is still: nothing has moved for a second since it loaded (what arrives late has arrived).
        await frame.waitForFunction(() => performance.now() - (window as unknown as { __shifts: { lastAt: number } }).__shifts.lastAt > 1_000, undefined, {
          timeout: 60_000,
        });
        const shifted = await frame.evaluate(() => (window as unknown as { __shifts: { total: number } }).__shifts.total);
        if (width === 390) await page.screenshot({ path: `${SCREENS}/phone-${name.replace(/ /g, "-")}.png` });
        expect(shifted, `${name} at ${width} px`).toBeLessThanOrEqual(CLS_LIMIT);
        await page.context().close();
      }
    }
  });
});
