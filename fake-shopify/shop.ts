import { createDispute, updateDispute, type CreateDisputeOptions, type DisputeChanges, type FakeDispute } from "./disputes";
import { convertMinor, parseMinor, parseRate } from "./money";
import { FakePayments } from "./payments";
import { FakeStaff } from "./staff";

export type TransactionKind = "AUTHORIZATION" | "CAPTURE" | "SALE" | "REFUND" | "VOID";
export type TransactionStatus = "SUCCESS" | "FAILURE" | "ERROR" | "PENDING" | "AWAITING_RESPONSE" | "UNKNOWN";

export interface FakeTransaction {
  id: bigint;
  orderId: bigint;
  kind: TransactionKind;
  status: TransactionStatus;
  gateway: string;
  /** In the order's presentment currency. */
  amountMinor: bigint;
  createdAt: Date;
  parentId: bigint | null;
  errorCode: string | null;
  /** The Shopify Point of Sale device that processed it (OrderTransaction.device; the REST payload's device_id); null off POS. */
  deviceId: bigint | null;
}

/**
 * An app as Shopify's `App` object describes it: its id, its name (`title`) and its API key (the
 * client id an app authenticates with). RefundAgreement.app is "the application that created the
 * agreement".
 */
export interface FakeApp {
  id: bigint;
  title: string;
  apiKey: string;
}

/** RefundLineItemRestockType; LEGACY_RESTOCK "is not accepted when creating new refunds". */
export type RestockType = "NO_RESTOCK" | "CANCEL" | "RETURN" | "LEGACY_RESTOCK";

/** One line of an order: `quantity` units at `priceMinor` each (presentment currency). */
export interface FakeLineItem {
  id: bigint;
  title: string;
  quantity: number;
  priceMinor: bigint;
}

/** A line item's units a refund gave back. */
export interface FakeRefundLineItem {
  id: bigint;
  lineItemId: bigint;
  quantity: number;
  restockType: RestockType;
}

/**
 * The gateway of the REFUND transaction a refund to store credit makes. Shopify's reference says
 * only that a store credit account's credit transaction has an OrderTransaction as its origin
 * (StoreCreditAccountTransactionOrigin); the gateway's name is from apps that read such refunds,
 * not from Shopify's documents (fake-shopify/DISPUTES-AND-STORE-CREDIT.md).
 */
export const STORE_CREDIT_GATEWAY = "shopify_store_credit";

export interface FakeRefund {
  id: bigint;
  orderId: bigint;
  createdAt: Date;
  processedAt: Date;
  updatedAt: Date;
  note: string | null;
  /** The staff member who made it in the admin or on POS (the REST payload's user_id); null for a refund made through the API. */
  staffUserId: string | null;
  /**
   * The app that made it (its RefundAgreement's `app`): the app that called refundCreate, or an app a
   * test names; null for one made in Shopify admin (this fake's reading: Shopify's reference does not
   * say what a refund made in the admin answers there).
   */
  app: FakeApp | null;
  transactionIds: bigint[];
  /** Shopify's read replicas lag: until then, reads do not see the refund. */
  visibleAt: Date;
  /** For scenarios where Shopify's recorded total differs from the refund transactions (presentment currency). */
  totalOverrideMinor: bigint | null;
  /** The units it gave back, per line item (none for a refund of money only). */
  lineItems: FakeRefundLineItem[];
}

export interface FakeOrder {
  id: bigint;
  name: string;
  createdAt: Date;
  updatedAt: Date;
  /** The shop's currency (Order.currencyCode). */
  currency: string;
  /** The customer's currency (Order.presentmentCurrencyCode): every amount of the order is stored in it. */
  presentmentCurrency: string;
  /** Shop currency per unit of presentment currency, a decimal string ("1.0850"); "1" for a single-currency order. */
  exchangeRate: string;
  totalMinor: bigint;
  transactionIds: bigint[];
  refundIds: bigint[];
  lineItems: FakeLineItem[];
}

/** One REFUND transaction of a refund made by a test (`createRefund`'s `transactions`). */
export interface RefundTransactionOption {
  amount: string;
  gateway?: string;
  status?: TransactionStatus;
  errorCode?: string | null;
  parentId?: bigint;
}

