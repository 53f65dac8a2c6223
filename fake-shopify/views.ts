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

export function moneyBag(minor: bigint, currency: string) {
  const money = { amount: shopifyDecimal(minor, currency), currencyCode: currency };
  return { shopMoney: money, presentmentMoney: { ...money } };
}

interface PageArgs {
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

export class Views {
  constructor(private readonly shop: FakeShop) {}

  transaction = (t: FakeTransaction): Record<string, unknown> => {
    const order = this.shop.orders.get(t.orderId)!;
    return {
      __typename: "OrderTransaction",
      id: gid("OrderTransaction", t.id),
      kind: t.kind,
      status: t.status,
      gateway: t.gateway,
      formattedGateway: t.gateway === "shopify_payments" ? "Shopify Payments" : t.gateway,
      amountSet: moneyBag(t.amountMinor, order.currency),
      errorCode: t.errorCode,
      createdAt: dateTime(t.createdAt),
      processedAt: dateTime(t.createdAt),
      parentTransaction: () => (t.parentId ? this.transaction(this.shop.transactions.get(t.parentId)!) : null),
      test: false,
      order: () => this.order(order),
      paymentId: `c${t.orderId}.1`,
      manualPaymentGateway: t.gateway === "manual",
    };
  };

  refund = (r: FakeRefund): Record<string, unknown> => {
    const order = this.shop.orders.get(r.orderId)!;
    const transactions = r.transactionIds.map((id) => this.shop.transactions.get(id)!);
    return {
      __typename: "Refund",
      id: gid("Refund", r.id),
      legacyResourceId: r.id.toString(),
      createdAt: dateTime(r.createdAt),
      updatedAt: dateTime(r.updatedAt),
      note: r.note,
      order: () => this.order(order),
      totalRefundedSet: moneyBag(this.shop.refundTotalMinor(r), order.currency),
      transactions: (args: PageArgs) => connection(transactions, args, this.transaction),
    };
  };

  order = (o: FakeOrder): Record<string, unknown> => {
    const visibleRefunds = o.refundIds.map((id) => this.shop.refunds.get(id)!).filter((r) => this.shop.isVisible(r));
    const refundedMinor = visibleRefunds.reduce((sum, r) => sum + this.shop.refundTotalMinor(r), 0n);
    return {
      __typename: "Order",
      id: gid("Order", o.id),
      legacyResourceId: o.id.toString(),
      name: o.name,
      createdAt: dateTime(o.createdAt),
      updatedAt: dateTime(o.updatedAt),
      currencyCode: o.currency,
      presentmentCurrencyCode: o.currency,
      totalPriceSet: moneyBag(o.totalMinor, o.currency),
      totalRefundedSet: moneyBag(refundedMinor, o.currency),
      totalReceivedSet: moneyBag(o.totalMinor, o.currency),
      refunds: ({ first }: { first?: number | null }) => visibleRefunds.slice(0, first ?? undefined).map(this.refund),
      transactions: ({ first }: { first?: number | null }) =>
        o.transactionIds.slice(0, first ?? undefined).map((id) => this.transaction(this.shop.transactions.get(id)!)),
      suggestedRefund: ({ suggestFullRefund }: { suggestFullRefund?: boolean }) => this.suggestedRefund(o, Boolean(suggestFullRefund)),
    };
  };

  private suggestedRefund(o: FakeOrder, full: boolean) {
    const refundable = this.shop.refundableMinor(o);
    const parent = o.transactionIds.map((id) => this.shop.transactions.get(id)!).find((t) => (t.kind === "SALE" || t.kind === "CAPTURE") && t.status === "SUCCESS");
    const amount = full ? refundable : 0n;
    return {
      amountSet: moneyBag(amount, o.currency),
      maximumRefundableSet: moneyBag(refundable, o.currency),
      suggestedTransactions: parent
        ? [{ amountSet: moneyBag(amount, o.currency), gateway: parent.gateway, kind: "SUGGESTED_REFUND", maximumRefundableSet: moneyBag(refundable, o.currency), parentTransaction: this.transaction(parent) }]
        : [],
    };
  }
}
