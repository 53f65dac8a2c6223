import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { blockView } from "../../extensions/order-refund-verdicts/src/verdicts";
import { VERDICT_LABELS, VERDICT_TONES } from "../../app/verdicts/words";

const refund = (status: string, id = status) => ({ id, amount: "25.00", currency: "USD", status, reasonText: "why", reviewState: "none" });

describe("the order-page block", () => {
  it("a verified refund whose money is at risk twice heads the block, in words, and its row says why", () => {
    const atRisk = { ...refund("VERIFIED", "a"), atRiskTwice: "$40.00 at risk twice. This order has an open chargeback." };
    const view = blockView({ order: "o", refunds: [refund("VERIFIED", "b"), atRisk] });
    expect(view).toMatchObject({ headline: "$40.00 at risk twice. This order has an open chargeback.", tone: "critical" });
    expect(view.rows[1].reason).toBe(atRisk.atRiskTwice);
  });

  it("each row says where its refund was made and by whom, as the app words it; nothing from an app that does not say (decision 031)", () => {
    const view = blockView({ order: "o", refunds: [{ ...refund("VERIFIED", "a"), made: "Made on Point of Sale by Dana Whitfield" }, refund("VERIFIED", "b")] });
    expect(view.rows.map((r) => r.made)).toEqual(["Made on Point of Sale by Dana Whitfield", ""]);
    // The block shows it beside the amount, subdued.
    expect(readFileSync("extensions/order-refund-verdicts/src/BlockExtension.tsx", "utf8")).toContain('<s-text color="subdued">{row.made}</s-text>');
  });

  it("says so when the order has no refunds", () => {
    expect(blockView({ order: "gid://shopify/Order/1", refunds: [] })).toMatchObject({ headline: "No refunds on this order", tone: "info", rows: [] });
  });

  it("puts problems first: any contradicted, failed or unverifiable refund makes the block critical", () => {
    const view = blockView({ order: "o", refunds: [refund("VERIFIED"), refund("FAILED"), refund("PENDING")] });
    expect(view).toMatchObject({ headline: "1 of 3 refunds needs a person", tone: "critical" });
    expect(view.rows.map((r) => [r.label, r.tone])).toEqual([
      ["Verified", "success"],
      ["Failed", "critical"],
      ["Pending", "info"],
    ]);
  });

  it("names each verdict in the app's words, with the app's tone", () => {
    const statuses = ["VERIFIED", "CONTRADICTED", "FAILED", "UNVERIFIABLE", "PENDING"] as const;
    const view = blockView({ order: "o", refunds: statuses.map((status) => refund(status)) });
    expect(view.rows.map((r) => [r.label, r.tone])).toEqual(statuses.map((status) => [VERDICT_LABELS[status], VERDICT_TONES[status]]));
    expect(view.rows.map((r) => r.label)).toEqual(["Verified", "Contradicted", "Failed", "Unverifiable", "Pending"]);
  });

  it("reports checking, then verified", () => {
    expect(blockView({ order: "o", refunds: [refund("VERIFIED", "a"), refund("PENDING", "b")] }).headline).toBe("Checking 1 refund with Shopify");
    expect(blockView({ order: "o", refunds: [refund("VERIFIED", "a"), refund("VERIFIED", "b")] })).toMatchObject({
      headline: "All 2 refunds verified",
      tone: "success",
    });
    expect(blockView({ order: "o", refunds: [refund("VERIFIED")] }).headline).toBe("Refund verified");
  });

  it("says do not refund again when any verdict on the order found a duplicate, and names a weak match", () => {
    const view = blockView({
      order: "o",
      doNotRetry: true,
      refunds: [{ ...refund("CONTRADICTED", "a"), correlation: "fingerprint" }, refund("VERIFIED", "b")],
    });
    expect(view).toMatchObject({ headline: "Do not refund this order again: Shopify holds a duplicate refund", tone: "critical" });
    expect(view.rows[0].reason).toBe("why (matched by order and amount only)");
  });

  it("links to the app's refund form for the order, except when a duplicate says not to refund again", () => {
    expect(blockView({ order: "o", refunds: [refund("VERIFIED")] }, "1001").refundUrl).toBe("app:app/orders/1001/refund");
    expect(blockView({ order: "o", doNotRetry: true, refunds: [refund("CONTRADICTED")] }, "1001").refundUrl).toBeNull();
  });

  it("links each refund into the app and shows its exact amount", () => {
    const [row] = blockView({ order: "o", refunds: [refund("CONTRADICTED", "op-1")] }).rows;
    expect(row).toMatchObject({ url: "app:app/refunds/op-1", amount: "25.00 USD" });
  });

  it("is configured for shopify app deploy: the order details block target, API 2026-10 on Preact, a module that exists", () => {
    const toml = readFileSync("extensions/order-refund-verdicts/shopify.extension.toml", "utf8");
    expect(toml).toMatch(/^api_version = "2026-10"$/m);
    expect(toml).toMatch(/^type = "ui_extension"$/m);
    expect(toml).toMatch(/^target = "admin\.order-details\.block\.render"$/m);
    const module = /^module = "(.+)"$/m.exec(toml)![1];
    expect(existsSync(`extensions/order-refund-verdicts/${module}`)).toBe(true);
    // From API 2025-10 the CLI builds an admin UI extension as Preact and Polaris web components (decision 015).
    const { dependencies } = JSON.parse(readFileSync("extensions/order-refund-verdicts/package.json", "utf8")) as { dependencies: Record<string, string> };
    expect(Object.keys(dependencies).sort()).toEqual(["@preact/signals", "@shopify/ui-extensions", "preact"]);
    expect(dependencies["@shopify/ui-extensions"]).toMatch(/^2026\./);
    expect(JSON.parse(readFileSync("extensions/order-refund-verdicts/locales/en.default.json", "utf8")).name).toBe("Refund verdicts");
  });
});