export interface CreateRefundOptions {
  /** The refund's one transaction; ignored when `transactions` is given. */
  amount?: string;
  /** Refunded to store credit besides (presentment decimal): one more REFUND transaction, on STORE_CREDIT_GATEWAY. */
  storeCredit?: string;
  /** Units given back. Unlike refundCreate, not checked against what is left: an old refund or another app may have gone past it. */
  lineItems?: { lineItemId: bigint; quantity: number; restockType?: RestockType }[];
  status?: TransactionStatus;
  /** A refund split over several gateways, each transaction with its own status. */
  transactions?: RefundTransactionOption[];
  note?: string | null;
  createdAt?: Date;
  processedAt?: Date;
  visibleAfterMs?: number;
  recordedAmount?: string;
  /** Made by this staff member in the admin or on POS (a user id); by default no person (an app, an automation). */
  staffUserId?: string;
  /** Made by this app (by its name; its id and API key are the shop's for that name): its RefundAgreement names it. */
  app?: string | FakeApp;
  /** Made on Shopify POS: each transaction was processed by the shop's POS device (and the agreement names the Point of Sale app). */
  pos?: boolean;
}

/** The app that makes a POS refund's agreement in this fake: Shopify's reference names "Point of Sale" as the app of POS orders (OrderApp). */
export const POINT_OF_SALE_APP = "Point of Sale";

/**
 * The access scopes a FakeShop grants the app unless a test changes `grantedScopes`: the app's
 * orders scopes and the two Shopify Payments scopes its settled verification reads with. The
 * published 2026-10 schema's access metadata requires `read_shopify_payments` or
 * `read_shopify_payments_accounts` for ShopifyPaymentsAccount; its balance transactions and payouts
 * need access to payouts (`read_shopify_payments_payouts`).
 */
export const DEFAULT_GRANTED_SCOPES = ["read_orders", "write_orders", "read_shopify_payments_accounts", "read_shopify_payments_payouts"] as const;

/** Above 2^53, as Shopify's REST ids are: anything that parses them as doubles loses digits. */
const FIRST_ID = 9_007_199_254_740_993n;

const isCapture = (t: FakeTransaction) => (t.kind === "SALE" || t.kind === "CAPTURE") && t.status === "SUCCESS";
const failedCode = (status: TransactionStatus) => (status === "FAILURE" || status === "ERROR" ? "CARD_DECLINED" : null);

export class FakeShop {
  readonly orders = new Map<bigint, FakeOrder>();
  readonly refunds = new Map<bigint, FakeRefund>();
  readonly transactions = new Map<bigint, FakeTransaction>();
  /** Refunds the app may not read (`denyAccess`). */
  readonly deniedRefunds = new Set<bigint>();
  /** Shopify Payments: balance transactions, payouts, ARNs of the refunds made through it. */
  readonly payments = new FakePayments(this);
  /** The people of the shop's admin: who a session token's `sub` is, and whether they own the shop. */
  readonly staff = new FakeStaff();
  /** Shopify Payments disputes (chargebacks and inquiries) on the shop's orders, by id. */
  readonly disputes = new Map<bigint, FakeDispute>();
  /** Called when a dispute is created or changes (the FakeShopify sends disputes/create or disputes/update). */
  onDisputeEvent?: (topic: "disputes/create" | "disputes/update", dispute: FakeDispute) => void;
  /** What the app was granted: fields that need another scope answer ACCESS_DENIED. */
  grantedScopes = new Set<string>(DEFAULT_GRANTED_SCOPES);
  /** Shared by every shop: Shopify's ids are global, so one shop's token never finds another shop's order under its own. */
  private static lastId = FIRST_ID;
  private orderNumber = 1000;
  /** The apps installed in the shop, by name: each with an id and API key of its own, the same every time it is named. */
  private readonly apps = new Map<string, FakeApp>();
  /** The shop's one POS device (created when a refund is first made on POS). */
  private posDevice: bigint | null = null;

  /** The shop's time zone, as merchants set it in Shopify admin (Shop.ianaTimezone). */
  ianaTimezone = "America/New_York";

