import { describe, expect, it } from "vitest";
import { digestMessage, instantAlert, testAlert, type AlertItem } from "../../app/alerts/messages";
import { moneyAlertOf, moneyFacts, moneySentence, type MoneyFacts } from "../../app/alerts/money";
import type { RefundRow } from "../../app/verdicts/rows.server";

const DAY = 86_400_000;
const facts = (overrides: Partial<MoneyFacts> = {}): MoneyFacts => ({
  amount: "40.00",
  currency: "USD",
  order: "#1001",
  state: "payout_failed",
  payout: { id: "gid://shopify/ShopifyPaymentsPayout/1", status: "FAILED" },
  ledgerAmount: null,
  days: 3,
  ...overrides,
});

describe("a money alert", () => {
  it("is one kind per settlement verdict and reason; a verdict that needs nobody is none", () => {
    expect(moneyAlertOf({ status: "CONTRADICTED", reason: "payout_failed" })).toBe("PAYOUT_FAILED");
    expect(moneyAlertOf({ status: "CONTRADICTED", reason: "refund_reversed" })).toBe("REFUND_REVERSED");
    expect(moneyAlertOf({ status: "CONTRADICTED", reason: "ledger_amount_mismatch" })).toBe("LEDGER_AMOUNT_MISMATCH");
    expect(moneyAlertOf({ status: "CONTRADICTED", reason: "a_later_reason" })).toBe("SETTLEMENT_CONTRADICTED");
    expect(moneyAlertOf({ status: "FAILED", reason: "transaction_failed" })).toBe("SETTLEMENT_FAILED");
    expect(moneyAlertOf({ status: "UNVERIFIABLE", reason: "not_settled_before_timeout" })).toBe("NOT_SETTLED");
    for (const status of ["VERIFIED", "PENDING", "GATEWAY_ONLY"]) expect(moneyAlertOf({ status, reason: null })).toBeNull();
  });

  it("says what happened to the money in a merchant's words", () => {
    expect(moneySentence("PAYOUT_FAILED", facts())).toBe(
      "The payout that carried the $40.00 refund on #1001 failed at your bank: the money is not settled. Check the payout in Shopify Payments.",
    );
    expect(moneySentence("PAYOUT_FAILED", facts({ payout: { id: null, status: "CANCELED" } }))).toMatch(
      /^Shopify canceled the payout that carried the \$40\.00 refund on #1001/,
    );
    expect(moneySentence("REFUND_REVERSED", facts())).toBe(
      "Shopify Payments reversed the $40.00 refund on #1001: the money came back to your balance and did not reach the customer.",
    );
    expect(moneySentence("LEDGER_AMOUNT_MISMATCH", facts({ ledgerAmount: { amount: "3.00", currency: "USD" } }))).toBe(
      "Shopify Payments took $3.00 from your balance for the $40.00 refund on #1001.",
    );
    expect(moneySentence("LEDGER_AMOUNT_MISMATCH", facts())).toBe(
      "Shopify Payments took another amount from your balance than the $40.00 refund on #1001 says.",
    );
    expect(moneySentence("NOT_SETTLED", facts({ amount: "7.00", order: "#1003", days: 35, state: "in_ledger" }))).toBe(
      "The $7.00 refund on #1003 has not settled 35 days after it was made. It left your balance, but no payout has carried it.",
    );
  });

  it("reads the failed payout and the ledger's other amount from the settlement's last read", () => {
    const entry = { amount: "30.00", currency: "USD", balance_amount: "-3.00", balance_currency: "USD", payout_id: "gid://p/2", payout_status: "CANCELED" };
    const startedAt = new Date("2026-11-01T10:00:00Z");
    const read = moneyFacts(
      {
        money: "wrong_amount",
        observed: JSON.stringify({ payments_ledger: { entries: [entry] } }),
        payoutGid: "gid://p/1",
        payoutStatus: "PAID",
        startedAt,
        processedAt: new Date(startedAt.getTime() - 60_000),
        decidedAt: new Date(startedAt.getTime() + 35 * DAY),
      },
      { amount: "30.00", currency: "USD", order: "#7" },
      new Date(),
    );
    expect(read).toMatchObject({ payout: { id: "gid://p/2", status: "CANCELED" }, ledgerAmount: { amount: "3.00", currency: "USD" }, days: 35 });
    // A read it cannot parse names the settlement's own payout and no other amount.
    expect(
      moneyFacts(
        { money: "payout_failed", observed: "{not json", payoutGid: "gid://p/1", payoutStatus: "FAILED", startedAt, processedAt: null, decidedAt: startedAt },
        { amount: null, currency: null, order: "#7" },
        new Date(),
      ),
    ).toMatchObject({ payout: { id: "gid://p/1", status: "FAILED" }, ledgerAmount: null, days: 0 });
  });

  it("in an instant alert: its headline, beside the verdicts of other refunds", () => {
    const row = (overrides: Partial<RefundRow>) =>
      ({
        orderName: "#1001",
        orderId: "1",
        amount: "40.00",
        currency: "USD",
        status: "CONTRADICTED",
        classes: [],
        reasonText: "",
        decidedAt: null,
        ...overrides,
      }) as RefundRow;
    const items: AlertItem[] = [
      { row: row({ classes: ["payout failed"], reasonText: moneySentence("PAYOUT_FAILED", facts()) }), evidenceUrl: "https://e/1", headline: "Payout failed" },
      { row: row({ orderName: "#1002", amount: "5.00", classes: ["duplicate side effect"] }), evidenceUrl: "https://e/2" },
    ];
    expect(instantAlert("s", items.slice(0, 1), { reviewQueue: "https://q" }, "UTC").subject).toBe("Refund Verifier · s: Payout failed, $40.00 on #1001");
    const message = instantAlert("s", items, { reviewQueue: "https://q" }, "UTC");
    expect(message.text).toContain("2 refunds in s need a person: 1 × duplicate refund, 1 × payout failed. Amount: $45.00.");
    expect(message.text).toContain("• Payout failed: $40.00 on #1001\n  The payout that carried the $40.00 refund on #1001 failed at your bank");
  });

  it("in the digest: the refunds whose money did not settle that day; none, no line", () => {
    const summary = {
      shopName: "s",
      day: "2026-11-30",
      counts: { VERIFIED: 3 },
      previousCounts: {},
      atRisk: [],
      openReviews: 0,
      oldestOpen: null,
      links: { dashboard: "https://d", reviewQueue: "https://q" },
    };
    const text = digestMessage(
      {
        ...summary,
        moneyProblems: [
          { headline: "Never settled", count: 1 },
          { headline: "Payout failed", count: 2 },
        ],
      },
      "UTC",
    ).text;
    expect(text).toContain("Refunds whose money did not settle: 3 (2 × payout failed, 1 × never settled).");
    expect(digestMessage({ ...summary, moneyProblems: [] }, "UTC").text).not.toContain("money did not settle");
  });

  it("in the test alert: what will be reported", () => {
    expect(testAlert("s", ["CONTRADICTED", "MONEY"], { settings: "https://x" }).text).toMatch(
      /^This is a test from Refund Verifier for s\. Refunds found contradicted and refunds whose money did not settle \(a payout failed, a refund reversed or never settled\) will be reported here\./,
    );
    expect(testAlert("s", ["MONEY"], { settings: "https://x" }).text).toContain("for s. Refunds whose money did not settle");
  });
});
