import { describe, expect, it } from "vitest";
import { allocate, presentmentCurrency, refundableMinor } from "../../app/refunds/plan";
import type { OrderForRefund } from "../../app/shopify/admin/refunds.server";
import type { CurrencyCode, OrderTransactionKind } from "../../app/shopify/admin/types/admin.types";

type SuggestedTransaction = NonNullable<OrderForRefund["suggestedRefund"]>["suggestedTransactions"][number];

const ORDER_ID = "gid://shopify/Order/1001";

/** A MoneyBag as Shopify answers it: decimal strings, the shop's money and the customer's. */
const bag = (presentment: string, presentmentCurrency: string, shop = presentment, shopCurrency = presentmentCurrency) => ({
  shopMoney: { amount: shop, currencyCode: shopCurrency as CurrencyCode },
  presentmentMoney: { amount: presentment, currencyCode: presentmentCurrency as CurrencyCode },
});

interface Payment {
  id: number;
  gateway: string | null;
  /** What can still be refunded on it, in the presentment currency. */
  refundable: string;
  /** The same in the shop's currency, when the order has two. */
  shopRefundable?: string;
  createdAt: string;
  /** The parent transaction's own gateway, when it differs (or the suggestion has none). */
  parentGateway?: string | null;
}

const suggested = (p: Payment, currency: string, shopCurrency: string): SuggestedTransaction => ({
  gateway: p.gateway,
  maximumRefundableSet: bag(p.refundable, currency, p.shopRefundable ?? p.refundable, shopCurrency),
  parentTransaction: {
    id: `gid://shopify/OrderTransaction/${p.id}`,
    kind: "CAPTURE" as OrderTransactionKind,
    gateway: p.parentGateway === undefined ? p.gateway : p.parentGateway,
    createdAt: p.createdAt,
  },
});

function order(options: { currency: string; shopCurrency?: string; refundable: string; shopRefundable?: string; payments: Payment[] }): OrderForRefund {
  const shopCurrency = options.shopCurrency ?? options.currency;
  return {
    id: ORDER_ID,
    name: "#1001",
    currencyCode: shopCurrency as CurrencyCode,
    presentmentCurrencyCode: options.currency as CurrencyCode,
    totalRefundedSet: bag("0.0", options.currency, "0.0", shopCurrency),
    // What puts a refund at risk twice (issue 43) plays no part in allocation.
    totalReceivedSet: { presentmentMoney: { amount: options.refundable, currencyCode: options.currency as CurrencyCode } },
    disputes: [],
    transactions: [],
    suggestedRefund: {
      maximumRefundableSet: bag(options.refundable, options.currency, options.shopRefundable ?? options.refundable, shopCurrency),
      suggestedTransactions: options.payments.map((p) => suggested(p, options.currency, shopCurrency)),
    },
  };
}

const refund = (parent: number, amount: string, gateway: string) => ({
  orderId: ORDER_ID,
  parentId: `gid://shopify/OrderTransaction/${parent}`,
  amount,
  gateway,
  kind: "REFUND",
});

/** A card payment and a gift card, the gift card listed first but captured earlier. */
const split = order({
  currency: "USD",
  refundable: "50.0",
  payments: [
    { id: 1, gateway: "gift_card", refundable: "20.0", createdAt: "2026-03-01T10:00:00Z" },
    { id: 2, gateway: "shopify_payments", refundable: "30.0", createdAt: "2026-03-01T10:05:00Z" },
  ],
});