  constructor(
    readonly domain: string,
    readonly currency = "USD",
    readonly now: () => Date = () => new Date(),
  ) {}

  get name(): string {
    return this.domain.replace(/\.myshopify\.com$/, "");
  }

  /** Whether the app holds one of `scopes`; a `write_` scope grants its `read_` one too, as Shopify's do. */
  hasScope(...scopes: string[]): boolean {
    return scopes.some((scope) => this.grantedScopes.has(scope) || this.grantedScopes.has(scope.replace(/^read_/, "write_")));
  }

  /** The app of this name installed in the shop (added the first time it is named, with `apiKey` or one of its own). */
  app(title: string, apiKey?: string): FakeApp {
    let app = this.apps.get(title);
    if (!app) {
      const id = this.nextId();
      app = { id, title, apiKey: apiKey ?? `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${id}` };
      this.apps.set(title, app);
    }
    return app;
  }

  /** The next id of Shopify's one global sequence: every record of every shop draws from it. */
  nextId(): bigint {
    FakeShop.lastId += 1n + BigInt(Math.floor(Math.random() * 1000));
    return FakeShop.lastId;
  }

  /**
   * An order paid in full. Amounts are in `presentmentCurrency` (default: the shop's currency);
   * `payments` splits the payment over several gateways and must add up to `amount`. Its line
   * items are `lineItems` (unit prices; shipping and taxes may make `amount` more than their sum),
   * or one unit at `amount`.
   */
  createOrder(options: {
    amount: string;
    gateway?: string;
    createdAt?: Date;
    presentmentCurrency?: string;
    exchangeRate?: string;
    payments?: { gateway: string; amount: string }[];
    lineItems?: { quantity: number; price: string; title?: string }[];
  }): FakeOrder {
    const createdAt = options.createdAt ?? this.now();
    const presentmentCurrency = options.presentmentCurrency ?? this.currency;
    if (presentmentCurrency !== this.currency && options.exchangeRate === undefined)
      throw new Error(`an order in ${presentmentCurrency} in a ${this.currency} shop needs an exchangeRate`);
    const exchangeRate = presentmentCurrency === this.currency ? "1" : options.exchangeRate!;
    parseRate(exchangeRate);
    const order: FakeOrder = {
      id: this.nextId(),
      name: `#${++this.orderNumber}`,
      createdAt,
      updatedAt: createdAt,
      currency: this.currency,
      presentmentCurrency,
      exchangeRate,
      totalMinor: parseMinor(options.amount, presentmentCurrency),
      transactionIds: [],
      refundIds: [],
      lineItems: [],
    };
    for (const [i, line] of (options.lineItems ?? [{ quantity: 1, price: options.amount }]).entries()) {
      if (!Number.isInteger(line.quantity) || line.quantity < 1) throw new Error(`line item ${i} of order ${order.name} needs a whole quantity of at least 1`);
      const title = line.title ?? `Item ${i + 1}`;
      order.lineItems.push({ id: this.nextId(), title, quantity: line.quantity, priceMinor: parseMinor(line.price, presentmentCurrency) });
    }
    const payments = (options.payments ?? [{ gateway: options.gateway ?? "shopify_payments", amount: options.amount }]).map((p) => ({
      gateway: p.gateway,
      amountMinor: parseMinor(p.amount, presentmentCurrency),
    }));
    if (payments.reduce((sum, p) => sum + p.amountMinor, 0n) !== order.totalMinor)
      throw new Error(`the payments of order ${order.name} do not add up to ${options.amount}`);
    this.orders.set(order.id, order);
    for (const p of payments)
      this.addTransaction(order, { kind: "SALE", status: "SUCCESS", amountMinor: p.amountMinor, gateway: p.gateway, parentId: null, createdAt });
    return order;
  }

  private addTransaction(
    order: FakeOrder,
    fields: Omit<FakeTransaction, "id" | "orderId" | "errorCode" | "deviceId"> & { errorCode?: string | null; deviceId?: bigint | null },
  ): FakeTransaction {
    const transaction: FakeTransaction = { id: this.nextId(), orderId: order.id, errorCode: null, deviceId: null, ...fields };
    this.transactions.set(transaction.id, transaction);
    order.transactionIds.push(transaction.id);
    return transaction;
  }

