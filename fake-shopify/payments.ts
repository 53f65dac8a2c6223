import { parseMinor } from "./money";
import type { FakeOrder, FakeShop, FakeTransaction } from "./shop";

const DAY_MS = 86_400_000;
/** Above 2^53, like the shop's other ids: anything that parses them as doubles loses digits. */
const PAYOUT_ID_BASE = 9_007_199_254_740_993n;
/** The acquirer's BIN in the ARNs this fake makes up (an ARN's digits 2-7). */
const ACQUIRER_BIN = "445501";

/** The ShopifyPaymentsTransactionType values this fake records. */
export type BalanceTransactionType = "REFUND" | "REFUND_FAILURE";

/** ShopifyPaymentsPayoutStatus; IN_TRANSIT is deprecated in 2026-10 ("Use `SCHEDULED` instead.") but still in the enum. */
export type PayoutStatus = "SCHEDULED" | "IN_TRANSIT" | "PAID" | "FAILED" | "CANCELED";

export interface PaymentsSchedule {
  /** From the refund's processedAt until it belongs to a payout (PENDING before: "not assigned a payout yet"). */
  payoutAfterMs: number;
  /** From the refund's processedAt until its payout is PAID (or the status `failPayout` gave it). */
  paidAfterMs: number;
  /** From the refund's processedAt until the card network's ARN is known. */
  arnAfterMs: number;
}

export interface BalanceTransaction {
  id: bigint;
  type: BalanceTransactionType;
  /** The REFUND order transaction it comes from (sourceOrderTransactionId). */
  source: FakeTransaction;
  order: FakeOrder;
  /** transactionDate: when it reached the balance. */
  date: Date;
  /** Minor units of `currency`, signed as it moves the merchant's balance: a refund debits it. */
  amountMinor: bigint;
  currency: string;
}

export interface Payout {
  id: bigint;
  currency: string;
  /** "The payout only contains balance transactions that were available at this time": the last one's joining. */
  issuedAt: Date;
  status: PayoutStatus;
  /** The balance transactions that belong to it by now. */
  transactions: BalanceTransaction[];
  netMinor: bigint;
}

/** ShopifyPaymentsPayoutInterval and DayOfTheWeek, as the 2026-10 schema lists them. */
export const PAYOUT_INTERVALS = ["DAILY", "WEEKLY", "MONTHLY", "MANUAL"] as const;
export const DAYS_OF_THE_WEEK = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"] as const;

/**
 * ShopifyPaymentsPayoutSchedule as the schema types it: `interval` non-null; `weeklyAnchor` ("any
 * weekday from Monday to Friday", used when weekly) and `monthlyAnchor` ("any day of the month
 * from the 1st to the 31st", used when monthly) nullable. What a shop of this fake answers; it
 * says nothing of when this fake's own payouts happen (`FakePayments.schedule`).
 */
export interface PayoutScheduleView {
  interval: (typeof PAYOUT_INTERVALS)[number];
  weeklyAnchor: (typeof DAYS_OF_THE_WEEK)[number] | null;
  monthlyAnchor: number | null;
}

/** Shopify Payments' records at one moment of the shop's clock. */
export interface Ledger {
  /** By transactionDate, then id. */
  transactions: BalanceTransaction[];
  /** By issuedAt, then id. */
  payouts: Payout[];
  /** The payout each balance transaction belongs to; none yet for a PENDING one. */
  payoutOf: Map<BalanceTransaction, Payout>;
}

const isPaymentsRefund = (t: FakeTransaction) => t.kind === "REFUND" && t.gateway === "shopify_payments";

/** The check digit that makes `digits` pass the Luhn test (an ARN's last digit). */
function luhnDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/**
 * Shopify Payments for one FakeShop: the balance transactions its refunds make, the payouts that
 * carry them, and the card network's ARN of each refund. Everything is computed from the shop's
 * order transactions and its clock (`shop.now()`) when read, so moving the clock moves the ledger.
 */
