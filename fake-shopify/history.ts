import type { FakeShop } from "./shop";
import { gid } from "./views";

/** What the history contract should decide for a seeded refund. */
export type HistoryExpectation =
  | { verdict: "VERIFIED" }
  | { verdict: "CONTRADICTED"; reason: "duplicate_refund_in_history" | "refund_amount_mismatch" }
  | { verdict: "FAILED"; reason: "transaction_failed" }
  /** Created before the backfill's window (its order was updated inside it): not verified. */
  | { verdict: "OUTSIDE_WINDOW" };

export interface SeededHistory {
  /** Refund global id → what the contract implies. */
  expected: Map<string, HistoryExpectation>;
  /** Refunds inside the window (every expectation but OUTSIDE_WINDOW). */
  inWindow: number;
}

const DAY = 86_400_000;

/**
 * Refunds a shop made before the app was installed, none announced by a webhook: `count` refunds
 * over the last `days` days (ending an hour ago), one order each, and among them, by position,
 * refunds made twice within minutes (the second of the pair the duplicate), a refund whose transaction
 * failed at the gateway, a refund Shopify recorded with another total than its transaction, and
 * an older refund on an order refunded again inside the window. Some of the others were made by a
 * returns app or on Point of Sale.
 */
export function seedHistory(shop: FakeShop, count: number, options: { days?: number; now?: Date } = {}): SeededHistory {
  const days = options.days ?? 50;
  const now = (options.now ?? shop.now()).getTime();
  const expected = new Map<string, HistoryExpectation>();
  const span = days * DAY - 2 * 3600_000;
  let made = 0;
  for (let i = 0; made < count; i++) {
    const at = new Date(now - 3600_000 - Math.floor((span * (count - made)) / count));
    const amount = `${10 + (i % 90)}.${String(i % 100).padStart(2, "0")}`;
    const order = shop.createOrder({ amount: "500.00", createdAt: new Date(at.getTime() - 3600_000) });
    if (i % 41 === 7 && made + 2 <= count) {
      const first = shop.createRefund(order.id, { amount, createdAt: at });
      const second = shop.createRefund(order.id, { amount, createdAt: new Date(at.getTime() + 90_000) });
      // The first of the pair is the refund meant; the second, 90 s on, repeats it.
      expected.set(gid("Refund", first.id), { verdict: "VERIFIED" });
      expected.set(gid("Refund", second.id), { verdict: "CONTRADICTED", reason: "duplicate_refund_in_history" });
      made += 2;
    } else if (i % 23 === 5) {
      const refund = shop.createRefund(order.id, { amount, status: "FAILURE", createdAt: at });
      expected.set(gid("Refund", refund.id), { verdict: "FAILED", reason: "transaction_failed" });
      made++;
    } else if (i % 37 === 11) {
      const refund = shop.createRefund(order.id, { amount, recordedAmount: "1.00", createdAt: at });
      expected.set(gid("Refund", refund.id), { verdict: "CONTRADICTED", reason: "refund_amount_mismatch" });
      made++;
    } else if (i % 53 === 13) {
      // A partial refund long ago, and another inside the window: the order was updated inside it.
      const old = shop.createOrder({ amount: "500.00", createdAt: new Date(now - (days + 30) * DAY) });
      const before = shop.createRefund(old.id, { amount: "5.00", createdAt: new Date(now - (days + 20) * DAY) });
      const recent = shop.createRefund(old.id, { amount, createdAt: at });
      expected.set(gid("Refund", before.id), { verdict: "OUTSIDE_WINDOW" });
      expected.set(gid("Refund", recent.id), { verdict: "VERIFIED" });
      made++;
    } else {
      // Made in the admin, by another app, or on Point of Sale (decision 031): the verdict is the same.
      const madeBy = i % 5 === 1 ? { app: "Returns Pro" } : i % 7 === 2 ? { pos: true } : {};
      const refund = shop.createRefund(order.id, { amount, createdAt: at, ...madeBy });
      expected.set(gid("Refund", refund.id), { verdict: "VERIFIED" });
      made++;
    }
  }
  return { expected, inWindow: [...expected.values()].filter((e) => e.verdict !== "OUTSIDE_WINDOW").length };
}