describe("what can still be refunded on an order", () => {
  it("is Shopify's suggested maximum, in minor units of the presentment currency", () => {
    expect(refundableMinor(split)).toBe(5000n);
    expect(refundableMinor(order({ currency: "USD", refundable: "51.35", payments: [] }))).toBe(5135n);
    expect(refundableMinor(order({ currency: "JPY", refundable: "2500.0", payments: [] }))).toBe(2500n);
    expect(refundableMinor(order({ currency: "KWD", refundable: "1.234", payments: [] }))).toBe(1234n);
  });

  it("is nothing without a suggested refund, or when all has been refunded", () => {
    expect(refundableMinor({ ...split, suggestedRefund: null })).toBe(0n);
    expect(refundableMinor(order({ currency: "USD", refundable: "0.0", payments: [] }))).toBe(0n);
  });

  it("is read in the customer's currency, not the shop's", () => {
    const euros = order({ currency: "EUR", shopCurrency: "USD", refundable: "50.00", shopRefundable: "55.00", payments: [] });
    expect(presentmentCurrency(euros)).toBe("EUR");
    expect(refundableMinor(euros)).toBe(5000n);
  });
});

describe("allocating a refund over the order's payments", () => {
  it("takes a refund that one payment covers from that payment alone", () => {
    const one = order({
      currency: "USD",
      refundable: "50.0",
      payments: [{ id: 7, gateway: "shopify_payments", refundable: "50.0", createdAt: "2026-03-01T10:00:00Z" }],
    });
    expect(allocate(one, 2500n)).toEqual({ transactions: [refund(7, "25.00", "shopify_payments")], unallocated: 0n });
    expect(allocate(one, 5000n)).toEqual({ transactions: [refund(7, "50.00", "shopify_payments")], unallocated: 0n });
  });

  it("takes from the newest capture first", () => {
    expect(allocate(split, 1000n)).toEqual({ transactions: [refund(2, "10.00", "shopify_payments")], unallocated: 0n });
    expect(allocate(split, 3000n)).toEqual({ transactions: [refund(2, "30.00", "shopify_payments")], unallocated: 0n });
  });

  it("splits over two payments, newest first, each up to what it can still refund", () => {
    expect(allocate(split, 4500n)).toEqual({ transactions: [refund(2, "30.00", "shopify_payments"), refund(1, "15.00", "gift_card")], unallocated: 0n });
    expect(allocate(split, 5000n)).toEqual({ transactions: [refund(2, "30.00", "shopify_payments"), refund(1, "20.00", "gift_card")], unallocated: 0n });
  });

  it("orders captures by instant, not by how their times are written", () => {
    // 09:00 in New York is 14:00 UTC: later than the 12:00Z capture.
    const offsets = order({
      currency: "USD",
      refundable: "50.0",
      payments: [
        { id: 1, gateway: "shopify_payments", refundable: "30.0", createdAt: "2026-03-01T09:00:00-05:00" },
        { id: 2, gateway: "gift_card", refundable: "20.0", createdAt: "2026-03-01T12:00:00Z" },
      ],
    });
    expect(allocate(offsets, 4000n).transactions).toEqual([refund(1, "30.00", "shopify_payments"), refund(2, "10.00", "gift_card")]);
  });

  it("leaves what is above the refundable unallocated", () => {
    expect(allocate(split, 6000n)).toEqual({ transactions: [refund(2, "30.00", "shopify_payments"), refund(1, "20.00", "gift_card")], unallocated: 1000n });
    expect(allocate({ ...split, suggestedRefund: null }, 1000n)).toEqual({ transactions: [], unallocated: 1000n });
  });

  it("allocates nothing for zero", () => {
    expect(allocate(split, 0n)).toEqual({ transactions: [], unallocated: 0n });
  });

  it("skips a payment with nothing left on it, or without a parent transaction", () => {
    const partly = order({
      currency: "USD",
      refundable: "20.0",
      payments: [
        { id: 1, gateway: "gift_card", refundable: "20.0", createdAt: "2026-03-01T10:00:00Z" },
        { id: 2, gateway: "shopify_payments", refundable: "0.0", createdAt: "2026-03-01T10:05:00Z" },
      ],
    });
    const suggestions = partly.suggestedRefund!.suggestedTransactions;
    const orphan = { ...suggestions[0], gateway: "cash", parentTransaction: null };
    const noMaximum = { ...suggestions[1], maximumRefundableSet: null };
    const withStrays = { ...partly, suggestedRefund: { ...partly.suggestedRefund!, suggestedTransactions: [orphan, noMaximum, ...suggestions] } };
    expect(allocate(withStrays, 1500n)).toEqual({ transactions: [refund(1, "15.00", "gift_card")], unallocated: 0n });
  });

  it("names the parent's gateway when the suggestion has none, and manual when neither has one", () => {
    const unnamed = order({
      currency: "USD",
      refundable: "30.0",
      payments: [
        { id: 1, gateway: null, parentGateway: null, refundable: "10.0", createdAt: "2026-03-01T10:00:00Z" },
        { id: 2, gateway: null, parentGateway: "bogus", refundable: "20.0", createdAt: "2026-03-01T10:05:00Z" },
      ],
    });
    expect(allocate(unnamed, 3000n).transactions).toEqual([refund(2, "20.00", "bogus"), refund(1, "10.00", "manual")]);
  });
});

