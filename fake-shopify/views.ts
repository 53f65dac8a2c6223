import { GraphQLError } from "graphql";
import { shopifyDecimal } from "./money";
import type { FakeOrder, FakeRefund, FakeShop, FakeTransaction } from "./shop";

export const gid = (type: string, id: bigint) => `gid://shopify/${type}/${id}`;

export function parseGid(value: string, type?: string): { type: string; id: bigint } | undefined {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)$/.exec(value);
  if (!match || (type && match[1] !== type)) return undefined;
  return { type: match[1], id: BigInt(match[2]) };
}

/** Whole seconds, UTC, as the Admin API stamps its records. */
export const dateTime = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

export const money = (minor: bigint, currency: string) => ({ amount: shopifyDecimal(minor, currency), currencyCode: currency });

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  reverse?: boolean | null;
}

const encodeCursor = (index: number) => Buffer.from(JSON.stringify({ last_id: index })).toString("base64");
const decodeCursor = (cursor: string) => (JSON.parse(Buffer.from(cursor, "base64").toString()) as { last_id: number }).last_id;

/** A Relay connection over a list, with the edges / nodes / pageInfo shape Shopify returns. */
export function connection<T, V>(items: T[], args: PageArgs, view: (item: T) => V) {
  const ordered = args.reverse ? [...items].reverse() : items;
  let start = args.after ? decodeCursor(args.after) + 1 : 0;
  let end = args.before ? decodeCursor(args.before) : ordered.length;
  if (args.first != null) end = Math.min(end, start + args.first);
  if (args.last != null) start = Math.max(start, end - args.last);
  const slice = ordered.slice(start, end).map((item, offset) => ({ index: start + offset, node: view(item) }));
  return {
    edges: slice.map(({ index, node }) => ({ cursor: encodeCursor(index), node })),
    nodes: slice.map(({ node }) => node),
    pageInfo: {
      hasNextPage: end < ordered.length,
      hasPreviousPage: start > 0,
      startCursor: slice.length ? encodeCursor(slice[0].index) : null,
      endCursor: slice.length ? encodeCursor(slice[slice.length - 1].index) : null,
    },
  };
}

/**
 * The error Shopify answers, per element, for a record the app may not read. With `requiredAccess`
 * (the schema's wording, "`read_shopify_payments_payouts` access scope.") it says what was missing,
 * as Shopify's answers for a missing scope do.
 */
export const accessDenied = (type: string, requiredAccess?: string) =>
  requiredAccess === undefined
    ? new GraphQLError(`Access denied for ${type} field.`, { extensions: { code: "ACCESS_DENIED" } })
    : new GraphQLError(`Access denied for ${type} field. Required access: ${requiredAccess}`, {
        extensions: { code: "ACCESS_DENIED", documentation: "https://shopify.dev/api/usage/access-scopes", requiredAccess },
      });

/**
 * The records as the published 2026-10 types expose them. Only what the app may select is here;
 * graphql-js resolves `__typename` of an abstract field (`nodes` returns `[Node]!`) from the
 * `__typename` each view carries.
 */
export class Views {
  constructor(private readonly shop: FakeShop) {}

  /**
   * A MoneyBag of an order: `presentmentMinors` are amounts in the order's presentment currency;
   * shopMoney converts each and adds them, so a total's shop amount is the sum of its parts'.
   */
  moneyBag(order: FakeOrder, ...presentmentMinors: bigint[]) {
    const presentment = presentmentMinors.reduce((sum, m) => sum + m, 0n);
    const shop = presentmentMinors.reduce((sum, m) => sum + this.shop.shopMinor(order, m), 0n);
    return { shopMoney: money(shop, order.currency), presentmentMoney: money(presentment, order.presentmentCurrency) };
  }

  transaction = (t: FakeTransaction): Record<string, unknown> => {
    const order = this.shop.orders.get(t.orderId)!;
    return {
      __typename: "OrderTransaction",
      id: gid("OrderTransaction", t.id),
      kind: t.kind,
      status: t.status,
      gateway: t.gateway,
      formattedGateway: t.gateway === "shopify_payments" ? "Shopify Payments" : t.gateway,
      amountSet: this.moneyBag(order, t.amountMinor),
      errorCode: t.errorCode,
      createdAt: dateTime(t.createdAt),
      processedAt: dateTime(t.createdAt),
      parentTransaction: () => (t.parentId ? this.transaction(this.shop.transactions.get(t.parentId)!) : null),
      test: false,
      order: () => this.order(order),
      paymentId: `c${t.orderId}.1`,
      manualPaymentGateway: t.gateway === "manual",
      manuallyCapturable: false,
      multiCapturable: false,
      fees: [],
      shopifyPaymentsSet: () => this.shopifyPaymentsSet(t),
    };
  };

