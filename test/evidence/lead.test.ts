import { describe, expect, it } from "vitest";
import { REFUND_CREATED_1_1_0 } from "../../app/contracts/registry.server";
import { reasonInWords, money } from "../../app/verdicts/words";
import { evidenceLead, recordedRefundOf, type LeadInput, type RecordedRefund } from "../../app/evidence/lead";
import { gatewayInWords, transactionErrorInWords } from "../../app/evidence/transaction-errors";

const contract = REFUND_CREATED_1_1_0.contract;
const ORDER = "gid://shopify/Order/1044";

const recorded = (over: Partial<RecordedRefund> = {}): RecordedRefund => ({
  orderGid: ORDER,
  orderName: "#1044",
  amount: "65.3",
  currency: "USD",
  transactions: [{ gateway: "shopify_payments", status: "SUCCESS", errorCode: null }],
  ...over,
});

const input = (over: Partial<LeadInput> = {}): LeadInput => ({
  contract,
  status: "VERIFIED",
  reason: null,
  reasons: [],
  requested: { amount: "65.30", currency: "USD" },
  order: { gid: ORDER, name: "#1044" },
  recorded: recorded(),
  sameOrder: [],
  recordedOrder: [],
  ...over,
});

const contradicted = (reason: string, over: Partial<LeadInput> = {}) => evidenceLead(input({ status: "CONTRADICTED", reason, reasons: [reason], ...over }));

describe("the evidence page's lead sentence", () => {
  it("wrong amount: both amounts and the difference, exact, with the currency", () => {
    const lead = contradicted("refund_amount_mismatch", { recorded: recorded({ amount: "70.3" }) });
    expect(lead.sentence).toBe("Shopify recorded $70.30; the refund asked for $65.30 ($5.00 more).");
    expect(lead.nextStep).toContain("$5.00 difference");
    expect(contradicted("refund_amount_mismatch", { recorded: recorded({ amount: "60.30" }) }).sentence).toBe(
      "Shopify recorded $60.30; the refund asked for $65.30 ($5.00 less).",
    );
  });

  it("wrong amount: no float drift, and currencies without minor units", () => {
    expect(contradicted("refund_amount_mismatch", { requested: { amount: "0.30", currency: "USD" }, recorded: recorded({ amount: "0.1" }) }).sentence).toBe(
      "Shopify recorded $0.10; the refund asked for $0.30 ($0.20 less).",
    );
    expect(
      contradicted("refund_amount_mismatch", { requested: { amount: "1200", currency: "JPY" }, recorded: recorded({ amount: "1250", currency: "JPY" }) })
        .sentence,
    ).toBe("Shopify recorded ¥1,250; the refund asked for ¥1,200 (¥50 more).");
  });

  it("wrong currency: says both currencies", () => {
    const lead = contradicted("refund_currency_mismatch", {
      requested: { amount: "20.00", currency: "USD" },
      recorded: recorded({ amount: "20.00", currency: "EUR" }),
    });
    expect(lead.sentence).toBe("Shopify recorded the refund in EUR (€20.00); the refund asked for USD ($20.00).");
  });

  it("wrong order: names both orders, links to both and to the other's refunds, and says which one a new refund goes to", () => {
    const lead = contradicted("refund_on_wrong_order", {
      order: { gid: "gid://shopify/Order/2001", name: "#1050" },
      recorded: recorded({ orderGid: ORDER, orderName: "#1044" }),
      recordedOrder: [{ id: "op-9", refundGid: "gid://shopify/Refund/9", orderName: "#1044", amount: "12.00", currency: "USD", status: "VERIFIED" }],
    });
    expect(lead.sentence).toBe("Shopify recorded this refund on #1044, not on #1050, the order it was for.");
    expect(lead.nextStep).toContain("A refund issued from this page goes to #1050.");
    expect(lead.links).toEqual([
      { label: "#1050 (the order it was for) in Shopify admin", url: "shopify://admin/orders/2001", admin: true },
      { label: "#1044 (where Shopify recorded it) in Shopify admin", url: "shopify://admin/orders/1044", admin: true },
      { label: "Refund of $12.00 on #1044 (Verified)", url: "/app/refunds/op-9" },
    ]);
  });

  it("duplicate (1.2.0): names the refund it repeats, by amount and time apart, and links to it", () => {
    const first = { id: "op-1", refundGid: "gid://shopify/Refund/1", orderName: "#1044", amount: "40.00", currency: "USD", status: "VERIFIED" };
    const partial = { id: "op-3", refundGid: "gid://shopify/Refund/3", orderName: "#1044", amount: "7.50", currency: "USD", status: "VERIFIED" };
    const lead = contradicted("duplicate_refund_present", {
      requested: { amount: "40.00", currency: "USD" },
      sameOrder: [first, partial],
      duplicateOf: {
        count: 1,
        intended: false,
        refunds: [{ id: "gid://shopify/Refund/1", created_at: "2026-12-01T10:00:00Z", amount: "40.00", currency: "USD", seconds_before: 4 }],
      },
    });
    expect(lead.sentence).toBe("This refund of $40.00 was made 4 seconds after another refund of $40.00 on #1044. Shopify holds both.");
    expect(lead.nextStep).toMatch(/^Do not retry\./);
    expect(lead.links).toEqual([{ label: "Refund of $40.00 on #1044 (Verified)", url: "/app/refunds/op-1" }]);
  });

  it("a refund a person confirmed as another says who did", () => {
    const lead = evidenceLead(input({ status: "VERIFIED", reason: "all_conditions_hold", reasons: [], intendedBy: "Staff member 42" }));
    expect(lead.details).toContain("Issued from the app and confirmed as another refund on #1044 by Staff member 42.");
  });

  it("duplicate (before 1.2.0): lists the other refunds on the order with links to their evidence", () => {
    const lead = contradicted("duplicate_refund_present", {
      requested: { amount: "12.25", currency: "USD" },
      sameOrder: [{ id: "op-2", refundGid: "gid://shopify/Refund/2", orderName: "#1044", amount: "12.25", currency: "USD", status: "CONTRADICTED" }],
    });
    expect(lead.sentence).toBe("Shopify holds 2 refunds on #1044: this one for $12.25 and another for $12.25.");
    expect(lead.nextStep).toMatch(/^Do not retry\./);
    expect(lead.links).toEqual([{ label: "Refund of $12.25 on #1044 (Contradicted)", url: "/app/refunds/op-2" }]);
    expect(contradicted("duplicate_refund_present").sentence).toBe(
      "Shopify created more than one refund on #1044 since this one started; this app has no record of the other.",
    );
  });

  it("gateway failure: the gateway, its error in words, and the next step", () => {
    const failed = (transactions: RecordedRefund["transactions"]) =>
      evidenceLead(input({ status: "FAILED", reason: "transaction_failed", reasons: ["transaction_failed"], recorded: recorded({ transactions }) }));
    const lead = failed([{ gateway: "shopify_payments", status: "FAILURE", errorCode: "CARD_DECLINED" }]);
    expect(lead.sentence).toBe("The refund of $65.30 failed at Shopify Payments: the card was declined.");
    expect(lead.nextStep).toContain("has not been paid");
    expect(
      failed([
        { gateway: "shopify_payments", status: "SUCCESS", errorCode: null },
        { gateway: "gift_card", status: "ERROR", errorCode: "SOMETHING_NEW" },
      ]).sentence,
    ).toBe('The refund of $65.30 failed at the gift card: the gateway answered "something new".');
    expect(failed([{ gateway: "acme_pay", status: "FAILURE", errorCode: null }]).sentence).toBe("The refund of $65.30 failed at acme pay.");
  });

  it("verified, unverifiable and pending: the dashboard's own words, never the reason id", () => {
    expect(evidenceLead(input()).sentence).toBe(reasonInWords(contract, "VERIFIED", null, input()));
    const unverifiable = evidenceLead(
      input({ status: "UNVERIFIABLE", reason: "evidence_unavailable_before_timeout", reasons: ["evidence_unavailable_before_timeout"], recorded: null }),
    );
    expect(unverifiable.sentence).toBe("Shopify showed no evidence of this refund within 7 days. Check the order.");
    expect(unverifiable.sentence).not.toContain("evidence_unavailable_before_timeout");
    expect(unverifiable.nextStep).toContain("re-check");
    expect(evidenceLead(input({ status: "PENDING", reason: "awaiting_evidence", recorded: null })).sentence).toBe(
      "Being checked with Shopify; the verdict follows shortly.",
    );
  });

  it("a contradiction without the read-back's numbers falls back to the contract's words; other reasons follow", () => {
    expect(contradicted("refund_amount_mismatch", { recorded: null }).sentence).toBe(
      "Shopify recorded a different amount than the $65.30 the refund asked for.",
    );
    expect(contradicted("refund_predates_operation").sentence).toBe(
      "This refund was already in Shopify before the app was asked to check it, so it says nothing about this request.",
    );
    const both = evidenceLead(
      input({
        status: "CONTRADICTED",
        reason: "refund_amount_mismatch",
        reasons: ["refund_amount_mismatch", "duplicate_refund_present"],
        recorded: recorded({ amount: "70.30" }),
      }),
    );
    expect(both.details).toEqual(["Also: Shopify created more than one refund on #1044 since this one started; this app has no record of the other."]);
  });
});

