import { describe, expect, it } from "vitest";
import { confirmedRiskCaptions, pastPaymentMinor, refundRisks, riskFacts, riskRefusalMessage, type RiskOrder } from "../../app/refunds/risk";
import { chargebackWarning, pastPaymentWarning, riskSummary } from "../../app/refunds/risk-warnings";

const usd = (amount: string) => ({ presentmentMoney: { amount, currencyCode: "USD" } });
const refundTx = (id: string, gateway: string, amount: string, status = "SUCCESS") => ({ id, kind: "REFUND", status, gateway, amountSet: usd(amount) });

function order(overrides: Partial<RiskOrder> = {}): RiskOrder {
  return {
    id: "gid://shopify/Order/1",
    name: "#1001",
    presentmentCurrencyCode: "USD",
    totalReceivedSet: usd("50.00"),
    totalRefundedSet: usd("0.00"),
    disputes: [],
    transactions: [{ id: "gid://shopify/OrderTransaction/1", kind: "SALE", status: "SUCCESS", gateway: "shopify_payments", amountSet: usd("50.00") }],
    ...overrides,
  };
}

describe("the risks of a refund issued in the app (issue 43)", () => {
  it("an order with nothing against it runs none", () => {
    expect(refundRisks(riskFacts(order()), 5000n)).toEqual([]);
  });

  it("only open disputes count; a won or lost one asks nothing here", () => {
    const facts = riskFacts(
      order({
        disputes: [
          { id: "gid://shopify/OrderDisputeSummary/1", status: "WON", initiatedAs: "CHARGEBACK" },
          { id: "gid://shopify/OrderDisputeSummary/2", status: "LOST", initiatedAs: "CHARGEBACK" },
          { id: "gid://shopify/OrderDisputeSummary/3", status: "NEEDS_RESPONSE", initiatedAs: "INQUIRY" },
        ],
      }),
    );
    expect(facts.openDisputes.map((d) => d.id)).toEqual(["gid://shopify/OrderDisputeSummary/3"]);
    expect(refundRisks(facts, 100n)).toEqual(["OPEN_CHARGEBACK"]);
    expect(riskRefusalMessage(facts, 100n, ["OPEN_CHARGEBACK"])).toBe(
      '#1001 has an open inquiry that needs your response: if the customer wins it, a refund now pays them twice. To refund anyway, confirm "Yes, refund anyway".',
    );
    expect(chargebackWarning(facts, [{ kind: "not_granted" }]).title).toBe("This order has an open inquiry");
  });

  it("store credit is a successful REFUND of the store-credit gateway; a failed one is not", () => {
    const facts = riskFacts(
      order({
        totalRefundedSet: usd("20.00"),
        transactions: [
          refundTx("gid://shopify/OrderTransaction/2", "shopify_store_credit", "20.00"),
          refundTx("t3", "shopify_store_credit", "9.00", "FAILURE"),
        ],
      }),
    );
    expect(facts.storeCredit).toEqual({ ids: ["gid://shopify/OrderTransaction/2"], minor: 2000n });
    expect(refundRisks(facts, 1000n)).toEqual(["STORE_CREDIT_REFUNDED"]);
    expect(confirmedRiskCaptions(facts, ["STORE_CREDIT_REFUNDED"])).toEqual([
      { id: "gid://shopify/OrderTransaction/2", caption: "Refund to store credit: refunded to the payment anyway" },
    ]);
  });

  it("past the payment counts every refund, store credit included, to the minor unit", () => {
    const facts = riskFacts(order({ totalRefundedSet: usd("30.00") }));
    expect(pastPaymentMinor(facts, 2000n)).toBe(0n);
    expect(pastPaymentMinor(facts, 2001n)).toBe(1n);
    expect(refundRisks(facts, 2500n)).toEqual(["REFUNDED_PAST_PAYMENT"]);
    expect(riskRefusalMessage(facts, 2500n, ["REFUNDED_PAST_PAYMENT"])).toContain(
      "Refunding $25.00 USD takes the refunds of #1001 to $55.00 USD, past the $50.00 USD the customer paid (store credit included).",
    );
    expect(pastPaymentWarning({ paid: "50.00", refunded: "30.00", currency: "USD" }, 2500n)?.lines[0]).toBe(
      "The customer paid $50.00 USD and has been refunded $30.00 USD so far, store credit included. Refunding $25.00 USD more gives back $5.00 USD more than they paid. Refunding needs your explicit confirmation.",
    );
    expect(pastPaymentWarning({ paid: "50.00", refunded: "30.00", currency: "USD" }, 2000n)).toBeNull();
  });

  it("a payment Shopify gives in another currency is not judged: no risk is made up from it", () => {
    const facts = riskFacts(order({ totalReceivedSet: { presentmentMoney: { amount: "1.00", currencyCode: "EUR" } } }));
    expect(facts.paidMinor).toBeNull();
    expect(refundRisks(facts, 5000n)).toEqual([]);
    expect(pastPaymentWarning({ paid: null, refunded: "0.00", currency: "USD" }, 9999n)).toBeNull();
  });

  it("the confirmation names every risk in one line", () => {
    expect(riskSummary(["OPEN_CHARGEBACK", "STORE_CREDIT_REFUNDED"])).toBe(
      "This refund may pay the customer twice: the order has an open chargeback and the order was already refunded to store credit.",
    );
  });
});