  /**
   * "Contains all Shopify Payments information related to an order transaction. This field is
   * available only to stores on a Shopify Plus plan": null elsewhere, and for other gateways.
   */
  private shopifyPaymentsSet(t: FakeTransaction) {
    const payments = this.shop.payments;
    if (!payments.plus || t.gateway !== "shopify_payments") return null;
    return {
      extendedAuthorizationSet: null,
      refundSet: t.kind === "REFUND" ? { acquirerReferenceNumber: payments.acquirerReferenceNumber(t) } : null,
    };
  }

  refund = (r: FakeRefund): Record<string, unknown> => {
    const order = this.shop.orders.get(r.orderId)!;
    const transactions = r.transactionIds.map((id) => this.shop.transactions.get(id)!);
    return {
      __typename: "Refund",
      id: gid("Refund", r.id),
      legacyResourceId: r.id.toString(),
      createdAt: dateTime(r.createdAt),
      processedAt: dateTime(r.processedAt),
      updatedAt: dateTime(r.updatedAt),
      note: r.note,
      order: () => this.order(order),
      totalRefundedSet:
        r.totalOverrideMinor === null ? this.moneyBag(order, ...transactions.map((t) => t.amountMinor)) : this.moneyBag(order, r.totalOverrideMinor),
      transactions: (args: PageArgs) => connection(transactions, args, this.transaction),
      // This fake's refunds return money only: no line items, shipping, duties or adjustments.
      refundLineItems: (args: PageArgs) => connection([], args, (x) => x),
      refundShippingLines: (args: PageArgs) => connection([], args, (x) => x),
      orderAdjustments: (args: PageArgs) => connection([], args, (x) => x),
      duties: [],
      return: null,
      staffMember: null,
    };
  };

  refundAgreement = (r: FakeRefund): Record<string, unknown> => ({
    __typename: "RefundAgreement",
    id: gid("SalesAgreement", r.id),
    happenedAt: dateTime(r.createdAt),
    reason: "REFUND",
    refund: () => this.refund(r),
    app: null,
    user: null,
    sales: (args: PageArgs) => connection([], args, (x) => x),
  });

  order = (o: FakeOrder): Record<string, unknown> => {
    const visibleRefunds = o.refundIds.map((id) => this.shop.refunds.get(id)!).filter((r) => this.shop.isVisible(r));
    const received = this.shop.captures(o).map((t) => t.amountMinor);
    return {
      __typename: "Order",
      id: gid("Order", o.id),
      legacyResourceId: o.id.toString(),
      name: o.name,
      createdAt: dateTime(o.createdAt),
      updatedAt: dateTime(o.updatedAt),
      processedAt: dateTime(o.createdAt),
      currencyCode: o.currency,
      presentmentCurrencyCode: o.presentmentCurrency,
      totalPriceSet: this.moneyBag(o, o.totalMinor),
      totalRefundedSet: this.moneyBag(o, ...visibleRefunds.map((r) => this.shop.refundTotalMinor(r))),
      totalReceivedSet: this.moneyBag(o, ...received),
      // A plain list, no cursor: up to `first`, or every refund without it.
      refunds: ({ first }: { first?: number | null }) => visibleRefunds.slice(0, first ?? undefined).map(this.refund),
      transactions: ({ first }: { first?: number | null }) =>
        this.shop
          .orderTransactions(o)
          .slice(0, first ?? undefined)
          .map(this.transaction),
      // Shopify records a RefundAgreement for every refund; this fake's orders have no other agreements.
      agreements: (args: PageArgs) => connection(visibleRefunds, args, this.refundAgreement),
      suggestedRefund: ({ suggestFullRefund }: { suggestFullRefund?: boolean }) => this.suggestedRefund(o, Boolean(suggestFullRefund)),
    };
  };

  /** One suggested transaction per capture with money left on it, as for a payment split over gateways. */
  private suggestedRefund(o: FakeOrder, full: boolean) {
    const parents = this.shop
      .captures(o)
      .map((t) => ({ t, refundable: this.shop.refundableOnMinor(t) }))
      .filter((p) => p.refundable > 0n);
    const refundable = this.shop.refundableMinor(o);
    return {
      amountSet: this.moneyBag(o, full ? refundable : 0n),
      maximumRefundableSet: this.moneyBag(o, refundable),
      suggestedTransactions: parents.map(({ t, refundable: left }) => ({
        amountSet: this.moneyBag(o, full ? left : 0n),
        gateway: t.gateway,
        formattedGateway: t.gateway === "shopify_payments" ? "Shopify Payments" : t.gateway,
        kind: "SUGGESTED_REFUND",
        maximumRefundableSet: this.moneyBag(o, left),
        parentTransaction: this.transaction(t),
      })),
    };
  }
}