  /** An amount of the order (presentment minor units) in the shop's currency. */
  shopMinor(order: FakeOrder, presentmentMinor: bigint): bigint {
    return convertMinor(presentmentMinor, order.presentmentCurrency, order.currency, order.exchangeRate);
  }

  orderTransactions(order: FakeOrder): FakeTransaction[] {
    return order.transactionIds.map((id) => this.transactions.get(id)!);
  }

  /** The order's successful captures and sales: what a refund can go back to. */
  captures(order: FakeOrder): FakeTransaction[] {
    return this.orderTransactions(order).filter(isCapture);
  }

  /** What is left to refund on one capture, in presentment minor units. */
  refundableOnMinor(capture: FakeTransaction): bigint {
    const order = this.orders.get(capture.orderId)!;
    const refunded = this.orderTransactions(order).filter((t) => t.kind === "REFUND" && t.status === "SUCCESS" && t.parentId === capture.id);
    return capture.amountMinor - refunded.reduce((sum, t) => sum + t.amountMinor, 0n);
  }

  /** Captured money not yet refunded, in presentment minor units. */
  refundableMinor(order: FakeOrder): bigint {
    let balance = 0n;
    for (const t of this.orderTransactions(order)) {
      if (t.status !== "SUCCESS") continue;
      if (isCapture(t)) balance += t.amountMinor;
      if (t.kind === "REFUND") balance -= t.amountMinor;
    }
    return balance;
  }

  /** The capture a refund on `gateway` goes back to: that gateway's, else the first. */
  parentFor(order: FakeOrder, gateway?: string): FakeTransaction | undefined {
    const captures = this.captures(order);
    return captures.find((t) => t.gateway === gateway) ?? captures[0];
  }

  createRefund(orderId: bigint, options: CreateRefundOptions): FakeRefund {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    // A refund of store credit or of items alone moves no other money unless told; any other refund has its one transaction.
    const moneyOnly = options.storeCredit === undefined && options.lineItems === undefined;
    const lines = options.transactions ?? (options.amount !== undefined || moneyOnly ? [{ amount: options.amount ?? "0", status: options.status }] : []);
    for (const line of options.lineItems ?? [])
      if (!order.lineItems.some((l) => l.id === line.lineItemId)) throw new Error(`order ${order.name} has no line item ${line.lineItemId}`);
    return this.recordRefund(order, {
      lineItems: options.lineItems,
      storeCreditMinor: options.storeCredit === undefined ? undefined : parseMinor(options.storeCredit, order.presentmentCurrency),
      note: options.note ?? null,
      staffUserId: options.staffUserId ?? null,
      app: options.pos ? this.app(POINT_OF_SALE_APP) : typeof options.app === "string" ? this.app(options.app) : (options.app ?? null),
      deviceId: options.pos ? (this.posDevice ??= this.nextId()) : null,
      createdAt: options.createdAt,
      processedAt: options.processedAt,
      visibleAfterMs: options.visibleAfterMs,
      totalOverrideMinor: options.recordedAmount === undefined ? null : parseMinor(options.recordedAmount, order.presentmentCurrency),
      transactions: lines.map((line) => {
        const parent = line.parentId !== undefined ? this.transactions.get(line.parentId) : this.parentFor(order, line.gateway);
        const status = line.status ?? "SUCCESS";
        return {
          amountMinor: parseMinor(line.amount, order.presentmentCurrency),
          gateway: line.gateway ?? parent?.gateway ?? "manual",
          parentId: parent?.id ?? null,
          status,
          errorCode: line.errorCode === undefined ? failedCode(status) : line.errorCode,
        };
      }),
    });
  }