describe("words for Shopify's values", () => {
  it("known and unknown transaction error codes", () => {
    expect(transactionErrorInWords("INSUFFICIENT_FUNDS")).toBe("there were not enough funds");
    expect(transactionErrorInWords("card_declined")).toBe("the card was declined");
    expect(transactionErrorInWords("NETWORK_TOKEN_REVOKED")).toBe('the gateway answered "network token revoked"');
    expect(transactionErrorInWords(null)).toBeNull();
    expect(gatewayInWords("shopify_payments")).toBe("Shopify Payments");
    expect(gatewayInWords(null)).toBe("the payment gateway");
  });

  it("money from decimal strings, exactly", () => {
    expect(money("70.3", "USD")).toBe("$70.30");
    expect(money("1234567.89", "EUR")).toBe("€1,234,567.89");
    expect(money("1.005", "USD")).toBe("1.005 USD");
    expect(money(null, "USD")).toBe("an unknown amount");
  });

  it("reads the read-back's refund, with its order and transactions", () => {
    const data = {
      data: {
        refund: {
          id: "gid://shopify/Refund/1",
          order: { id: ORDER, name: "#1044" },
          totalRefundedSet: { presentmentMoney: { amount: "5.0", currencyCode: "USD" } },
          transactions: { nodes: [{ gateway: "bogus", status: "FAILURE", errorCode: "CARD_DECLINED" }] },
        },
      },
    };
    expect(recordedRefundOf(data)).toEqual({
      orderGid: ORDER,
      orderName: "#1044",
      amount: "5.0",
      currency: "USD",
      transactions: [{ gateway: "bogus", status: "FAILURE", errorCode: "CARD_DECLINED" }],
    });
    expect(recordedRefundOf({ data: { refund: null } })).toBeNull();
    expect(recordedRefundOf(null)).toBeNull();
  });
});