export class FakePayments {
  /** "none": a shop without Shopify Payments (the root field `shopifyPaymentsAccount` is null). */
  account: "active" | "none" = "active";
  /** OrderTransaction.shopifyPaymentsSet "is available only to stores on a Shopify Plus plan": null when false. */
  plus = true;
  schedule: PaymentsSchedule = { payoutAfterMs: DAY_MS, paidAfterMs: 3 * DAY_MS, arnAfterMs: DAY_MS };
  /** Payouts between payoutAfterMs and paidAfterMs report the deprecated IN_TRANSIT instead of SCHEDULED. */
  reportInTransit = false;
  /** ShopifyPaymentsAccount.country. */
  country = "US";

  private schedule_: PayoutScheduleView = { interval: "DAILY", weeklyAnchor: null, monthlyAnchor: null };

  /** ShopifyPaymentsAccount.payoutSchedule: daily by default; a test sets the shop's own (checked against the schema's types). */
  get payoutSchedule(): PayoutScheduleView {
    return { ...this.schedule_ };
  }

  set payoutSchedule(schedule: PayoutScheduleView) {
    if (!PAYOUT_INTERVALS.includes(schedule.interval)) throw new Error(`payoutSchedule.interval: ${schedule.interval} is not a ShopifyPaymentsPayoutInterval`);
    if (schedule.weeklyAnchor !== null && !DAYS_OF_THE_WEEK.includes(schedule.weeklyAnchor))
      throw new Error(`payoutSchedule.weeklyAnchor: ${schedule.weeklyAnchor} is not a DayOfTheWeek`);
    if (schedule.monthlyAnchor !== null && !(Number.isInteger(schedule.monthlyAnchor) && schedule.monthlyAnchor >= 1 && schedule.monthlyAnchor <= 31))
      throw new Error(`payoutSchedule.monthlyAnchor: ${schedule.monthlyAnchor} is not a day of the month`);
    this.schedule_ = { ...schedule };
  }

  private readonly failures = new Map<bigint, "FAILED" | "CANCELED">();
  private readonly balanceAmounts = new Map<bigint, bigint>();
  private readonly reversals = new Map<bigint, Date>();
  private readonly withheld = new Set<bigint>();

  constructor(private readonly shop: FakeShop) {}

  /** The payout carrying this refund transaction ends in `status` instead of PAID (SCHEDULED until then, as usual). */
  failPayout(transactionId: bigint, status: "FAILED" | "CANCELED"): void {
    this.refundTransaction(transactionId);
    this.failures.set(transactionId, status);
  }

  /** Shopify's balance transaction for this refund records `amount` (a magnitude, in the balance currency) instead of the refund's. */
  setBalanceAmount(transactionId: bigint, amount: string): void {
    this.refundTransaction(transactionId);
    this.balanceAmounts.set(transactionId, parseMinor(amount, this.shop.currency));
  }

  /** The refund failed after it left: Shopify adds a REFUND_FAILURE balance transaction, dated now, giving the money back to the balance. */
  reverse(transactionId: bigint): void {
    this.refundTransaction(transactionId);
    if (this.reversals.has(transactionId)) throw new Error(`refund transaction ${transactionId} is reversed already`);
    this.reversals.set(transactionId, this.shop.now());
  }

  /** Shopify shows no balance transaction for this refund (yet). */
  withhold(transactionId: bigint): void {
    this.refundTransaction(transactionId);
    this.withheld.add(transactionId);
  }

  release(transactionId: bigint): void {
    this.withheld.delete(transactionId);
  }

  private refundTransaction(id: bigint): FakeTransaction {
    const t = this.shop.transactions.get(id);
    if (!t || !isPaymentsRefund(t)) throw new Error(`${id} is not a REFUND transaction on shopify_payments`);
    return t;
  }

  /** The balance transactions of successful Shopify Payments refunds, and the payouts carrying them. */
  ledger(): Ledger {
    const { payoutAfterMs, paidAfterMs } = this.schedule;
    if (paidAfterMs < payoutAfterMs) throw new Error("FakePayments.schedule: paidAfterMs comes before payoutAfterMs");
    const transactions: BalanceTransaction[] = [];
    for (const t of this.shop.transactions.values()) {
      if (!isPaymentsRefund(t) || t.status !== "SUCCESS" || this.withheld.has(t.id)) continue;
      const order = this.shop.orders.get(t.orderId)!;
      const magnitude = this.balanceAmounts.get(t.id) ?? this.shop.shopMinor(order, t.amountMinor);
      const entry = { source: t, order, currency: this.shop.currency };
      // Ids of their own (never the order transaction's), stable whatever else the shop records.
      transactions.push({ ...entry, id: t.id * 10n + 1n, type: "REFUND", date: t.createdAt, amountMinor: -magnitude });
      const reversedAt = this.reversals.get(t.id);
      if (reversedAt) transactions.push({ ...entry, id: t.id * 10n + 2n, type: "REFUND_FAILURE", date: reversedAt, amountMinor: magnitude });
    }
    transactions.sort((a, b) => a.date.getTime() - b.date.getTime() || (a.id < b.id ? -1 : 1));
    const { payouts, payoutOf } = this.payouts(transactions);
    return { transactions, payouts, payoutOf };
  }

