import { describe, expect, it } from "vitest";
import { moneyAtRisk, orderDisputes, orderMoney, STORE_CREDIT_GATEWAY, type DisputeDetails, type ExposureOrder } from "../../app/exposure/order-exposure";

const usd = (amount: string) => ({ presentmentMoney: { amount, currencyCode: "USD" } });
const LINE = "gid://shopify/LineItem/1";

function refund(id: number, parts: { amount: string; gateway?: string }[], lines: number[] = [], createdAt = "2026-12-01T10:00:00Z") {
  const total = parts.reduce((sum, p) => sum + Number(p.amount) * 100, 0);
  return {
    id: `gid://shopify/Refund/${id}`,
    createdAt,
    totalRefundedSet: usd((total / 100).toFixed(2)),
    transactions: { nodes: parts.map((p) => ({ kind: "REFUND", status: "SUCCESS", gateway: p.gateway ?? "shopify_payments", amountSet: usd(p.amount) })) },
    refundLineItems: { nodes: lines.map((quantity) => ({ quantity, lineItem: { id: LINE, quantity: 2 } })) },
  };
}

const order = (refunds: ExposureOrder["refunds"], disputes: ExposureOrder["disputes"] = [], paid = "100.00"): ExposureOrder => ({
  id: "gid://shopify/Order/1",
  totalReceivedSet: usd(paid),
  disputes,
  refunds,
});

const dispute = (status: string, id = 1) => ({ id: `gid://shopify/ShopifyPaymentsDispute/${id}`, status, initiatedAs: "CHARGEBACK" });
const details = (id: number, initiatedAt: string, reason = "FRAUDULENT", amount = "100.00"): [string, DisputeDetails] => [
  `gid://shopify/ShopifyPaymentsDispute/${id}`,
  {
    id: `gid://shopify/ShopifyPaymentsDispute/${id}`,
    status: "NEEDS_RESPONSE",
    amount: { amount, currencyCode: "USD" },
    reasonDetails: { reason },
    initiatedAt,
    evidenceDueBy: null,
    finalizedOn: null,
  },
];

describe("the order's money", () => {
  it("two partial refunds within what was paid: nothing over, no store credit", () => {
    expect(orderMoney(order([refund(1, [{ amount: "30.00" }]), refund(2, [{ amount: "70.00" }])]))).toMatchObject({
      refunded: "100.00",
      over_refunded_by: "0.00",
      store_credit_and_payment: false,
      lines_refunded_past_ordered: 0,
    });
  });

  it("store credit then the card for the whole order: 100.00 over, store credit and payment", () => {
    const money = orderMoney(order([refund(1, [{ amount: "100.00", gateway: STORE_CREDIT_GATEWAY }]), refund(2, [{ amount: "100.00" }])]));
    expect(money).toMatchObject({
      refunded: "200.00",
      over_refunded_by: "100.00",
      to_store_credit: "100.00",
      to_payment: "100.00",
      store_credit_and_payment: true,
    });
  });

  it("store credit for one item and the card for the other, within what was paid, is two honest refunds", () => {
    const money = orderMoney(order([refund(1, [{ amount: "50.00", gateway: STORE_CREDIT_GATEWAY }], [1]), refund(2, [{ amount: "50.00" }], [1])]));
    expect(money).toMatchObject({ over_refunded_by: "0.00", store_credit_and_payment: false, lines_refunded_past_ordered: 0 });
  });

  it("an item refunded three times of two ordered is counted, even within the money paid", () => {
    expect(orderMoney(order([refund(1, [{ amount: "10.00" }], [2]), refund(2, [{ amount: "10.00" }], [1])])).lines_refunded_past_ordered).toBe(1);
  });

  it("a refund is over what was paid only by what it added past it: the refunds before it are within the payment", () => {
    const refunds = [
      refund(1, [{ amount: "40.00" }], [], "2026-12-01T10:00:00Z"),
      refund(2, [{ amount: "40.00" }], [], "2026-12-01T10:00:04Z"),
      refund(3, [{ amount: "40.00" }], [], "2026-12-01T10:00:09Z"),
    ];
    const of = (id: number) => orderMoney(order(refunds), `gid://shopify/Refund/${id}`).over_refunded_by;
    expect([of(1), of(2), of(3)]).toEqual(["0.00", "0.00", "20.00"]);
  });

  it("store credit first and the card later: the later refund is the one that pays twice", () => {
    const refunds = [
      refund(1, [{ amount: "100.00", gateway: STORE_CREDIT_GATEWAY }], [], "2026-12-01T10:00:00Z"),
      refund(2, [{ amount: "100.00" }], [], "2026-12-03T10:00:00Z"),
    ];
    expect(orderMoney(order(refunds), "gid://shopify/Refund/1")).toMatchObject({ over_refunded_by: "0.00", store_credit_and_payment: false });
    expect(orderMoney(order(refunds), "gid://shopify/Refund/2")).toMatchObject({ over_refunded_by: "100.00", store_credit_and_payment: true });
  });

  it("a failed refund transaction moved no money", () => {
    const failed = refund(1, [{ amount: "100.00" }]);
    failed.transactions.nodes[0].status = "FAILURE";
    expect(orderMoney(order([failed])).to_payment).toBe("0.00");
  });
});

