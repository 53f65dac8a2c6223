import { describe, expect, it } from "vitest";
import { requestedQueryCost } from "../../fake-shopify/cost";
import type { FakeShopify } from "../../fake-shopify/server";
import type { FakeShop } from "../../fake-shopify/shop";
import { graphql, orderGid, refundGid, setup } from "./support";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse("2026-12-01T10:00:00Z");

const LEDGER = `query Ledger($query: String, $first: Int = 10, $after: String) {
  shopifyPaymentsAccount {
    balanceTransactions(first: $first, after: $after, query: $query) {
      nodes {
        id type sourceType sourceId sourceOrderTransactionId transactionDate test
        amount { amount currencyCode } fee { amount } net { amount }
        associatedPayout { id status }
        associatedOrder { id name }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

const PAYOUTS = `query Payouts($query: String) {
  shopifyPaymentsAccount { payouts(first: 10, query: $query) { nodes { id legacyResourceId status issuedAt net { amount currencyCode } transactionType externalTraceId } } }
}`;

const ARN = `query Arn($id: ID!) {
  refund(id: $id) { transactions(first: 5) { nodes { gateway shopifyPaymentsSet { refundSet { acquirerReferenceNumber } } } } }
}`;

type Node = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The app's view of Shopify's clock: a test moves it. */
const at = (shopify: FakeShopify, ms: number) => (shopify.now = () => new Date(ms));

async function ledger(shopify: FakeShopify, variables: Record<string, unknown> = {}) {
  const { body } = await graphql(shopify, LEDGER, variables);
  expect(body.errors).toBeUndefined();
  return body.data.shopifyPaymentsAccount.balanceTransactions as { nodes: Node[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

async function payoutStatuses(shopify: FakeShopify) {
  return (await ledger(shopify)).nodes.map((n) => n.associatedPayout.status);
}

/** A refund of `amount` on a fresh shopify_payments order, at the clock's now; its one REFUND transaction. */
function refundOn(shop: FakeShop, amount: string, options: { gateway?: string } = {}) {
  const order = shop.createOrder({ amount: "100.00", gateway: options.gateway });
  const refund = shop.createRefund(order.id, { amount });
  return { order, refund, transaction: shop.transactions.get(refund.transactionIds[0])! };
}

describe("a refund through Shopify Payments in the balance", () => {
  it("is a REFUND debiting the balance, PENDING until payoutAfterMs, then in a SCHEDULED payout, PAID from paidAfterMs", async () => {
    const { shopify, shop } = setup();
    at(shopify, T0);
    const { order, transaction } = refundOn(shop, "25.00");

    const [pending] = (await ledger(shopify)).nodes;
    expect(pending).toEqual({
      id: `gid://shopify/ShopifyPaymentsBalanceTransaction/${transaction.id * 10n + 1n}`,
      type: "REFUND",
      sourceType: "REFUND",
      // BigInt scalars are strings of digits, beyond 2^53 intact.
      sourceId: String(transaction.id),
      sourceOrderTransactionId: String(transaction.id),
      transactionDate: "2026-12-01T10:00:00Z",
      test: false,
      amount: { amount: "-25.0", currencyCode: "USD" },
      fee: { amount: "0.0" },
      net: { amount: "-25.0" },
      associatedPayout: { id: null, status: "PENDING" },
      associatedOrder: { id: orderGid(order.id), name: order.name },
    });
    const balance = await graphql(
      shopify,
      `
        {
          shopifyPaymentsAccount {
            activated
            defaultCurrency
            balance {
              amount
              currencyCode
            }
            payoutSchedule {
              interval
            }
          }
        }
      `,
    );
    expect(balance.body.data.shopifyPaymentsAccount).toEqual({
      activated: true,
      defaultCurrency: "USD",
      balance: [{ amount: "-25.0", currencyCode: "USD" }],
      payoutSchedule: { interval: "DAILY" },
    });
    expect((await graphql(shopify, PAYOUTS)).body.data.shopifyPaymentsAccount.payouts.nodes).toEqual([]);

    at(shopify, T0 + DAY - 1000);
    expect(await payoutStatuses(shopify)).toEqual(["PENDING"]);

    at(shopify, T0 + DAY);
    const [scheduled] = (await ledger(shopify)).nodes;
    expect(scheduled.associatedPayout).toEqual({ id: expect.stringMatching(/^gid:\/\/shopify\/ShopifyPaymentsPayout\/\d+$/), status: "SCHEDULED" });
    const [payout] = (await graphql(shopify, PAYOUTS)).body.data.shopifyPaymentsAccount.payouts.nodes;
    expect(payout).toEqual({
      id: scheduled.associatedPayout.id,
      legacyResourceId: scheduled.associatedPayout.id.split("/").pop(),
      status: "SCHEDULED",
      issuedAt: "2026-12-02T10:00:00Z",
      net: { amount: "-25.0", currencyCode: "USD" },
      // A payout of refunds only takes money from the bank account.
      transactionType: "WITHDRAWAL",
      externalTraceId: null,
    });

    at(shopify, T0 + 3 * DAY - 1000);
    expect(await payoutStatuses(shopify)).toEqual(["SCHEDULED"]);
    at(shopify, T0 + 3 * DAY);
    const [paid] = (await ledger(shopify)).nodes;
    expect(paid.associatedPayout).toEqual({ id: scheduled.associatedPayout.id, status: "PAID" });
    const [paidPayout] = (await graphql(shopify, PAYOUTS)).body.data.shopifyPaymentsAccount.payouts.nodes;
    expect(paidPayout).toMatchObject({ status: "PAID", externalTraceId: expect.stringMatching(/^\d{15}$/) });
  });

  it("reports the deprecated IN_TRANSIT instead of SCHEDULED when told to", async () => {
    const { shopify, shop } = setup();
    at(shopify, T0);
    refundOn(shop, "5.00");
    shop.payments.reportInTransit = true;
    at(shopify, T0 + 2 * DAY);
    expect(await payoutStatuses(shopify)).toEqual(["IN_TRANSIT"]);
    at(shopify, T0 + 3 * DAY);
    expect(await payoutStatuses(shopify)).toEqual(["PAID"]);
  });

  it("follows the schedule a test sets", async () => {
    const { shopify, shop } = setup();
    shop.payments.schedule = { payoutAfterMs: HOUR, paidAfterMs: 2 * HOUR, arnAfterMs: 0 };
    at(shopify, T0);
    refundOn(shop, "5.00");
    expect(await payoutStatuses(shopify)).toEqual(["PENDING"]);
    at(shopify, T0 + HOUR);
    expect(await payoutStatuses(shopify)).toEqual(["SCHEDULED"]);
    at(shopify, T0 + 2 * HOUR);
    expect(await payoutStatuses(shopify)).toEqual(["PAID"]);
  });

  it("groups a day's refunds into one payout; one that would join it after it was paid goes into the day's next payout", async () => {
    const { shopify, shop } = setup();
    shop.payments.schedule = { payoutAfterMs: HOUR, paidAfterMs: 2 * HOUR, arnAfterMs: 0 };
    for (const offset of [0, HOUR / 2, 3 * HOUR]) {
      at(shopify, T0 + offset);
      refundOn(shop, "1.00");
    }
    at(shopify, T0 + 5 * HOUR);
    const payouts = (await ledger(shopify)).nodes.map((n) => n.associatedPayout);
    expect(payouts.map((p) => p.status)).toEqual(["PAID", "PAID", "PAID"]);
    expect(payouts[0].id).toBe(payouts[1].id);
    expect(payouts[2].id).not.toBe(payouts[0].id);
    const nets = (await graphql(shopify, PAYOUTS)).body.data.shopifyPaymentsAccount.payouts.nodes.map((p: Node) => p.net.amount);
    expect(nets).toEqual(["-2.0", "-1.0"]);
  });

  it("a failed or canceled payout: every transaction it carries sees that status from paidAfterMs, SCHEDULED before", async () => {
    const { shopify, shop } = setup();
    at(shopify, T0);
    const first = refundOn(shop, "10.00");
    refundOn(shop, "20.00");
    shop.payments.failPayout(first.transaction.id, "FAILED");
    at(shopify, T0 + 2 * DAY);
    expect(await payoutStatuses(shopify)).toEqual(["SCHEDULED", "SCHEDULED"]);
    at(shopify, T0 + 3 * DAY);
    const nodes = (await ledger(shopify)).nodes;
    expect(nodes.map((n) => n.associatedPayout.status)).toEqual(["FAILED", "FAILED"]);
    expect(nodes[0].associatedPayout.id).toBe(nodes[1].associatedPayout.id);
    const [payout] = (await graphql(shopify, PAYOUTS)).body.data.shopifyPaymentsAccount.payouts.nodes;
    expect(payout).toMatchObject({ status: "FAILED", net: { amount: "-30.0" }, externalTraceId: null });
    shop.payments.failPayout(first.transaction.id, "CANCELED");
    expect(await payoutStatuses(shopify)).toEqual(["CANCELED", "CANCELED"]);
  });

  it("records the amount a test sets instead of the refund's", async () => {
    const { shopify, shop } = setup();
    const { transaction } = refundOn(shop, "25.00");
    shop.payments.setBalanceAmount(transaction.id, "24.50");
    const [node] = (await ledger(shopify)).nodes;
    expect([node.amount.amount, node.net.amount]).toEqual(["-24.5", "-24.5"]);
  });

  it("converts a refund in another presentment currency at the order's exchange rate, into the shop's currency", async () => {
    const { shopify, shop } = setup();
    const order = shop.createOrder({ amount: "100.00", presentmentCurrency: "EUR", exchangeRate: "1.0850" });
    shop.createRefund(order.id, { amount: "10.00" });
    const [node] = (await ledger(shopify)).nodes;
    expect(node.amount).toEqual({ amount: "-10.85", currencyCode: "USD" });
  });

  it("a reversed refund adds a REFUND_FAILURE crediting the balance back, dated when it failed", async () => {
    const { shopify, shop } = setup();
    at(shopify, T0);
    const { transaction } = refundOn(shop, "25.00");
    at(shopify, T0 + 5 * HOUR);
    shop.payments.reverse(transaction.id);
    const nodes = (await ledger(shopify)).nodes;
    expect(nodes.map((n) => [n.type, n.sourceType, n.sourceOrderTransactionId, n.amount.amount, n.transactionDate])).toEqual([
      ["REFUND", "REFUND", String(transaction.id), "-25.0", "2026-12-01T10:00:00Z"],
      ["REFUND_FAILURE", "REFUND", String(transaction.id), "25.0", "2026-12-01T15:00:00Z"],
    ]);
    expect(nodes[0].id).not.toBe(nodes[1].id);
    expect(() => shop.payments.reverse(transaction.id)).toThrow(/reversed already/);
  });

  it("a withheld refund has no balance transaction until it is released", async () => {
    const { shopify, shop } = setup();
    const { transaction } = refundOn(shop, "25.00");
    shop.payments.withhold(transaction.id);
    expect((await ledger(shopify)).nodes).toEqual([]);
    shop.payments.release(transaction.id);
    expect((await ledger(shopify)).nodes).toHaveLength(1);
  });

  it("has none for a refund on another gateway, or one that failed", async () => {
    const { shopify, shop } = setup();
    const { refund } = refundOn(shop, "25.00", { gateway: "paypal" });
    const order = shop.createOrder({ amount: "50.00" });
    shop.createRefund(order.id, { amount: "5.00", status: "FAILURE" });
    expect((await ledger(shopify)).nodes).toEqual([]);
    const { body } = await graphql(shopify, ARN, { id: refundGid(refund.id) });
    expect(body.data.refund.transactions.nodes).toEqual([{ gateway: "paypal", shopifyPaymentsSet: null }]);
  });
});

