import { describe, expect, it } from "vitest";
import { digestMessage, instantAlert, totals, whatHappened, type AlertItem } from "../../app/alerts/messages";
import type { RefundRow } from "../../app/verdicts/rows.server";

function item(overrides: Partial<RefundRow>, id = "op-1"): AlertItem {
  const row = {
    id,
    orderName: "#1001",
    orderId: "1001",
    amount: "25.00",
    currency: "USD",
    status: "CONTRADICTED",
    classes: ["duplicate side effect"],
    reasonText: "Shopify created more than one refund on the order since the operation started. Do not retry.",
    decidedAt: "2026-12-01T14:05:00.000Z",
    ...overrides,
  } as RefundRow;
  return { row, evidenceUrl: `https://admin.shopify.com/store/s/apps/k/refunds/${id}` };
}

describe("instant alerts", () => {
  it("one refund: the subject names what happened, the amount and the order", () => {
    const message = instantAlert("s", [item({})], { reviewQueue: "https://q" }, "America/New_York");
    expect(message.subject).toBe("Refund Verifier · s: Duplicate refund, $25.00 on #1001");
    expect(message.text).toContain("• Duplicate refund: $25.00 on #1001");
    expect(message.text).toContain("Decided Dec 1, 2026, 9:05 AM EST. Evidence: https://admin.shopify.com/store/s/apps/k/refunds/op-1");
  });

  it("many refunds: one message with the tally, exact totals per currency, the first 20 listed and the rest counted", () => {
    const items = [
      ...Array.from({ length: 24 }, (_, i) => item({ amount: "0.10" }, `d${i}`)),
      item({ status: "FAILED", classes: [], amount: "1000", currency: "JPY", orderName: "#2" }, "f"),
      item({ status: "UNVERIFIABLE", classes: [], amount: "1.234", currency: "KWD", orderName: null, orderId: "77" }, "u"),
    ];
    const message = instantAlert("s", items, { reviewQueue: "https://q" }, "UTC");
    expect(message.subject).toBe("Refund Verifier · s: 26 refunds need a look (¥1,000 + KWD\u00a01.234 + $2.40)");
    expect(message.text).toContain("26 refunds in s need a person: 24 × duplicate refund, 1 × failed at the payment gateway, 1 × no evidence in Shopify.");
    expect(message.text).toContain("…and 6 more in the review queue: https://q");
    expect(message.text.match(/^• /gm)).toHaveLength(20);
    expect(message.slack.blocks).toHaveLength(3);
  });

  it("escapes what it did not write: an order name with markup stays text in HTML and in Slack", () => {
    const message = instantAlert("s", [item({ orderName: "<b>#1</b> & co" })], { reviewQueue: "https://q" }, "UTC");
    expect(message.html).toContain("&lt;b&gt;#1&lt;/b&gt; &amp; co");
    expect(message.html).not.toContain("<b>#1</b>");
    expect(JSON.stringify(message.slack)).toContain("&lt;b&gt;#1&lt;/b&gt; &amp; co");
  });

  it("names each kind of problem in a merchant's words", () => {
    expect(whatHappened({ status: "CONTRADICTED", classes: ["wrong amount"] })).toBe("Wrong amount");
    expect(whatHappened({ status: "CONTRADICTED", classes: ["wrong subject"] })).toBe("Wrong order");
    expect(whatHappened({ status: "FAILED", classes: [] })).toBe("Failed at the payment gateway");
    expect(totals([{ amount: null, currency: null }])).toBe("no amount recorded");
  });
});

describe("the digest", () => {
  it("counts, compares with the day before, and names the money at risk and the oldest open item", () => {
    const message = digestMessage(
      {
        shopName: "s",
        day: "2026-11-30",
        counts: { VERIFIED: 40, CONTRADICTED: 2 },
        previousCounts: { VERIFIED: 41, FAILED: 1 },
        atRisk: [
          { currency: "EUR", minor: 1999n },
          { currency: "USD", minor: 250000n },
        ],
        openReviews: 3,
        oldestOpen: item({}),
        links: { dashboard: "https://d", reviewQueue: "https://q" },
      },
      "Europe/Berlin",
    );
    expect(message.subject).toBe("Refund Verifier · s: 2026-11-30, 42 refunds, 3 open reviews");
    expect(message.text.split("\n").slice(0, 7)).toEqual([
      "s on 2026-11-30: 42 refunds verified or checked.",
      "Verified: 40 (1 fewer than the day before)",
      "Contradicted: 2 (2 more than the day before)",
      "Failed: 0 (1 fewer than the day before)",
      "Money at risk (refunds waiting for review): €19.99 + $2,500.00.",
      "Review queue: 3 open items.",
      "Oldest open: Duplicate refund: $25.00 on #1001, decided Dec 1, 2026, 3:05 PM GMT+1. Evidence: https://admin.shopify.com/store/s/apps/k/refunds/op-1",
    ]);
  });
});