describe("the order's disputes", () => {
  const refunded = new Date("2026-12-01T10:00:00Z");

  it("open, lost and ended disputes are told apart; WON, PREVENTED and CHARGE_REFUNDED count as neither", () => {
    const summary = orderDisputes(
      order(
        [],
        [
          dispute("NEEDS_RESPONSE", 1),
          dispute("UNDER_REVIEW", 2),
          dispute("LOST", 3),
          dispute("ACCEPTED", 4),
          dispute("WON", 5),
          dispute("PREVENTED", 6),
          dispute("CHARGE_REFUNDED", 7),
        ],
      ),
      refunded,
      null,
    );
    expect(summary).toMatchObject({ open: 2, lost: 2, details: false, lost_amount: null });
  });

  it("without the details, what only they tell is unknown, never 0", () => {
    const summary = orderDisputes(order([], [dispute("NEEDS_RESPONSE")]), refunded, null);
    expect(summary.open_after_refund).toBeUndefined();
    expect(summary.open_credit_not_processed).toBeUndefined();
  });

  it("with the details: opened after the refund, and one saying the credit never came", () => {
    const summary = orderDisputes(
      order([], [dispute("NEEDS_RESPONSE", 1), dispute("NEEDS_RESPONSE", 2)]),
      refunded,
      new Map([details(1, "2026-12-02T00:00:00Z", "CREDIT_NOT_PROCESSED"), details(2, "2026-11-30T00:00:00Z")]),
    );
    expect(summary).toMatchObject({ open: 2, open_after_refund: 1, open_credit_not_processed: 1 });
  });

  it("the money at risk: a lost dispute's amount, else the open ones', else the refund's own", () => {
    const money = orderMoney(order([refund(1, [{ amount: "40.00" }])]));
    const lost = orderDisputes(order([], [{ ...dispute("LOST", 1) }]), refunded, new Map([details(1, "2026-12-02T00:00:00Z", "FRAUDULENT", "80.00")]));
    expect(moneyAtRisk(money, lost, { amount: "40.00", currency: "USD" })).toEqual({ amount: "80.00", currency: "USD" });
    const unknown = orderDisputes(order([], [dispute("NEEDS_RESPONSE")]), refunded, null);
    expect(moneyAtRisk(money, unknown, { amount: "40.00", currency: "USD" })).toEqual({ amount: "40.00", currency: "USD" });
    expect(moneyAtRisk(money, orderDisputes(order([]), refunded, null), null)).toBeNull();
  });
});
