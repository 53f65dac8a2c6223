import { describe, expect, it } from "vitest";
import {
  acquirerReferences,
  moneyState,
  paymentsLedger,
  payoutState,
  referencesShown,
  type BalanceEntry,
  type SettlementTransaction,
} from "../../app/settlement/ledger";
import { REFUND_SETTLED, REFUND_SETTLED_1_0_0 } from "../../app/contracts/registry.server";
import { evaluate } from "../../app/contracts/evaluate";
import { customerSentence } from "../../app/settlement/words";

const transaction = (id: number, fields: Partial<SettlementTransaction> = {}): SettlementTransaction => ({
  id: `gid://shopify/OrderTransaction/${id}`,
  kind: "REFUND",
  status: "SUCCESS",
  gateway: "shopify_payments",
  processedAt: "2026-12-03T10:00:00Z",
  amountSet: { shopMoney: { amount: "27.14", currencyCode: "USD" }, presentmentMoney: { amount: "25.00", currencyCode: "EUR" } },
  shopifyPaymentsSet: { refundSet: { acquirerReferenceNumber: null } },
  ...fields,
});

const entry = (transactionId: number, amount: string, currency: string, payout: string | null, type = "REFUND"): BalanceEntry => ({
  id: `gid://shopify/ShopifyPaymentsBalanceTransaction/${transactionId}${type}`,
  type,
  sourceOrderTransactionId: String(transactionId),
  transactionDate: "2026-12-03T10:00:00Z",
  amount: { amount, currencyCode: currency },
  associatedPayout: { id: payout ? "gid://shopify/ShopifyPaymentsPayout/1" : null, status: payout },
});

/** The verdict contract shopify.refund.settled gives these facts, the refund verified at 10:00. */
const verdictOf = (transactions: SettlementTransaction[], entries: BalanceEntry[], now = "2026-12-06T10:00:00Z", contract = REFUND_SETTLED) =>
  evaluate(contract, {
    input: { refund_id: "gid://shopify/Refund/1" },
    action: { result: null },
    operation: { created_at: "2026-12-03T10:00:00Z" },
    observed: { refund_transactions: { data: { transactions } }, payments_ledger: paymentsLedger(transactions, entries) },
    now,
  });