  /**
   * A refund with one REFUND transaction per entry (none for a refund that moves no money), and one
   * more on STORE_CREDIT_GATEWAY, without a parent, for what goes to store credit.
   */
  recordRefund(
    order: FakeOrder,
    fields: {
      transactions: { amountMinor: bigint; gateway: string; parentId: bigint | null; status: TransactionStatus; errorCode: string | null }[];
      note: string | null;
      staffUserId?: string | null;
      /** The app that made it (refundCreate: the app calling it). */
      app?: FakeApp | null;
      /** The POS device that processed its transactions. */
      deviceId?: bigint | null;
      createdAt?: Date;
      processedAt?: Date;
      visibleAfterMs?: number;
      totalOverrideMinor?: bigint | null;
      storeCreditMinor?: bigint;
      lineItems?: { lineItemId: bigint; quantity: number; restockType?: RestockType }[];
    },
  ): FakeRefund {
    const createdAt = fields.createdAt ?? this.now();
    const storeCredit =
      fields.storeCreditMinor === undefined
        ? []
        : [{ amountMinor: fields.storeCreditMinor, gateway: STORE_CREDIT_GATEWAY, parentId: null, status: "SUCCESS" as const, errorCode: null }];
    const transactions = [...fields.transactions, ...storeCredit].map((t) =>
      this.addTransaction(order, { kind: "REFUND", createdAt, deviceId: fields.deviceId ?? null, ...t }),
    );
    const refund: FakeRefund = {
      id: this.nextId(),
      orderId: order.id,
      createdAt,
      processedAt: fields.processedAt ?? createdAt,
      updatedAt: createdAt,
      note: fields.note,
      staffUserId: fields.staffUserId ?? null,
      app: fields.app ?? null,
      transactionIds: transactions.map((t) => t.id),
      visibleAt: new Date(createdAt.getTime() + (fields.visibleAfterMs ?? 0)),
      totalOverrideMinor: fields.totalOverrideMinor ?? null,
      lineItems: (fields.lineItems ?? []).map((l) => ({
        id: this.nextId(),
        lineItemId: l.lineItemId,
        quantity: l.quantity,
        restockType: l.restockType ?? "NO_RESTOCK",
      })),
    };
    this.refunds.set(refund.id, refund);
    order.refundIds.push(refund.id);
    order.updatedAt = createdAt;
    return refund;
  }

  /** Units of an order's line item its refunds gave back (those the app can see yet, with `visibleOnly`). */
  refundedQuantity(order: FakeOrder, lineItemId: bigint, options: { visibleOnly?: boolean } = {}): number {
    let refunded = 0;
    for (const id of order.refundIds) {
      const refund = this.refunds.get(id)!;
      if (options.visibleOnly && !this.isVisible(refund)) continue;
      for (const line of refund.lineItems) if (line.lineItemId === lineItemId) refunded += line.quantity;
    }
    return refunded;
  }

  /** A cardholder disputes a charge of the order (fake-shopify/disputes.ts): NEEDS_RESPONSE, FRAUDULENT, the order's total, unless told. */
  createDispute(orderId: bigint, options: CreateDisputeOptions = {}): FakeDispute {
    return createDispute(this, orderId, options);
  }

  /** The dispute moves on; finalizedOn defaults to now for a final status. */
  updateDispute(id: bigint, changes: DisputeChanges): FakeDispute {
    return updateDispute(this, id, changes);
  }

  isVisible(refund: FakeRefund): boolean {
    return refund.visibleAt.getTime() <= this.now().getTime();
  }

  /** From now on, reading this refund by id answers ACCESS_DENIED for it (as for an app without the scope). */
  denyAccess(refundId: bigint): void {
    this.deniedRefunds.add(refundId);
  }

  allowAccess(refundId: bigint): void {
    this.deniedRefunds.delete(refundId);
  }

  /** Shopify's totalRefundedSet: "the total amount across all transactions for the refund" (presentment currency). */
  refundTotalMinor(refund: FakeRefund): bigint {
    return refund.totalOverrideMinor ?? this.refundTransactionsMinor(refund);
  }

  refundTransactionsMinor(refund: FakeRefund): bigint {
    return refund.transactionIds.reduce((sum, id) => sum + this.transactions.get(id)!.amountMinor, 0n);
  }

  setTransactionStatus(refund: FakeRefund, status: TransactionStatus): void {
    for (const id of refund.transactionIds) this.transactions.get(id)!.status = status;
    refund.updatedAt = this.now();
  }
}