describe("currencies with other decimals", () => {
  it("JPY has none: amounts are whole yen", () => {
    const yen = order({
      currency: "JPY",
      refundable: "2500.0",
      payments: [
        { id: 1, gateway: "gift_card", refundable: "1000.0", createdAt: "2026-03-01T10:00:00Z" },
        { id: 2, gateway: "shopify_payments", refundable: "1500.0", createdAt: "2026-03-01T10:05:00Z" },
      ],
    });
    expect(allocate(yen, 2000n)).toEqual({ transactions: [refund(2, "1500", "shopify_payments"), refund(1, "500", "gift_card")], unallocated: 0n });
    expect(allocate(yen, 2600n).unallocated).toBe(100n);
  });

  it("KWD has three", () => {
    const dinars = order({
      currency: "KWD",
      refundable: "1.734",
      payments: [
        { id: 1, gateway: "gift_card", refundable: "0.5", createdAt: "2026-03-01T10:00:00Z" },
        { id: 2, gateway: "shopify_payments", refundable: "1.234", createdAt: "2026-03-01T10:05:00Z" },
      ],
    });
    expect(allocate(dinars, 1500n)).toEqual({ transactions: [refund(2, "1.234", "shopify_payments"), refund(1, "0.266", "gift_card")], unallocated: 0n });
    expect(allocate(dinars, 1n).transactions).toEqual([refund(2, "0.001", "shopify_payments")]);
  });

  it("allocates in the customer's currency, whatever the shop's", () => {
    // A US shop; the customer paid in euros. Shopify takes refund transactions in the presentment currency.
    const euros = order({
      currency: "EUR",
      shopCurrency: "USD",
      refundable: "50.00",
      shopRefundable: "55.00",
      payments: [
        { id: 1, gateway: "gift_card", refundable: "20.00", shopRefundable: "22.00", createdAt: "2026-03-01T10:00:00Z" },
        { id: 2, gateway: "shopify_payments", refundable: "30.00", shopRefundable: "33.00", createdAt: "2026-03-01T10:05:00Z" },
      ],
    });
    expect(allocate(euros, 5000n)).toEqual({ transactions: [refund(2, "30.00", "shopify_payments"), refund(1, "20.00", "gift_card")], unallocated: 0n });
    // Not the shop's 55.00: five euros more is five euros unallocated.
    expect(allocate(euros, 5500n).unallocated).toBe(500n);
    // A yen customer of a dollar shop is refunded in whole yen.
    const yen = order({
      currency: "JPY",
      shopCurrency: "USD",
      refundable: "3000",
      shopRefundable: "20.13",
      payments: [{ id: 3, gateway: "shopify_payments", refundable: "3000", shopRefundable: "20.13", createdAt: "2026-03-01T10:00:00Z" }],
    });
    expect(allocate(yen, 3000n)).toEqual({ transactions: [refund(3, "3000", "shopify_payments")], unallocated: 0n });
  });
});