  /**
   * One payout per UTC day on which its balance transactions join one (processedAt + payoutAfterMs;
   * a FakeShop's balance has one currency, the shop's). The payout's own timeline is its first
   * transaction's: SCHEDULED from then, PAID from that one's processedAt + paidAfterMs. A later
   * transaction of the same day joins it while it is not yet paid; one that would join a paid
   * payout starts the day's next payout instead.
   */
  private payouts(transactions: BalanceTransaction[]): Pick<Ledger, "payouts" | "payoutOf"> {
    const now = this.shop.now().getTime();
    const { payoutAfterMs, paidAfterMs } = this.schedule;
    const joins = (bt: BalanceTransaction) => bt.date.getTime() + payoutAfterMs;
    const batches = new Map<string, BalanceTransaction[]>();
    const dayCount = new Map<number, number>();
    for (const bt of transactions) {
      const day = Math.floor(joins(bt) / DAY_MS);
      let n = dayCount.get(day) ?? 0;
      const current = batches.get(`${day}:${n}`);
      if (current && joins(bt) >= current[0].date.getTime() + paidAfterMs) dayCount.set(day, ++n);
      batches.set(`${day}:${n}`, [...(batches.get(`${day}:${n}`) ?? []), bt]);
    }
    const payouts: Payout[] = [];
    const payoutOf = new Map<BalanceTransaction, Payout>();
    for (const [key, members] of batches) {
      const joined = members.filter((bt) => joins(bt) <= now);
      if (!joined.length) continue;
      const [day, n] = key.split(":").map(Number);
      const failure = members.map((bt) => (bt.type === "REFUND" ? this.failures.get(bt.source.id) : undefined)).find(Boolean);
      const paid = now >= members[0].date.getTime() + paidAfterMs;
      const payout: Payout = {
        id: PAYOUT_ID_BASE + BigInt(day) * 100n + BigInt(n),
        currency: this.shop.currency,
        issuedAt: new Date(joins(joined[joined.length - 1])),
        status: paid ? (failure ?? "PAID") : this.reportInTransit ? "IN_TRANSIT" : "SCHEDULED",
        transactions: joined,
        netMinor: joined.reduce((sum, bt) => sum + bt.amountMinor, 0n),
      };
      payouts.push(payout);
      for (const bt of joined) payoutOf.set(bt, payout);
    }
    payouts.sort((a, b) => a.issuedAt.getTime() - b.issuedAt.getTime() || (a.id < b.id ? -1 : 1));
    return { payouts, payoutOf };
  }

  /**
   * ShopifyPaymentsRefundSet.acquirerReferenceNumber, "generated for Visa/Mastercard
   * transactions": null until arnAfterMs after the refund, then 23 digits in the networks' layout
   * (format code, acquirer BIN, YDDD processing date, 11-digit sequence, Luhn check digit), the
   * sequence taken from the transaction's id.
   */
  acquirerReferenceNumber(t: FakeTransaction): string | null {
    if (!isPaymentsRefund(t) || t.status !== "SUCCESS") return null;
    if (this.shop.now().getTime() < t.createdAt.getTime() + this.schedule.arnAfterMs) return null;
    const date = t.createdAt;
    const dayOfYear = Math.floor((date.getTime() - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY_MS) + 1;
    const digits = `7${ACQUIRER_BIN}${date.getUTCFullYear() % 10}${String(dayOfYear).padStart(3, "0")}${(t.id % 10n ** 11n).toString().padStart(11, "0")}`;
    return digits + luhnDigit(digits);
  }
}