describe("the ARN of a Shopify Payments refund", () => {
  const luhnValid = (digits: string) =>
    [...digits].reverse().reduce((sum, c, i) => {
      const d = Number(c) * (i % 2 ? 2 : 1);
      return sum + (d > 9 ? d - 9 : d);
    }, 0) %
      10 ===
    0;

  it("is null until arnAfterMs, then 23 digits, the same on every read", async () => {
    const { shopify, shop } = setup();
    at(shopify, T0);
    const { refund } = refundOn(shop, "25.00");
    const arn = async () => (await graphql(shopify, ARN, { id: refundGid(refund.id) })).body.data.refund.transactions.nodes[0].shopifyPaymentsSet;
    expect(await arn()).toEqual({ refundSet: { acquirerReferenceNumber: null } });
    at(shopify, T0 + DAY);
    const { acquirerReferenceNumber } = (await arn()).refundSet;
    expect(acquirerReferenceNumber).toMatch(/^\d{23}$/);
    expect(luhnValid(acquirerReferenceNumber)).toBe(true);
    expect((await arn()).refundSet.acquirerReferenceNumber).toBe(acquirerReferenceNumber);
  });

  it("is not there at all on a shop without Shopify Plus: shopifyPaymentsSet is null", async () => {
    const { shopify, shop } = setup();
    at(shopify, T0);
    const { refund } = refundOn(shop, "25.00");
    shop.payments.plus = false;
    at(shopify, T0 + DAY);
    const { body } = await graphql(shopify, ARN, { id: refundGid(refund.id) });
    expect(body.errors).toBeUndefined();
    expect(body.data.refund.transactions.nodes).toEqual([{ gateway: "shopify_payments", shopifyPaymentsSet: null }]);
  });
});

