import { parseMinor } from "./money";

export type TransactionKind = "AUTHORIZATION" | "CAPTURE" | "SALE" | "REFUND" | "VOID";
export type TransactionStatus = "SUCCESS" | "FAILURE" | "ERROR" | "PENDING" | "AWAITING_RESPONSE" | "UNKNOWN";

export interface FakeTransaction {
  id: bigint;
  orderId: bigint;
  kind: TransactionKind;
  status: TransactionStatus;
  gateway: string;
  amountMinor: bigint;
  createdAt: Date;
  parentId: bigint | null;
  errorCode: string | null;
}

export interface FakeRefund {
  id: bigint;
  orderId: bigint;
  createdAt: Date;
  updatedAt: Date;
  note: string | null;
  transactionIds: bigint[];
  /** Shopify's read replicas lag: until then, reads do not see the refund. */
  visibleAt: Date;
  /** For scenarios where Shopify's recorded total differs from the refund transactions. */
  totalOverrideMinor: bigint | null;
}

export interface FakeOrder {
  id: bigint;
  name: string;
  createdAt: Date;
  updatedAt: Date;
  currency: string;
  totalMinor: bigint;
  transactionIds: bigint[];
  refundIds: bigint[];
}

/** Above 2^53, as Shopify's REST ids are: anything that parses them as doubles loses digits. */
const FIRST_ID = 9_007_199_254_740_993n;

export class FakeShop {
  readonly orders = new Map<bigint, FakeOrder>();
  readonly refunds = new Map<bigint, FakeRefund>();
  readonly transactions = new Map<bigint, FakeTransaction>();
  private lastId = FIRST_ID;
  private orderNumber = 1000;

  constructor(
    readonly domain: string,
    readonly currency = "USD",
    readonly now: () => Date = () => new Date(),
  ) {}

  get name(): string {
    return this.domain.replace(/\.myshopify\.com$/, "");
  }

  private nextId(): bigint {
    this.lastId += 1n + BigInt(Math.floor(Math.random() * 1000));
    return this.lastId;
  }

  createOrder(options: { amount: string; gateway?: string; createdAt?: Date }): FakeOrder {
    const createdAt = options.createdAt ?? this.now();
    const order: FakeOrder = {
      id: this.nextId(),
      name: `#${++this.orderNumber}`,
      createdAt,
      updatedAt: createdAt,
      currency: this.currency,
      totalMinor: parseMinor(options.amount, this.currency),
      transactionIds: [],
      refundIds: [],
    };
    this.orders.set(order.id, order);
    this.addTransaction(order, { kind: "SALE", status: "SUCCESS", amountMinor: order.totalMinor, gateway: options.gateway ?? "shopify_payments", parentId: null, createdAt });
    return order;
  }

  private addTransaction(order: FakeOrder, fields: Omit<FakeTransaction, "id" | "orderId" | "errorCode"> & { errorCode?: string | null }): FakeTransaction {
    const transaction: FakeTransaction = { id: this.nextId(), orderId: order.id, errorCode: null, ...fields };
    this.transactions.set(transaction.id, transaction);
    order.transactionIds.push(transaction.id);
    return transaction;
  }

  /** Captured money not yet refunded, in minor units. */
  refundableMinor(order: FakeOrder): bigint {
    let captured = 0n;
    let refunded = 0n;
    for (const id of order.transactionIds) {
      const t = this.transactions.get(id)!;
      if (t.status !== "SUCCESS") continue;
      if (t.kind === "SALE" || t.kind === "CAPTURE") captured += t.amountMinor;
      if (t.kind === "REFUND") refunded += t.amountMinor;
    }
    return captured - refunded;
  }

  createRefund(
    orderId: bigint,
    options: { amount: string; status?: TransactionStatus; note?: string | null; createdAt?: Date; visibleAfterMs?: number; recordedAmount?: string },
  ): FakeRefund {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    const createdAt = options.createdAt ?? this.now();
    const status = options.status ?? "SUCCESS";
    const parent = order.transactionIds.map((id) => this.transactions.get(id)!).find((t) => t.kind === "SALE" || t.kind === "CAPTURE");
    const transaction = this.addTransaction(order, {
      kind: "REFUND",
      status,
      amountMinor: parseMinor(options.amount, order.currency),
      gateway: parent?.gateway ?? "manual",
      parentId: parent?.id ?? null,
      createdAt,
      errorCode: status === "FAILURE" || status === "ERROR" ? "CARD_DECLINED" : null,
    });
    const refund: FakeRefund = {
      id: this.nextId(),
      orderId,
      createdAt,
      updatedAt: createdAt,
      note: options.note ?? null,
      transactionIds: [transaction.id],
      visibleAt: new Date(createdAt.getTime() + (options.visibleAfterMs ?? 0)),
      totalOverrideMinor: options.recordedAmount === undefined ? null : parseMinor(options.recordedAmount, order.currency),
    };
    this.refunds.set(refund.id, refund);
    order.refundIds.push(refund.id);
    order.updatedAt = createdAt;
    return refund;
  }

  isVisible(refund: FakeRefund): boolean {
    return refund.visibleAt.getTime() <= this.now().getTime();
  }

  /** Shopify's totalRefundedSet: "the total amount across all transactions for the refund". */
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
