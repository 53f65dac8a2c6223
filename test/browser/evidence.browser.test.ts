import { type FrameLocator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { untilHydrated } from "../support/chromium";
import { SCREENS, startBrowserDemo, type BrowserDemo } from "../support/demo";
import type { Prisma } from "@prisma/client";
import { CHROME_UA, dataPath, embeddedFetch } from "../support/embedded";
import { seriousAccessibilityViolations } from "../support/axe";
import { money } from "../../app/verdicts/words";
import { PAYMENTS_SCOPES } from "../../app/shops/payments-scopes";

const SHOP = "evidence-demo.myshopify.com";

let demo: BrowserDemo["demo"];
let browser: BrowserDemo["browser"];
let db: BrowserDemo["db"];
let stop: BrowserDemo["stop"] | undefined;

beforeAll(async () => {
  ({ demo, browser, db, stop } = await startBrowserDemo({ shop: SHOP, historyCount: 40 }));
});

afterAll(async () => stop?.());

async function operation(where: Prisma.OperationWhereInput) {
  return db.operation.findFirstOrThrow({ where: { shop: SHOP, ...where }, orderBy: { startedAt: "asc" } });
}

/** The evidence page inside the simulated admin, 1280 px wide. */
async function openInAdmin(id: string): Promise<{ page: Page; app: FrameLocator }> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: CHROME_UA })).newPage();
  await page.goto(`${demo.adminUrl}/refunds/${id}`);
  const app = page.frameLocator("#app-frame");
  await app.getByText("What the verdict means").waitFor();
  await styled(app);
  await untilHydrated(page);
  return { page, app };
}

/**
 * The evidence page 390 px wide, as Shopify's mobile admin shows an embedded app (full width, no
 * sidebar): the app frame's own address, opened on its own.
 */
async function openOnPhone(id: string): Promise<Page> {
  const admin = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: CHROME_UA })).newPage();
  await admin.goto(`${demo.adminUrl}/refunds/${id}`);
  const src = (await admin.locator("#app-frame").getAttribute("src"))!;
  await admin.context().close();
  const page = await (
    await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: CHROME_UA, deviceScaleFactor: 2, isMobile: true, hasTouch: true })
  ).newPage();
  await page.goto(src);
  await page.getByText("What the verdict means").waitFor();
  await styled(page);
  await untilHydrated(page);
  return page;
}

/** Polaris's stylesheet applied (a rebuild of build/ under a running demo would leave the page unstyled). */
async function styled(app: FrameLocator | Page) {
  await expect
    .poll(() => app.locator("[data-evidence-lead] p").evaluate((el) => parseFloat(getComputedStyle(el).fontSize)), {
      message: "Polaris styles did not load",
    })
    .toBeGreaterThan(18);
}

