import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAmount } from "../../app/lib/money/typed-amount";
import { parseRefundAction, refundAmountSchema, refundFormPath, safeBackPath, splitOverSources, overRefundMessage } from "../../app/refunds/form";
import { dataPath, embeddedFetch } from "../support/embedded";
import { startVerificationHarness, type VerificationHarness } from "../support/verification";

describe("the amount a person types", () => {
  it("takes the currency's decimals: USD 2, JPY 0, KWD 3", () => {
    expect(parseAmount("10.005", "USD")).toEqual({ ok: false, message: "USD amounts have at most 2 decimals." });
    expect(parseAmount("10.00", "USD")).toEqual({ ok: true, amount: "10.00", minor: 1000n });
    expect(parseAmount("1200", "JPY")).toEqual({ ok: true, amount: "1200", minor: 1200n });
    expect(parseAmount("1200.5", "JPY")).toEqual({ ok: false, message: "JPY amounts have no decimals." });
    expect(parseAmount("1.005", "KWD")).toEqual({ ok: true, amount: "1.005", minor: 1005n });
    expect(parseAmount("1.0005", "KWD")).toEqual({ ok: false, message: "KWD amounts have at most 3 decimals." });
    expect(parseAmount(" 7.5 ", "EUR")).toEqual({ ok: true, amount: "7.50", minor: 750n });
    expect(parseAmount(".5", "USD")).toEqual({ ok: true, amount: "0.50", minor: 50n });
  });

  it("takes a comma as the decimal separator when that is unambiguous, and explains when it is not", () => {
    expect(parseAmount("10,50", "USD")).toEqual({ ok: true, amount: "10.50", minor: 1050n });
    expect(parseAmount("10,5", "EUR")).toEqual({ ok: true, amount: "10.50", minor: 1050n });
    expect(parseAmount("1,250", "KWD")).toEqual({ ok: true, amount: "1.250", minor: 1250n });
    // Thousands grouped, the other separator marking the decimals: one amount in either locale.
    expect(parseAmount("1.000,50", "EUR")).toEqual({ ok: true, amount: "1000.50", minor: 100050n });
    expect(parseAmount("1,234.56", "USD")).toEqual({ ok: true, amount: "1234.56", minor: 123456n });
    expect(parseAmount("12.345.678,9", "EUR")).toEqual({ ok: true, amount: "12345678.90", minor: 1234567890n });
    for (const [text, currency] of [
      ["1,200", "USD"],
      ["1,200", "JPY"],
      ["1.00,50", "EUR"],
      ["1,2,3", "USD"],
      ["10,", "USD"],
    ]) {
      const parsed = parseAmount(text, currency);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(/dot for decimals and without thousands separators/);
    }
  });

  it("says in words what is wrong with an empty, zero, negative or non-numeric amount", () => {
    expect(parseAmount("", "USD")).toEqual({ ok: false, message: "Enter the amount to refund." });
    expect(parseAmount("   ", "USD")).toEqual({ ok: false, message: "Enter the amount to refund." });
    expect(parseAmount("0", "USD")).toEqual({ ok: false, message: "Enter an amount greater than zero." });
    expect(parseAmount("0.00", "USD")).toEqual({ ok: false, message: "Enter an amount greater than zero." });
    expect(parseAmount("-5", "USD")).toMatchObject({ ok: false, message: expect.stringContaining("without a minus sign") });
    expect(parseAmount("abc", "USD")).toEqual({ ok: false, message: "Enter the amount as a number, such as 25.00." });
    expect(parseAmount("1e3", "JPY")).toEqual({ ok: false, message: "Enter the amount as a number, such as 2500." });
    expect(parseAmount("$10", "USD")).toMatchObject({ ok: false });
    expect(parseAmount("9".repeat(30), "USD")).toMatchObject({ ok: false, message: expect.stringContaining("larger") });
  });

  it("is a zod schema whose output is the amount in the currency's digits", () => {
    expect(refundAmountSchema("USD").parse("10,5")).toBe("10.50");
    const refused = refundAmountSchema("USD").safeParse("10.005");
    expect(refused.success).toBe(false);
    if (!refused.success) expect(refused.error.issues[0].message).toBe("USD amounts have at most 2 decimals.");
  });

  it("an over-refund is said with money, not a code", () => {
    expect(overRefundMessage(5135n, "USD", "#1214")).toBe("You can refund at most $51.35 on #1214.");
    expect(overRefundMessage(6000n, "EUR", "#1001")).toBe("You can refund at most €60.00 on #1001.");
    expect(overRefundMessage(0n, "USD", "#1")).toMatch(/Nothing is left to refund on #1/);
  });
});

describe("the posted form", () => {
  it("parses the three intents and refuses anything else with words", () => {
    const formToken = "00000000-0000-4000-8000-000000000001";
    expect(parseRefundAction({ intent: "issue", amount: "10", note: "n", notify: "on", confirmAnother: "yes", formToken })).toEqual({
      ok: true,
      data: { intent: "issue", amount: "10", note: "n", notify: true, confirmAnother: true, confirmRisk: [], formToken },
    });
    expect(parseRefundAction({ intent: "issue", amount: "10", confirmRisk: "OPEN_CHARGEBACK,STORE_CREDIT_REFUNDED", formToken })).toMatchObject({
      ok: true,
      data: { confirmRisk: ["OPEN_CHARGEBACK", "STORE_CREDIT_REFUNDED"] },
    });
    expect(parseRefundAction({ intent: "issue", amount: "10", confirmRisk: "OPEN_CHARGEBACK,yes", formToken })).toMatchObject({
      ok: false,
      fieldErrors: { confirmRisk: "This form's confirmation is out of date. Reload the page and try again." },
    });
    expect(parseRefundAction({ intent: "issue", amount: "10", formToken })).toMatchObject({
      ok: true,
      data: { notify: false, confirmAnother: false, note: "" },
    });
    expect(parseRefundAction({ intent: "issue", amount: "10" })).toMatchObject({
      ok: false,
      fieldErrors: { formToken: "This form is out of date. Reload the page and try again." },
    });
    expect(parseRefundAction({ intent: "resend", recordId: "r", revision: "v" })).toEqual({
      ok: true,
      data: { intent: "resend", recordId: "r", revision: "v" },
    });
    const unknown = parseRefundAction({ intent: "refund-twice" });
    expect(unknown).toMatchObject({ ok: false, fieldErrors: { intent: expect.stringContaining("does not do") } });
    expect(parseRefundAction({})).toMatchObject({ ok: false, fieldErrors: { intent: expect.any(String) } });
    expect(parseRefundAction({ intent: "settle", recordId: "r" })).toMatchObject({
      ok: false,
      fieldErrors: { revision: expect.stringContaining("Reload the page") },
    });
    expect(parseRefundAction({ intent: "issue", amount: "" })).toMatchObject({ ok: false, fieldErrors: { amount: "Enter the amount to refund." } });
    const form = new FormData();
    form.set("intent", "resend");
    form.set("recordId", "  ");
    form.set("revision", "v");
    expect(parseRefundAction(form)).toMatchObject({ ok: false, fieldErrors: { recordId: expect.any(String) } });
  });
});

describe("the back link", () => {
  it("goes back to a path of this app, and to the dashboard otherwise", () => {
    expect(safeBackPath("/app?verdict=CONTRADICTED&q=%231001")).toBe("/app?verdict=CONTRADICTED&q=%231001");
    expect(safeBackPath("/app/refunds/abc")).toBe("/app/refunds/abc");
    expect(safeBackPath("/app")).toBe("/app");
    for (const bad of [
      null,
      undefined,
      "",
      "https://evil.example/app",
      "//evil.example/app",
      "/\\evil.example",
      "/application",
      "/auth/login",
      "javascript:alert(1)",
      "app",
      "/app/../auth",
      " /app",
    ]) {
      expect(safeBackPath(bad)).toBe("/app");
    }
    expect(refundFormPath("gid://shopify/Order/1001", "/app?page=2")).toBe("/app/orders/1001/refund?back=%2Fapp%3Fpage%3D2");
    expect(refundFormPath("1001")).toBe("/app/orders/1001/refund");
  });
});

describe("where the money goes", () => {
  it("splits over the order's payments newest first, as the server allocates", () => {
    const sources = [
      { gateway: "shopify_payments", refundable: "30.00" },
      { gateway: "gift_card", refundable: "20.00" },
    ];
    expect(splitOverSources(sources, 1000n, "USD")).toEqual([{ gateway: "shopify_payments", minor: 1000n }]);
    expect(splitOverSources(sources, 4500n, "USD")).toEqual([
      { gateway: "shopify_payments", minor: 3000n },
      { gateway: "gift_card", minor: 1500n },
    ]);
  });
});

describe("the refund form's action", () => {
  let h: VerificationHarness;
  let asShop: ReturnType<typeof embeddedFetch>;
  beforeAll(async () => {
    h = await startVerificationHarness("form-shop.myshopify.com");
    asShop = embeddedFetch(h.app.url, h.domain, "77");
  });
  afterAll(async () => h?.close());

  // Each issue posts a form of its own (a fresh token), as a person reloading the page between refunds does.
  // The order as the address spells it: its number, or a string to try another spelling of it.
  const post = (orderId: bigint | string, fields: Record<string, string>) =>
    asShop(dataPath(`/app/orders/${orderId}/refund`, "routes/app.orders.$orderId.refund"), {
      method: "POST",
      body: new URLSearchParams(fields.intent === "issue" ? { formToken: randomUUID(), ...fields } : fields),
    });
  const calls = () => h.app.shopify.api(h.domain).stats.refundCreateCalls;

  it("the side card the form reads again every few seconds is never kept by a browser or a proxy", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    const path = `/app/orders/${order.id}/refund/attempts`;
    // As the form's poll asks for it (single fetch), and as anything else that fetches its address.
    for (const url of [dataPath(path, "routes/app.orders.$orderId.refund.attempts"), path]) {
      const response = await asShop(url);
      expect(response.status).toBe(200);
      expect([url, response.headers.get("cache-control")]).toEqual([url, "no-store"]);
    }
  });

  it("answers a field error in words with 422, and malformed input is never a 500", async () => {
    const order = h.shop.createOrder({ amount: "60.00" });
    const before = calls();
    for (const [amount, words] of [
      ["10.005", "USD amounts have at most 2 decimals."],
      ["", "Enter the amount to refund."],
      ["0", "Enter an amount greater than zero."],
      ["-3", "minus sign"],
      ["ten", "as a number"],
      ["1,200", "thousands separators"],
    ]) {
      const response = await post(order.id, { intent: "issue", amount });
      expect(response.status).toBe(422);
      const body = await response.json();
      expect(body).toMatchObject({ ok: false, code: "INVALID_AMOUNT", fieldErrors: { amount: expect.stringContaining(words) } });
      expect(body.fieldErrors.amount).not.toMatch(/[A-Z]{3,}_[A-Z]/);
    }
    for (const fields of [{ intent: "bogus" }, {}, { intent: "resend" }, { intent: "settle", recordId: "x" }] as Record<string, string>[]) {
      const response = await post(order.id, fields);
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ ok: false, code: "INVALID_FORM", message: expect.stringMatching(/Reload the page/) });
    }
    const notAForm = await asShop(dataPath(`/app/orders/${order.id}/refund`, "routes/app.orders.$orderId.refund"), {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
      body: "not multipart",
    });
    expect(notAForm.status).toBe(422);
    expect(calls()).toBe(before);
  });

  it("a comma amount is refunded as its decimal; an over-refund says the most that can be refunded, with money", async () => {
    const order = h.shop.createOrder({ amount: "51.35" });
    const over = await post(order.id, { intent: "issue", amount: "51.36" });
    expect(over.status).toBe(409);
    expect(await over.json()).toMatchObject({ code: "OVER_TENDERED", fieldErrors: { amount: `You can refund at most $51.35 on ${order.name}.` } });
    const ok = await post(order.id, { intent: "issue", amount: "10,50" });
    expect(ok.status).toBe(200);
    expect(await h.db.refundRecord.findFirstOrThrow({ where: { orderId: `gid://shopify/Order/${order.id}` } })).toMatchObject({
      amountMinor: 1050n,
      currency: "USD",
    });
  });

  it("a further refund within 10 minutes needs confirmAnother=yes: 409 RECENT_REFUND in words before any Shopify call", async () => {
    const order = h.shop.createOrder({ amount: "80.00" });
    // Shopify's clock is its own: its refund (and the webhook's created_at) may be stamped after the
    // app minted its record. The form still names the app's record for that same refund.
    const ourClock = h.app.shopify.now;
    h.app.shopify.now = () => new Date(Date.now() + 1_500);
    try {
      expect((await post(order.id, { intent: "issue", amount: "20.00" })).status).toBe(200);
      await h.settle(60_000);
    } finally {
      h.app.shopify.now = ourClock;
    }
    const form = await (await asShop(dataPath(`/app/orders/${order.id}/refund?back=%2Fapp%3Fpage%3D2`, "routes/app.orders.$orderId.refund"))).json();
    expect(form.recentRefund.message).toMatch(/^RF-\d{6}, a refund of \$20\.00 on #\d+, was issued from the app/);
    expect(form.sources).toEqual([{ gateway: expect.any(String), refundable: "60.00" }]);
    expect(form.back).toBe("/app?page=2");
    const before = calls();
    const again = await post(order.id, { intent: "issue", amount: "5.00" });
    expect(again.status).toBe(409);
    const refused = await again.json();
    expect(refused).toMatchObject({ ok: false, code: "RECENT_REFUND", message: expect.stringContaining("Yes, another refund") });
    expect(calls()).toBe(before);
    expect(await h.db.refundRecord.count({ where: { orderId: `gid://shopify/Order/${order.id}` } })).toBe(1);
    expect((await post(order.id, { intent: "issue", amount: "5.00", confirmAnother: "yes" })).status).toBe(200);
    expect(calls()).toBe(before + 1);
  });

  it("a refund made outside the app minutes ago counts too", async () => {
    const order = h.shop.createOrder({ amount: "40.00" });
    const delivery = h.refundDelivery(h.shop.createRefund(order.id, { amount: "10.00" }));
    expect((await h.deliver(delivery)).status).toBe(200);
    const response = await post(order.id, { intent: "issue", amount: "5.00" });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: "RECENT_REFUND", message: expect.stringContaining("A refund of $10.00 was made on") });
  });

  // The order's claim, its attempt count and its recent and unsettled refunds were keyed on the address's spelling of the
  // order ("0123"), its records on Shopify's ("123"): under a second spelling, "one refund at a time" did not see the first.
  describe("an order's number spelled another way (leading zeros)", () => {
    const NOT_AN_ORDER = /does not name an order: an order's number is written in digits, without leading zeros/;

    it("is refused in words before Shopify is asked: a refund made minutes ago is not made again", async () => {
      const order = h.shop.createOrder({ amount: "50.00" });
      expect((await post(order.id, { intent: "issue", amount: "20.00" })).status).toBe(200);
      const before = calls();
      const respelled = await post(`0${order.id}`, { intent: "issue", amount: "20.00" });
      expect(respelled.status).toBe(404);
      expect(await respelled.json()).toMatchObject({ ok: false, code: "ORDER_NOT_FOUND", message: expect.stringMatching(NOT_AN_ORDER) });
      expect(calls()).toBe(before);
      expect(h.shop.orders.get(order.id)!.refundIds).toHaveLength(1);
    });

    it("is refused while an attempt on the order has no answer from Shopify, even with 'Yes, another refund'", async () => {
      const order = h.shop.createOrder({ amount: "60.00" });
      // Shopify unavailable for every call of the first request: its outcome stays unknown.
      h.app.shopify.inject({ kind: "http", status: 503, operation: "mutation" }, 3);
      expect((await post(order.id, { intent: "issue", amount: "15.00" })).status).toBe(502);
      const before = calls();
      const respelled = await post(`00${order.id}`, { intent: "issue", amount: "15.00", confirmAnother: "yes" });
      expect(respelled.status).toBe(404);
      expect((await respelled.json()).message).toMatch(NOT_AN_ORDER);
      expect(calls()).toBe(before);
      expect(await h.db.refundRecord.count({ where: { orderId: `gid://shopify/Order/${order.id}` } })).toBe(1);
    });

    it("opens no refund form: the page at that address is not found", async () => {
      const order = h.shop.createOrder({ amount: "10.00" });
      const page = await asShop(dataPath(`/app/orders/0${order.id}/refund`, "routes/app.orders.$orderId.refund"));
      expect(page.status).toBe(404);
      expect(await page.text()).toMatch(NOT_AN_ORDER);
    });
  });

  it("an unknown back target is the dashboard", async () => {
    const order = h.shop.createOrder({ amount: "10.00" });
    const form = await (
      await asShop(dataPath(`/app/orders/${order.id}/refund?back=https%3A%2F%2Fevil.example%2Fapp`, "routes/app.orders.$orderId.refund"))
    ).json();
    expect(form.back).toBe("/app");
  });
});