describe("the account", () => {
  it("answers the payout schedule a test sets for its shop, as ShopifyPaymentsPayoutSchedule types it; daily by default", async () => {
    const { shopify, shop } = setup();
    const SCHEDULE = `query { shopifyPaymentsAccount { country payoutSchedule { interval weeklyAnchor monthlyAnchor } } }`;
    expect((await graphql(shopify, SCHEDULE)).body.data.shopifyPaymentsAccount).toEqual({
      country: "US",
      payoutSchedule: { interval: "DAILY", weeklyAnchor: null, monthlyAnchor: null },
    });
    shop.payments.payoutSchedule = { interval: "MONTHLY", weeklyAnchor: null, monthlyAnchor: 31 };
    shop.payments.country = "CA";
    expect((await graphql(shopify, SCHEDULE)).body.data.shopifyPaymentsAccount).toEqual({
      country: "CA",
      payoutSchedule: { interval: "MONTHLY", weeklyAnchor: null, monthlyAnchor: 31 },
    });
    // What the schema's types cannot hold is refused when set, not answered.
    expect(() => (shop.payments.payoutSchedule = { interval: "FORTNIGHTLY" as never, weeklyAnchor: null, monthlyAnchor: null })).toThrow(
      /ShopifyPaymentsPayoutInterval/,
    );
    expect(() => (shop.payments.payoutSchedule = { interval: "WEEKLY", weeklyAnchor: "FRI" as never, monthlyAnchor: null })).toThrow(/DayOfTheWeek/);
    expect(() => (shop.payments.payoutSchedule = { interval: "MONTHLY", weeklyAnchor: null, monthlyAnchor: 32 })).toThrow(/day of the month/);
  });

  it("is null for a shop without Shopify Payments", async () => {
    const { shopify, shop } = setup();
    refundOn(shop, "25.00");
    shop.payments.account = "none";
    const { body } = await graphql(shopify, LEDGER);
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ shopifyPaymentsAccount: null });
  });

  it("without access to payouts: ACCESS_DENIED at balanceTransactions, the whole account null, nothing of the ledger leaked", async () => {
    const { shopify, shop } = setup();
    const { transaction } = refundOn(shop, "25.00");
    shop.grantedScopes.delete("read_shopify_payments_payouts");
    const { status, body } = await graphql(
      shopify,
      `
        {
          shopifyPaymentsAccount {
            id
            balanceTransactions(first: 5) {
              nodes {
                amount {
                  amount
                }
                sourceOrderTransactionId
              }
            }
          }
        }
      `,
    );
    expect(status).toBe(200);
    expect(body.data).toEqual({ shopifyPaymentsAccount: null });
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({
      path: ["shopifyPaymentsAccount", "balanceTransactions"],
      extensions: { code: "ACCESS_DENIED", requiredAccess: "`read_shopify_payments_payouts` access scope." },
    });
    expect(JSON.stringify(body)).not.toContain(String(transaction.id));
    expect(JSON.stringify(body)).not.toContain("25.0");
    // The account itself stays readable with the accounts scope.
    const account = await graphql(
      shopify,
      `
        {
          shopifyPaymentsAccount {
            activated
          }
        }
      `,
    );
    expect(account.body.data).toEqual({ shopifyPaymentsAccount: { activated: true } });
  });

  it("without an accounts scope: ACCESS_DENIED at shopifyPaymentsAccount, even with the payouts scope (the schema's access rule)", async () => {
    const { shopify, shop } = setup();
    refundOn(shop, "25.00");
    shop.grantedScopes = new Set(["read_orders", "write_orders", "read_shopify_payments_payouts"]);
    const { body } = await graphql(shopify, LEDGER);
    expect(body.data).toEqual({ shopifyPaymentsAccount: null });
    expect(body.errors[0]).toMatchObject({
      message: expect.stringMatching(/^Access denied for shopifyPaymentsAccount field\./),
      path: ["shopifyPaymentsAccount"],
      extensions: { code: "ACCESS_DENIED" },
    });
    shop.grantedScopes.add("read_shopify_payments");
    expect((await ledger(shopify)).nodes).toHaveLength(1);
  });
});

