import { GraphQLError } from "graphql";
import type { FakeDispute } from "./disputes";
import { shopifyDecimal } from "./money";
import {
  STORE_CREDIT_GATEWAY,
  type FakeApp,
  type FakeLineItem,
  type FakeOrder,
  type FakeRefund,
  type FakeRefundLineItem,
  type FakeShop,
  type FakeTransaction,
} from "./shop";

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
 * Order.disputes' element. Its id is gid://shopify/OrderDisputeSummary/<n>, n being the
 * ShopifyPaymentsDispute's number (as apps that read both report; Shopify's reference does not
 * say): an app turns it into gid://shopify/ShopifyPaymentsDispute/<n> to read the dispute.
 */
export const disputeSummary = (d: FakeDispute) => ({
  __typename: "OrderDisputeSummary",
  id: gid("OrderDisputeSummary", d.id),
  initiatedAs: d.initiatedAs,
  status: d.status,
});

/**
 * The published 2026-10 schema's access rule for the StaffMember type (its `requiredAccess`, as
 * shopify.dev's StaffMember page says it): every field that returns a staff member (Refund.staffMember,
 * RefundAgreement.user, OrderTransaction.user, Order.staffMember) needs `read_users`, a scope an app
 * gets only as a finance embedded app or on a Plus or Advanced store, and by asking Shopify Support.
 */
export const STAFF_MEMBER_ACCESS =
  "`read_users` access scope. Also: The app must be a finance embedded app or installed on a Shopify Plus or Advanced store. Contact Shopify Support to enable this scope for your app.";

/** App: "A Shopify application"; what an app may read of another without a scope (id, title, apiKey, handle). */
export const appView = (app: FakeApp) => ({
  __typename: "App",
  id: gid("App", app.id),
  title: app.title,
  apiKey: app.apiKey,
  handle: app.title.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
});