describe("the payments ledger joined to a refund's transactions", () => {
  it("matches by sourceOrderTransactionId; an entry in the shop's currency (converted at the day's rate) is in the ledger, never compared", () => {
    const ledger = paymentsLedger([transaction(7)], [entry(7, "-27.14", "USD", "PAID")]);
    expect(ledger).toMatchObject({ transactions: 1, in_ledger: 1, missing: 0, amount_mismatches: 0, unpaid: 0, payouts: { paid: 1 } });
    expect(verdictOf([transaction(7)], [entry(7, "-27.14", "USD", "PAID")]).verdict).toBe("VERIFIED");
    // A cent off at the refund day's rate is no contradiction: Shopify gives no rate per transaction.
    expect(verdictOf([transaction(7)], [entry(7, "-27.15", "USD", "PAID")]).verdict).toBe("VERIFIED");
  });

  it("in the customer's currency the amounts compare exactly: another amount is a mismatch, 25.0 and -25.00 are one amount", () => {
    expect(paymentsLedger([transaction(7)], [entry(7, "-24.99", "EUR", "PAID")]).amount_mismatches).toBe(1);
    expect(paymentsLedger([transaction(7)], [entry(7, "-25.0", "EUR", "PAID")]).amount_mismatches).toBe(0);
    expect(verdictOf([transaction(7)], [entry(7, "-24.99", "EUR", "PAID")])).toMatchObject({ verdict: "CONTRADICTED", reason: "ledger_amount_mismatch" });
  });

  it("an amount that is not a decimal proves nothing either way", () => {
    expect(paymentsLedger([transaction(7)], [entry(7, "-25,00", "EUR", "PAID")])).toMatchObject({ in_ledger: 1, amount_mismatches: 0 });
  });

  it("SCHEDULED and the deprecated IN_TRANSIT are in transit, PENDING and ACTION_REQUIRED wait, FAILED and CANCELED failed", () => {
    expect(["SCHEDULED", "IN_TRANSIT", "PENDING", "ACTION_REQUIRED", "FAILED", "CANCELED", "PAID", null].map(payoutState)).toEqual([
      "scheduled",
      "scheduled",
      "pending",
      "pending",
      "failed",
      "failed",
      "paid",
      "pending",
    ]);
  });

  it("in transit is PENDING awaiting payout_paid, never VERIFIED", () => {
    const result = verdictOf([transaction(7)], [entry(7, "-27.14", "USD", "SCHEDULED")]);
    expect(result).toMatchObject({ verdict: "PENDING", reasons: ["payout_paid"] });
    expect(moneyState(paymentsLedger([transaction(7)], [entry(7, "-27.14", "USD", "SCHEDULED")]), [transaction(7)])).toBe("in_transit");
  });

  it("a refund split over Shopify Payments and another gateway is judged on its Shopify Payments part", () => {
    const split = [transaction(7), transaction(8, { gateway: "paypal" })];
    expect(verdictOf(split, [entry(7, "-27.14", "USD", "PAID")]).verdict).toBe("VERIFIED");
  });

  it("a refund with no Shopify Payments transaction is never VERIFIED by this contract", () => {
    const other = [transaction(8, { gateway: "paypal" })];
    expect(verdictOf(other, []).verdict).toBe("PENDING");
    expect(moneyState(paymentsLedger(other, []), other)).toBe("at_gateway");
  });

  it("a reversal (REFUND_FAILURE) contradicts even when the payout was paid", () => {
    const result = verdictOf([transaction(7)], [entry(7, "-27.14", "USD", "PAID"), entry(7, "27.14", "USD", "PAID", "REFUND_FAILURE")]);
    expect(result).toMatchObject({ verdict: "CONTRADICTED", reason: "refund_reversed", classes: ["refund reversed"] });
  });

  it("a transaction FAILURE is FAILED; a ledger that never shows the refund is UNVERIFIABLE at 50 days (35 under 1.0.0)", () => {
    expect(verdictOf([transaction(7, { status: "FAILURE" })], []).verdict).toBe("FAILED");
    expect(verdictOf([transaction(7)], [], "2027-01-22T10:00:00Z")).toMatchObject({ verdict: "UNVERIFIABLE", reason: "not_settled_before_timeout" });
    expect(verdictOf([transaction(7)], [], "2027-01-22T09:59:59Z").verdict).toBe("PENDING");
    expect(verdictOf([transaction(7)], [], "2027-01-07T10:00:00Z", REFUND_SETTLED_1_0_0).verdict).toBe("UNVERIFIABLE");
  });

  it("the ARN is read from Shopify Payments transactions; a store that is not on Plus shows none at all", () => {
    const withArn = transaction(7, { shopifyPaymentsSet: { refundSet: { acquirerReferenceNumber: "74123456789012345678901" } } });
    expect(acquirerReferences([withArn, transaction(8, { gateway: "paypal" })])).toEqual(["74123456789012345678901"]);
    expect(referencesShown([transaction(7, { shopifyPaymentsSet: null })])).toBe(false);
    expect(referencesShown([transaction(7)])).toBe(true);
  });
});

describe("the sentence for the customer", () => {
  const followed = (state: "paid" | "at_gateway" | "awaiting_ledger", references: string[] = []) =>
    ({ kind: "followed", state, verdict: state === "paid" ? "VERIFIED" : "GATEWAY_ONLY", references, payoutStatus: null, waitingDays: 0 }) as const;

  it("says the refund was sent to the card only where Shopify Payments shows it left", () => {
    expect(customerSentence(followed("paid", ["74123456789012345678901"]), { amount: "€25.00", sentOn: "3 Dec" })).toBe(
      "Your refund of €25.00 was sent to your card on 3 Dec; your bank can trace it with reference 74123456789012345678901.",
    );
    // A gift card, cash or another gateway's refund: Shopify cannot vouch for a card refund.
    expect(customerSentence(followed("at_gateway"), { amount: "€25.00", sentOn: "3 Dec" })).toBeNull();
    expect(customerSentence(followed("awaiting_ledger"), { amount: "€25.00", sentOn: "3 Dec" })).toBeNull();
  });
});