describe("searching and paging the balance transactions", () => {
  /**
   * Refunds of 1, 2 and 3 at T0, T0 + 2 h and T0 + 30 h, the first reversed at T0 + 31 h, when the
   * clock stays: the first two are in a payout, the third and the reversal are pending.
   */
  function threeRefunds() {
    const { shopify, shop } = setup();
    const refunds = [0, 2 * HOUR, 30 * HOUR].map((offset, i) => {
      at(shopify, T0 + offset);
      return refundOn(shop, `${i + 1}.00`);
    });
    at(shopify, T0 + 31 * HOUR);
    shop.payments.reverse(refunds[0].transaction.id);
    return { shopify, shop, refunds };
  }
  const amounts = async (shopify: FakeShopify, query: string) => (await ledger(shopify, { query })).nodes.map((n) => n.amount.amount);

  it("by transaction type, alone or OR-ed", async () => {
    const { shopify } = threeRefunds();
    expect(await amounts(shopify, "transaction_type:refund")).toEqual(["-1.0", "-2.0", "-3.0"]);
    expect(await amounts(shopify, "transaction_type:refund_failure")).toEqual(["1.0"]);
    expect(await amounts(shopify, "(transaction_type:refund OR transaction_type:refund_failure)")).toEqual(["-1.0", "-2.0", "-3.0", "1.0"]);
  });

  it("by processed_at, bare or quoted, with each comparator, AND-ed with other terms", async () => {
    const { shopify } = threeRefunds();
    expect(await amounts(shopify, "processed_at:>=2026-12-01T12:00:00Z")).toEqual(["-2.0", "-3.0", "1.0"]);
    expect(await amounts(shopify, "processed_at:>'2026-12-01T12:00:00Z'")).toEqual(["-3.0", "1.0"]);
    expect(await amounts(shopify, 'processed_at:<"2026-12-01T12:00:00Z"')).toEqual(["-1.0"]);
    expect(await amounts(shopify, "processed_at:<=2026-12-01T12:00:00Z")).toEqual(["-1.0", "-2.0"]);
    expect(await amounts(shopify, "transaction_type:refund processed_at:>2026-12-01T12:00:00Z")).toEqual(["-3.0"]);
  });

  it("by payout status", async () => {
    const { shopify } = threeRefunds();
    expect(await amounts(shopify, "payout_status:scheduled")).toEqual(["-1.0", "-2.0"]);
    expect(await amounts(shopify, "payout_status:pending")).toEqual(["-3.0", "1.0"]);
    at(shopify, T0 + 3 * DAY);
    expect(await amounts(shopify, "payout_status:paid")).toEqual(["-1.0", "-2.0"]);
    expect(await amounts(shopify, "payout_status:failed")).toEqual([]);
  });

  it("ignores a search field it does not serve", async () => {
    const { shopify } = threeRefunds();
    expect(await amounts(shopify, "credit_card_last4:4242 transaction_type:refund_failure")).toEqual(["1.0"]);
  });

  it("pages with first and after; an unfinished page says hasNextPage", async () => {
    const { shopify } = threeRefunds();
    const page1 = await ledger(shopify, { first: 2 });
    expect(page1.nodes.map((n) => n.amount.amount)).toEqual(["-1.0", "-2.0"]);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = await ledger(shopify, { first: 2, after: page1.pageInfo.endCursor });
    expect(page2.nodes.map((n) => n.amount.amount)).toEqual(["-3.0", "1.0"]);
    expect(page2.pageInfo.hasNextPage).toBe(false);
  });

  it("payouts by status", async () => {
    const { shopify } = threeRefunds();
    at(shopify, T0 + 3 * DAY);
    const { body } = await graphql(shopify, PAYOUTS, { query: "status:paid" });
    expect(body.data.shopifyPaymentsAccount.payouts.nodes.map((p: Node) => p.net.amount)).toEqual(["-3.0"]);
    const scheduled = await graphql(shopify, PAYOUTS, { query: "status:scheduled issued_at:>=2026-12-03T00:00:00Z" });
    // The third refund's payout nets -3 + the reversal's +1.
    expect(scheduled.body.data.shopifyPaymentsAccount.payouts.nodes.map((p: Node) => [p.net.amount, p.transactionType])).toEqual([["-2.0", "WITHDRAWAL"]]);
  });
});

describe("the cost of reading the ledger", () => {
  const PAGE = `{ shopifyPaymentsAccount { balanceTransactions(first: 100) { nodes { id type amount { amount } associatedPayout { id status } } pageInfo { hasNextPage } } } }`;

  it("is priced like any connection: 2 + first × each node (itself 1, amount 1, associatedPayout 1), pageInfo once, the account 1", async () => {
    expect(requestedQueryCost(PAGE)).toBe(1 + 2 + 100 * 3 + 1);
    const { shopify, shop } = setup();
    for (const amount of ["1.00", "2.00", "3.00"]) refundOn(shop, amount);
    const { body } = await graphql(shopify, PAGE);
    expect(body.extensions.cost).toMatchObject({ requestedQueryCost: 304, actualQueryCost: 1 + 2 + 3 * 3 + 1 });
  });
});