/** OrderTransaction.formattedGateway, "the human-readable payment gateway name"; store credit's is our guess. */
const formattedGateway = (gateway: string) =>
  gateway === "shopify_payments" ? "Shopify Payments" : gateway === STORE_CREDIT_GATEWAY ? "Store credit" : gateway;

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
      formattedGateway: formattedGateway(t.gateway),
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
      // PointOfSaleDevice needs read_orders (or read_point_of_sale_devices): any app that reads the transaction may read it.
      device: t.deviceId === null ? null : { __typename: "PointOfSaleDevice", id: gid("PointOfSaleDevice", t.deviceId) },
      // "Staff member who was logged into the Shopify POS device when the transaction was processed."
      user: () => this.staffMember(t.deviceId === null ? null : this.refundOfTransaction(t)?.staffUserId, "user"),
    };
  };

  private refundOfTransaction(t: FakeTransaction): FakeRefund | undefined {
    return [...this.shop.refunds.values()].find((r) => r.transactionIds.includes(t.id));
  }

  /** A field of type StaffMember: ACCESS_DENIED without `read_users` (the type's rule), else the member, or null when nobody made it. */
  private staffMember(userId: string | null | undefined, field: string) {
    if (!this.shop.hasScope("read_users")) return accessDenied(field, STAFF_MEMBER_ACCESS);
    const member = userId ? this.shop.staff.member(userId) : undefined;
    if (!member) return null;
    return {
      __typename: "StaffMember",
      id: gid("StaffMember", BigInt(member.id)),
      firstName: member.firstName,
      lastName: member.lastName,
      name: `${member.firstName} ${member.lastName}`,
      email: member.email,
      isShopOwner: member.accountOwner,
      active: true,
      exists: true,
      locale: member.locale,
    };
  }

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
      refundLineItems: (args: PageArgs) => connection(r.lineItems, args, (line) => this.refundLineItem(order, line)),
      // This fake's refunds have no shipping, duties or order adjustments.
      refundShippingLines: (args: PageArgs) => connection([], args, (x) => x),
      orderAdjustments: (args: PageArgs) => connection([], args, (x) => x),
      duties: [],
      return: null,
      // "The staff member who created the refund": readable only with read_users.
      staffMember: () => this.staffMember(r.staffUserId, "staffMember"),
    };
  };

  lineItem = (o: FakeOrder, l: FakeLineItem): Record<string, unknown> => {
    // "The number of units ordered, excluding refunded and removed units": never below none, whatever a test's refunds did.
    const current = Math.max(0, l.quantity - this.shop.refundedQuantity(o, l.id, { visibleOnly: true }));
    return {
      __typename: "LineItem",
      id: gid("LineItem", l.id),
      name: l.title,
      title: l.title,
      quantity: l.quantity,
      currentQuantity: current,
      refundableQuantity: current,
      unfulfilledQuantity: current,
      nonFulfillableQuantity: l.quantity - current,
      originalUnitPriceSet: this.moneyBag(o, l.priceMinor),
      discountedUnitPriceSet: this.moneyBag(o, l.priceMinor),
      originalTotalSet: this.moneyBag(o, l.priceMinor * BigInt(l.quantity)),
      sku: null,
      variant: null,
      variantTitle: null,
      product: null,
      vendor: null,
      requiresShipping: true,
      restockable: true,
      taxable: false,
      isGiftCard: false,
    };
  };

  /** A refunded line without tax (this fake's orders have none): its subtotal is price × quantity. */
  refundLineItem = (o: FakeOrder, line: FakeRefundLineItem): Record<string, unknown> => {
    const lineItem = o.lineItems.find((l) => l.id === line.lineItemId)!;
    return {
      __typename: "RefundLineItem",
      id: gid("RefundLineItem", line.id),
      lineItem: () => this.lineItem(o, lineItem),
      quantity: line.quantity,
      restockType: line.restockType,
      restocked: line.restockType !== "NO_RESTOCK",
      location: null,
      priceSet: this.moneyBag(o, lineItem.priceMinor),
      subtotalSet: this.moneyBag(o, lineItem.priceMinor * BigInt(line.quantity)),
      totalTaxSet: this.moneyBag(o, 0n),
    };
  };

  refundAgreement = (r: FakeRefund): Record<string, unknown> => ({
    __typename: "RefundAgreement",
    id: gid("SalesAgreement", r.id),
    happenedAt: dateTime(r.createdAt),
    reason: "REFUND",
    refund: () => this.refund(r),
    // "The application that created the agreement".
    app: r.app ? appView(r.app) : null,
    // "The staff member associated with the agreement": a StaffMember, so read_users.
    user: () => this.staffMember(r.staffUserId, "user"),
    sales: (args: PageArgs) => connection([], args, (x) => x),
  });

  order = (o: FakeOrder): Record<string, unknown> => {
    const visibleRefunds = o.refundIds.map((id) => this.shop.refunds.get(id)!).filter((r) => this.shop.isVisible(r));
    const received = this.shop.captures(o).map((t) => t.amountMinor);
    const refunded = visibleRefunds.map((r) => this.shop.refundTotalMinor(r));
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
      totalRefundedSet: this.moneyBag(o, ...refunded),
      totalReceivedSet: this.moneyBag(o, ...received),
      // "The total amount received minus the total amount refunded": below zero once more went back than came in.
      netPaymentSet: this.moneyBag(o, ...received, ...refunded.map((m) => -m)),
      refundDiscrepancySet: this.moneyBag(o, ...visibleRefunds.map((r) => this.refundDiscrepancyMinor(o, r))),
      lineItems: (args: PageArgs) => connection(o.lineItems, args, (l) => this.lineItem(o, l)),
      // A plain list, no cursor: up to `first`, or every refund without it.
      refunds: ({ first }: { first?: number | null }) => visibleRefunds.slice(0, first ?? undefined).map(this.refund),
      transactions: ({ first }: { first?: number | null }) =>
        this.shop
          .orderTransactions(o)
          .slice(0, first ?? undefined)
          .map(this.transaction),
      // Shopify records a RefundAgreement for every refund; this fake's orders have no other agreements.
      agreements: (args: PageArgs) => connection(visibleRefunds, args, this.refundAgreement),
      // "The staff member who created or is responsible for the order": a StaffMember, so read_users. This fake's orders have none.
      staffMember: () => this.staffMember(null, "staffMember"),
      // OrderDisputeSummary, readable with read_orders: see disputeSummary.
      disputes: () => [...this.shop.disputes.values()].filter((d) => d.orderId === o.id).map(disputeSummary),
      suggestedRefund: ({ suggestFullRefund }: { suggestFullRefund?: boolean }) => this.suggestedRefund(o, Boolean(suggestFullRefund)),
    };
  };

  /**
   * Order.refundDiscrepancySet is "the difference between the suggested and actual refund amount
   * of all refunds … positive … in the merchant's favor". This fake suggests only for refunded line
   * items (their price × quantity; it has no tax or shipping), so a refund of money alone adds
   * nothing: our reading, not Shopify's documented arithmetic.
   */
  private refundDiscrepancyMinor(o: FakeOrder, r: FakeRefund): bigint {
    if (!r.lineItems.length) return 0n;
    const suggested = r.lineItems.reduce((sum, line) => sum + o.lineItems.find((l) => l.id === line.lineItemId)!.priceMinor * BigInt(line.quantity), 0n);
    return suggested - this.shop.refundTotalMinor(r);
  }

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
        formattedGateway: formattedGateway(t.gateway),
        kind: "SUGGESTED_REFUND",
        maximumRefundableSet: this.moneyBag(o, left),
        parentTransaction: this.transaction(t),
      })),
    };
  }
}