/** The whole page at 1280 px: the admin's frame grown to the app's full height. */
async function screenshotInAdmin(page: Page, path: string) {
  const frame = page.frames().find((f) => f.url().includes("/app/"))!;
  const height = await frame.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1280, height: Math.max(900, height + 80) });
  await page.screenshot({ path, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function leadOf(app: FrameLocator | Page) {
  return ((await app.locator("[data-evidence-lead]").textContent()) ?? "").trim();
}

/** Both widths: the lead sentence, screenshots, no serious accessibility violation, nothing wider than the phone. */
async function check(name: string, id: string, expectLead: (lead: string) => void) {
  const { page, app } = await openInAdmin(id);
  const lead = await leadOf(app);
  expectLead(lead);
  await screenshotInAdmin(page, `${SCREENS}/evidence-${name}-1280.png`);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.context().close();

  const phone = await openOnPhone(id);
  expect(await leadOf(phone)).toBe(lead);
  await phone.screenshot({ path: `${SCREENS}/evidence-${name}-390.png`, fullPage: true });
  expect(await seriousAccessibilityViolations(phone)).toEqual([]);
  // Nothing sticks out sideways: the condition table scrolls in its own container.
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await phone.context().close();
  console.log(`evidence ${name}: ${lead}`);
  return lead;
}

/**
 * Whether the conditions are wider than the box that holds them, and whether the caption saying
 * they scroll sideways shows then (a table cut at the card's edge with no sign was issue 26's).
 */
async function conditionsOverflow(scope: FrameLocator | Page) {
  const region = scope.locator('[role="region"][aria-label^="Conditions"]');
  const overflows = await region.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  const caption = scope.getByText("Scroll sideways for more");
  const captionShown = (await caption.count()) > 0 && (await caption.first().isVisible());
  return { overflows, captionShown };
}

describe("the evidence page leads with a sentence in the merchant's words", () => {
  it("wrong amount: both amounts and the difference, with currencies", async () => {
    const op = await operation({ status: "CONTRADICTED", reason: "refund_amount_mismatch" });
    await check("contradicted", op.id, (lead) =>
      expect(lead).toMatch(/^Shopify recorded \$[\d,]+\.\d\d; the refund asked for \$[\d,]+\.\d\d \(\$5\.00 more\)\.$/),
    );
  });

  it("duplicate: the refund it repeats, how long before, linked to its evidence", async () => {
    const op = await operation({ status: "CONTRADICTED", reason: "duplicate_refund_present" });
    const others = await db.operation.findMany({ where: { shop: SHOP, orderGid: op.orderGid, id: { not: op.id } } });
    expect(others.length).toBeGreaterThan(0);
    await check("duplicate", op.id, (lead) =>
      // The order by its name once a read-back has told it, else by its number (as the page words it).
      expect(lead).toMatch(
        new RegExp(
          `^This refund of (\\$[\\d,]+\\.\\d\\d) was made (in the same second as|\\d+ (seconds?|minutes?) after) another refund of \\1 on ${op.orderName ?? `order ${op.orderGid.split("/").pop()}`}\\. Shopify holds both\\.$`,
        ),
      ),
    );
    const { page, app } = await openInAdmin(op.id);
    const linked = others.filter((other) => other.amount === op.amount);
    expect(linked.length).toBeGreaterThan(0);
    for (const other of linked) expect(await app.locator(`a[href*="/app/refunds/${other.id}"]`).count()).toBe(1);
    await app.locator(`a[href*="/app/refunds/${linked[0].id}"]`).click();
    await app.getByText(linked[0].refundGid).first().waitFor({ state: "attached" });
    await page.context().close();
  });

  it("wrong order: the other order, linked", async () => {
    const op = await operation({ status: "CONTRADICTED", reason: "refund_on_wrong_order" });
    await check("wrong-order", op.id, (lead) => expect(lead).toMatch(/^Shopify recorded this refund on #\d+, not on #\d+, the order it was for\.$/));
    const { page, app } = await openInAdmin(op.id);
    expect(await app.locator('a[href^="shopify://admin/orders/"]').count()).toBeGreaterThanOrEqual(2);
    await page.context().close();
  });

  it("gateway failure: the gateway, its error in words, the next step", async () => {
    const op = await operation({ status: "FAILED" });
    await check("failed", op.id, (lead) => expect(lead).toBe(`The refund of $${op.amount} failed at Shopify Payments: the card was declined.`));
    const { page, app } = await openInAdmin(op.id);
    expect(await app.getByText("Next step:").count()).toBe(1);
    await page.context().close();
  });

  it("verified and unverifiable: the dashboard's plain words", async () => {
    const verified = await operation({ status: "VERIFIED", currency: "USD" });
    await check("verified", verified.id, (lead) => expect(lead).toBe("Shopify recorded this refund as asked, and told the app about it."));
    const unverifiable = await operation({ status: "UNVERIFIABLE" });
    await check("unverifiable", unverifiable.id, (lead) => expect(lead).toBe("Shopify showed no evidence of this refund within 7 days. Check the order."));
  });
});

describe("technical details, times and the review form", () => {
  it("the condition table is behind a disclosure; ids never break; one time format in the shop's time zone", async () => {
    const op = await operation({ status: "CONTRADICTED", reason: "refund_amount_mismatch" });
    const { page, app } = await openInAdmin(op.id);
    const toggle = app.getByRole("button", { name: "Technical details" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    const controls = (await toggle.getAttribute("aria-controls"))!;
    expect(await app.locator(`tr[data-condition="refund_amount_mismatch"]`).count()).toBe(1);
    expect(await app.locator(`tr[data-condition="refund_amount_mismatch"]`).isVisible()).toBe(false);
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    await app.locator(`#${controls} tr[data-condition="refund_amount_mismatch"]`).waitFor({ state: "visible" });
    expect(await app.getByText(op.refundGid).first().isVisible()).toBe(true);
    // A global id or a path is one line, never broken mid-string.
    const broken = await app.locator(`#${controls}`).evaluate((root) =>
      [...root.querySelectorAll("code, span")]
        .filter((el) => /gid:\/\/|\$observed|\$input|\$action/.test(el.textContent ?? "") && el.children.length === 0)
        .filter((el) => el.getClientRects().length > 1)
        .map((el) => el.textContent),
    );
    expect(broken).toEqual([]);
    await screenshotInAdmin(page, `${SCREENS}/evidence-technical-1280.png`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // Every instant: the shop's zone (the demo shop is in America/New_York), the UTC instant on hover.
    const times = await app.locator("time").evaluateAll((els) => els.map((el) => ({ text: el.textContent ?? "", title: el.getAttribute("title") ?? "" })));
    expect(times.length).toBeGreaterThan(3);
    for (const t of times) {
      expect(t.text).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d\s[AP]M E[SD]T$/);
      expect(t.title).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    }
    expect(await app.getByText(/answered by Admin API 2026-10/).count()).toBeGreaterThan(0);
    await page.context().close();

    const phone = await openOnPhone(op.id);
    await phone.getByRole("button", { name: "Technical details" }).click();
    await phone.locator('tr[data-condition="refund_amount_mismatch"]').waitFor({ state: "visible" });
    await phone.screenshot({ path: `${SCREENS}/evidence-technical-390.png`, fullPage: true });
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousAccessibilityViolations(phone)).toEqual([]);
    await phone.context().close();
  });

  it("the condition table fits its card at 1280 px; where it cannot (a phone), it says it scrolls sideways and fades at the cut edge", async () => {
    const op = await operation({ status: "CONTRADICTED", reason: "refund_amount_mismatch" });
    const { page, app } = await openInAdmin(op.id);
    await app.getByRole("button", { name: "Technical details" }).click();
    await app.locator('tr[data-condition="refund_amount_mismatch"]').waitFor({ state: "visible" });
    await app.locator('tr[data-condition="refund_amount_mismatch"]').scrollIntoViewIfNeeded();
    expect(await conditionsOverflow(app)).toEqual({ overflows: false, captionShown: false });
    await page.screenshot({ path: `${SCREENS}/evidence-conditions-1280.png` });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.context().close();

    const phone = await openOnPhone(op.id);
    await phone.getByRole("button", { name: "Technical details" }).click();
    await phone.locator('tr[data-condition="refund_amount_mismatch"]').waitFor({ state: "visible" });
    await phone.locator('tr[data-condition="refund_amount_mismatch"]').scrollIntoViewIfNeeded();
    const onPhone = await conditionsOverflow(phone);
    // Whatever does not fit a phone is said to scroll: never cut off without a sign.
    if (onPhone.overflows) expect(onPhone).toEqual({ overflows: true, captionShown: true });
    // The prose wraps within the width one sees: only paths run on past it.
    const meaning = phone.locator('tr[data-condition="refund_amount_mismatch"]').getByText("The provider recorded a different refund amount.");
    expect(await meaning.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(390);
    await phone.getByText("Conditions", { exact: true }).scrollIntoViewIfNeeded();
    await phone.screenshot({ path: `${SCREENS}/evidence-conditions-390.png` });
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousAccessibilityViolations(phone)).toEqual([]);
    await phone.context().close();
    console.log(`conditions on a phone: ${onPhone.overflows ? "scroll sideways, said so" : "fit"}`);
  });

  it("a resolve that lost the race keeps what the person typed, beside the winner's note (1280 and 390 px)", async () => {
    const open = await db.operation.findMany({ where: { shop: SHOP, reviewState: "open" }, orderBy: { startedAt: "asc" }, take: 2 });
    expect(open).toHaveLength(2);
    for (const [i, op] of open.entries()) {
      const page = i === 0 ? (await openInAdmin(op.id)).page : await openOnPhone(op.id);
      const app = i === 0 ? page.frameLocator("#app-frame") : page;
      // Someone else resolves it in their own tab while this page is open.
      const other = embeddedFetch(demo.appUrl, SHOP, "404");
      const won = await other(dataPath(`/app/refunds/${op.id}`, "routes/app.refunds.$id"), {
        method: "POST",
        body: new URLSearchParams({ intent: "resolve", revision: String(op.revision), note: "Refunded the customer by hand" }),
      });
      expect(won.status).toBe(200);
      const mine = "Checked the order: the customer was refunded once.";
      await app.getByLabel("Resolution note").fill(mine);
      await app.getByRole("button", { name: "Resolve" }).click();
      await app.getByText("resolved it first").waitFor();
      await app.getByText("Their note: “Refunded the customer by hand”").waitFor();
      expect(await app.getByLabel("Your note (not saved)").inputValue()).toBe(mine);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SCREENS}/evidence-lost-race-${i === 0 ? 1280 : 390}.png`, fullPage: true });
      await page.context().close();
    }
  });

  it("malformed form input is a field error, never a 500", async () => {
    const op = await operation({ status: "FAILED", reviewState: "open" });
    const asShop = embeddedFetch(demo.appUrl, SHOP, "77");
    const post = (fields: Record<string, string>) =>
      asShop(dataPath(`/app/refunds/${op.id}`, "routes/app.refunds.$id"), { method: "POST", body: new URLSearchParams(fields) });
    const bad = await post({ intent: "resolve", revision: "not-a-number", note: "Checked the order" });
    expect(bad.status).toBe(422);
    expect((await bad.json()).fieldErrors.revision).toMatch(/out of date/);
    expect((await post({ intent: "resolve", revision: "99999999999999999999", note: "x" })).status).toBe(422);
    expect((await post({ intent: "explode" })).status).toBe(422);
    expect((await post({ intent: "resolve", revision: String(op.revision), note: "   " })).status).toBe(422);
    expect((await db.operation.findUniqueOrThrow({ where: { id: op.id } })).reviewState).toBe("open");

    // In the page: resolving without a note says so at the field.
    const { page, app } = await openInAdmin(op.id);
    await app.getByRole("button", { name: "Resolve" }).click();
    await app.getByText("Write a note that says how this refund was resolved.").first().waitFor();
    expect(await app.getByLabel("Resolution note").getAttribute("aria-invalid")).toBe("true");
    await page.context().close();
  });
});

describe("the Money section (issue 28)", () => {
  it("a settled refund: the payout, the day it was sent, the card reference and the customer's sentence, each to copy, read whole at 390 px", async () => {
    // The demo's worker opens a settlement for each refund verified through Shopify Payments and
    // reads it within minutes. One of them is given the facts of a paid payout with a card
    // reference, its claim voided and its revision moved, so that no read of the worker's in
    // flight writes over it, and never due again.
    const followed = () =>
      db.settlement.findFirst({
        where: { shop: SHOP, status: { in: ["PENDING", "VERIFIED"] }, operation: { currency: "USD" } },
        orderBy: { startedAt: "asc" },
      });
    await expect.poll(async () => Boolean(await followed()), { message: "the demo opened no settlement", timeout: 90_000 }).toBe(true);
    const settlement = (await followed())!;
    const arn = "74455016335123456789016";
    const processedAt = new Date(settlement.startedAt.getTime() - 60_000);
    const updated = await db.settlement.updateMany({
      where: { id: settlement.id },
      data: {
        status: "VERIFIED",
        money: "paid",
        payoutStatus: "PAID",
        payoutGid: "gid://shopify/ShopifyPaymentsPayout/9007199254740993",
        arn,
        processedAt,
        decidedAt: new Date(),
        nextDueAt: null,
        claimedBy: null,
        claimedUntil: null,
        revision: { increment: 1 },
      },
    });
    expect(updated.count).toBe(1);
    const op = await db.operation.findUniqueOrThrow({ where: { id: settlement.operationId } });

    const phone = await openOnPhone(op.id);
    await phone.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(phone.url()).origin });
    const section = phone.locator("[data-money-section]");
    await section.getByText("Settled", { exact: true }).waitFor();
    expect(await section.getByText("Paid", { exact: true }).count()).toBe(1);
    // The day it was sent, as every time on the page: the shop's zone, the UTC instant on hover.
    expect(await section.locator("time").textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d\s[AP]M E[SD]T$/);
    const sentence = ((await section.locator("[data-customer-sentence]").textContent()) ?? "").trim();
    expect(sentence.startsWith(`Your refund of ${money(op.amount, op.currency)} was sent to your card on `)).toBe(true);
    expect(sentence).toMatch(new RegExp(`on \\d{1,2} [A-Z][a-z]{2}; your bank can trace it with reference ${arn}\\.$`));
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: `${SCREENS}/evidence-money-390.png` });
    // Everything inside the phone's width: the reference and the sentence wrap, nothing sticks out.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await section.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(390);
    expect(await seriousAccessibilityViolations(phone)).toEqual([]);

    const copyReference = section.getByRole("button", { name: `Copy card reference ${arn}` });
    await copyReference.click();
    await section.getByRole("button", { name: "Copied" }).waitFor();
    expect(await phone.evaluate(() => navigator.clipboard.readText())).toBe(arn);
    await section.getByRole("button", { name: "Copy sentence for the customer" }).click();
    await expect.poll(() => phone.evaluate(() => navigator.clipboard.readText())).toBe(sentence);
    await phone.context().close();

    const { page, app } = await openInAdmin(op.id);
    await app.locator("[data-money-section]").getByText("Settled", { exact: true }).waitFor();
    await screenshotInAdmin(page, `${SCREENS}/evidence-money-1280.png`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.context().close();
  });

  it("a shop without the payments scopes: a button asks Shopify for them and says the answer; gone once they are granted", async () => {
    // The demo's merchant granted the scopes: its offline session is made to lack them for this
    // check (the app reads them from there), and a verified refund is left without its settlement,
    // as a refund of a shop that never granted them has none.
    const session = await db.session.findFirstOrThrow({ where: { shop: SHOP, isOnline: false } });
    const granted = session.scope ?? "";
    const withoutPayments = granted
      .split(",")
      .filter((s) => !s.includes("shopify_payments"))
      .join(",");
    // Any verified refund: by now the demo has usually settled them all (its payouts are paid within minutes).
    const op = await operation({ status: "VERIFIED" });
    await db.session.update({ where: { id: session.id }, data: { scope: withoutPayments } });
    try {
      await db.settlement.deleteMany({ where: { operationId: op.id } });

      const button = (page: Page) => page.locator("[data-money-section]").getByRole("button", { name: "Allow reading payouts" });
      const outcome = (page: Page) => page.locator("[data-money-section] [data-grant-outcome]");

      // The demo's App Bridge stand-in answers as a merchant who declines.
      const phone = await openOnPhone(op.id);
      const section = phone.locator("[data-money-section]");
      await section.getByText("The app may not read your Shopify Payments payouts.", { exact: false }).waitFor();
      await button(phone).waitFor();
      await section.scrollIntoViewIfNeeded();
      await section.screenshot({ path: `${SCREENS}/evidence-money-not-granted-390.png` });
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await section.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(390);
      expect(await seriousAccessibilityViolations(phone)).toEqual([]);
      await button(phone).click();
      await expect.poll(async () => ((await outcome(phone).textContent()) ?? "").trim()).toBe("Not granted: the Money section stays as it is.");
      expect(await button(phone).count()).toBe(0);
      await section.screenshot({ path: `${SCREENS}/evidence-money-declined-390.png` });
      await phone.context().close();

      // Shopify's modal open: the button waits (busy, a second click asks nothing), then the grant.
      const asking = await openOnPhone(op.id);
      await asking.evaluate(() => {
        const w = window as unknown as { shopify: { scopes?: unknown }; rvAsked: string[][]; rvAnswer?: (answer: unknown) => void };
        w.rvAsked = [];
        w.shopify.scopes = {
          request: (scopes: string[]) => {
            w.rvAsked.push(scopes);
            return new Promise((resolve) => (w.rvAnswer = resolve));
          },
        };
      });
      const handle = await button(asking).elementHandle();
      await button(asking).click();
      await asking.locator('[data-money-section] button[aria-busy="true"]').waitFor();
      await asking.locator("[data-money-section]").screenshot({ path: `${SCREENS}/evidence-money-asking-390.png` });
      await handle!.click({ force: true });
      expect(await asking.evaluate(() => (window as unknown as { rvAsked: string[][] }).rvAsked)).toEqual([[...PAYMENTS_SCOPES]]);
      await asking.evaluate(() => (window as unknown as { rvAnswer: (answer: unknown) => void }).rvAnswer({ result: "granted-all" }));
      await expect
        .poll(async () => ((await outcome(asking).textContent()) ?? "").trim())
        .toBe("Granted: the app starts following this refund's money within a minute.");
      expect(await button(asking).count()).toBe(0);
      await asking.context().close();

      // An App Bridge without the Scopes API: where to grant them, not a blank.
      const older = await openOnPhone(op.id);
      await older.evaluate(() => delete (window as unknown as { shopify: { scopes?: unknown } }).shopify.scopes);
      await button(older).click();
      await expect.poll(async () => ((await outcome(older).textContent()) ?? "").trim()).toBe("Grant it in Shopify admin: Settings › Apps › Refund Verifier.");
      await older.context().close();
    } finally {
      await db.session.update({ where: { id: session.id }, data: { scope: granted } });
    }

    // Granted (as app/scopes_update records it): no button.
    const { page, app } = await openInAdmin(op.id);
    await app.locator("[data-money-section]").waitFor();
    expect(await app.locator("[data-money-section]").getByRole("button", { name: "Allow reading payouts" }).count()).toBe(0);
    expect(await app.getByText("The app may not read your Shopify Payments payouts.", { exact: false }).count()).toBe(0);
    await page.context().close();
  });
});
