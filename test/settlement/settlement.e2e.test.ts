import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationFor, refundGid, startVerificationHarness, type VerificationHarness } from "../support/verification";
import type { FakeRefund } from "../../fake-shopify/shop";
import { newDelivery } from "../../fake-shopify/webhooks";
import { attemptSchedule } from "../../app/contracts/timing";
import { REFUND_SETTLED } from "../../app/contracts/registry.server";

// Contract shopify.refund.settled through the app against the fake Shopify: a VERIFIED refund's
// money followed to Shopify Payments' ledger and the payout that carried it (decision 025).

let h: VerificationHarness;
const DAY = 24 * 3600_000;
/** How long shopify.refund.settled follows a refund's money before it gives up. */
const TIMEOUT = REFUND_SETTLED.contract.timing.timeout_ms;
const WITH_PAYOUTS = "read_orders,write_orders,read_shopify_payments_accounts,read_shopify_payments_payouts";

beforeAll(async () => {
  h = await startVerificationHarness("settled-shop.myshopify.com");
  await grant(WITH_PAYOUTS);
});
afterAll(async () => h.close());

/** The shop grants exactly these scopes (Shopify answers so when asked), and the app has forgotten its last answer. */
async function grant(scope: string) {
  h.shop.grantedScopes = new Set(scope.split(","));
  await h.db.session.updateMany({ where: { shop: h.domain }, data: { scope } });
  await h.db.shopState.updateMany({ where: { shop: h.domain }, data: { paymentsAccount: null, paymentsCheckedAt: null } });
}

/** A refund of `amount` on a new order paid through `gateway`, delivered and VERIFIED at the created level. */
async function verifiedRefund(amount = "25.00", gateway = "shopify_payments"): Promise<FakeRefund> {
  const order = h.shop.createOrder({ amount: "100.00", gateway });
  const refund = h.shop.createRefund(order.id, { amount });
  expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
  await h.settle();
  expect((await operationFor(h.db, refundGid(refund.id))).status).toBe("VERIFIED");
  return refund;
}

const settlementOf = async (refund: FakeRefund) => h.db.settlement.findFirst({ where: { refundGid: refundGid(refund.id) } });

/** Runs settlement passes, moving the clock to each next due read, until `done` or `budgetMs` of Shopify's time have passed. */
async function followMoney(refund: FakeRefund, done: (s: NonNullable<Awaited<ReturnType<typeof settlementOf>>>) => boolean, budgetMs = 40 * DAY) {
  const end = h.clock.ms + budgetMs;
  for (let pass = 0; pass < 500; pass++) {
    await h.worker.runSettlements();
    const settlement = await settlementOf(refund);
    if (settlement && done(settlement)) return settlement;
    if (!settlement?.nextDueAt || settlement.nextDueAt.getTime() > end) return settlement;
    if (settlement.nextDueAt.getTime() > h.clock.ms) h.clock.ms = settlement.nextDueAt.getTime();
  }
  throw new Error("followMoney: too many passes");
}

const decided = (s: { status: string }) => s.status !== "PENDING";

describe("a refund through Shopify Payments is followed to its payout", () => {
  it("in the ledger with the refund's amount and its payout PAID: VERIFIED, settled", async () => {
    const refund = await verifiedRefund("25.00");
    const settlement = await followMoney(refund, decided);
    expect(settlement).toMatchObject({ status: "VERIFIED", money: "paid", payoutStatus: "PAID", amount: "25.00", currency: "USD", escalate: false });
    expect(settlement!.payoutGid).toMatch(/^gid:\/\/shopify\/ShopifyPaymentsPayout\//);
    expect(settlement!.decidedAt!.getTime() - refund.createdAt.getTime()).toBeGreaterThanOrEqual(h.shop.payments.schedule.paidAfterMs);
  });

  it("SCHEDULED (in transit) first, then PAID: in transit while the payout is on its way, VERIFIED once it is paid", async () => {
    const refund = await verifiedRefund("12.00");
    const inTransit = await followMoney(refund, (s) => s.money === "in_transit" || decided(s));
    expect(inTransit).toMatchObject({ status: "PENDING", money: "in_transit", payoutStatus: "SCHEDULED" });
    expect(JSON.parse(inTransit!.result!).reasons).toEqual(["payout_paid"]);
    const paid = await followMoney(refund, decided);
    expect(paid).toMatchObject({ status: "VERIFIED", money: "paid", payoutStatus: "PAID" });
  });

  it("a payout reported IN_TRANSIT (deprecated in 2026-10) is in transit too", async () => {
    h.shop.payments.reportInTransit = true;
    try {
      const refund = await verifiedRefund("13.00");
      const inTransit = await followMoney(refund, (s) => s.money === "in_transit" || decided(s));
      expect(inTransit).toMatchObject({ status: "PENDING", money: "in_transit", payoutStatus: "IN_TRANSIT" });
    } finally {
      h.shop.payments.reportInTransit = false;
    }
  });

  it("the payout FAILED at the bank: CONTRADICTED payout_failed, escalated", async () => {
    const refund = await verifiedRefund("40.00");
    h.shop.payments.failPayout(refund.transactionIds[0], "FAILED");
    const settlement = await followMoney(refund, decided);
    expect(settlement).toMatchObject({ status: "CONTRADICTED", reason: "payout_failed", money: "payout_failed", payoutStatus: "FAILED", escalate: true });
    expect(JSON.parse(settlement!.classes)).toEqual(["payout failed"]);
  });

  it("a balance transaction of another amount: CONTRADICTED ledger_amount_mismatch (wrong amount)", async () => {
    const refund = await verifiedRefund("30.00");
    h.shop.payments.setBalanceAmount(refund.transactionIds[0], "3.00");
    const settlement = await followMoney(refund, decided);
    expect(settlement).toMatchObject({ status: "CONTRADICTED", reason: "ledger_amount_mismatch", money: "wrong_amount" });
    expect(JSON.parse(settlement!.classes)).toEqual(["wrong amount"]);
  });

  it("reversed by Shopify Payments (REFUND_FAILURE): CONTRADICTED refund_reversed", async () => {
    const refund = await verifiedRefund("18.00");
    h.shop.payments.reverse(refund.transactionIds[0]);
    const settlement = await followMoney(refund, decided);
    expect(settlement).toMatchObject({ status: "CONTRADICTED", reason: "refund_reversed", money: "reversed" });
  });

  it("the ARN arrives after the payout is PAID: VERIFIED first, the reference recorded when the card network assigns it", async () => {
    const { schedule } = h.shop.payments;
    const before = { ...schedule };
    Object.assign(schedule, { arnAfterMs: schedule.paidAfterMs + 2 * DAY });
    try {
      const refund = await verifiedRefund("9.00");
      const paid = await followMoney(refund, decided);
      expect(paid).toMatchObject({ status: "VERIFIED", money: "paid", arn: null });
      expect(paid!.nextDueAt).not.toBeNull();
      const withReference = await followMoney(refund, (s) => s.arn !== null);
      expect(withReference).toMatchObject({ status: "VERIFIED", money: "paid" });
      expect(withReference!.arn).toMatch(/^\d{23}$/);
      expect(withReference!.nextDueAt).toBeNull();
    } finally {
      Object.assign(schedule, before);
    }
  });

  it("never paid out within 50 days: UNVERIFIABLE not_settled_before_timeout, for a person", async () => {
    const refund = await verifiedRefund("7.00");
    h.shop.payments.withhold(refund.transactionIds[0]);
    const settlement = await followMoney(refund, decided, TIMEOUT + DAY);
    expect(settlement).toMatchObject({ status: "UNVERIFIABLE", reason: "not_settled_before_timeout", money: "awaiting_ledger", escalate: true });
    expect(settlement!.decidedAt!.getTime() - settlement!.startedAt.getTime()).toBeGreaterThanOrEqual(50 * DAY);
  });

  it("a monthly shop's refund made just after its payout, paid out with the next one 42 days later: VERIFIED, never sent to a person", async () => {
    // Decision 032: a monthly payout's money is due up to 41 days after the refund in the United States, 44 elsewhere.
    const { schedule } = h.shop.payments;
    const before = { ...schedule };
    h.shop.payments.payoutSchedule = { interval: "MONTHLY", weeklyAnchor: null, monthlyAnchor: 1 };
    Object.assign(schedule, { payoutAfterMs: 39 * DAY, paidAfterMs: 42 * DAY, arnAfterMs: DAY });
    try {
      const refund = await verifiedRefund("11.00");
      const settlement = await followMoney(refund, decided, 60 * DAY);
      expect(settlement).toMatchObject({ status: "VERIFIED", money: "paid", payoutStatus: "PAID", escalate: false });
      expect(settlement!.decidedAt!.getTime() - settlement!.startedAt.getTime()).toBeGreaterThanOrEqual(42 * DAY - DAY);
      expect(settlement!.contractVersion).toBe("1.1.0");
    } finally {
      Object.assign(schedule, before);
      h.shop.payments.payoutSchedule = { interval: "DAILY", weeklyAnchor: null, monthlyAnchor: null };
    }
  });
});

describe("a long ledger and an old history", () => {
  it("a refund past the pages one read may turn is read again from a later date, never taken for missing", async () => {
    // A at T - 10 s, 2,050 refunds the app does not follow at T, T + 1 s, …, then B: read together,
    // the ledger from A on is 21 pages, one more than a read turns.
    const start = h.clock.ms;
    const orderA = h.shop.createOrder({ amount: "50.00" });
    const a = h.shop.createRefund(orderA.id, { amount: "21.00" });
    for (let i = 0; i < 2_050; i++) {
      const at = new Date(start + 10_000 + i * 1000);
      const order = h.shop.createOrder({ amount: "10.00", createdAt: at });
      h.shop.createRefund(order.id, { amount: "1.00", createdAt: at });
      // Made before the app was installed: the sweep, which reads orders updated lately, leaves
      // them alone; only the ledger holds them.
      order.updatedAt = new Date(start - 365 * DAY);
    }
    h.clock.ms = start + 10_000 + 2_060_000;
    const orderB = h.shop.createOrder({ amount: "50.00" });
    const b = h.shop.createRefund(orderB.id, { amount: "22.00" });
    for (const refund of [a, b]) expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    // The first read: A is judged from it, B is read again from its own date before it is judged.
    const firstRead = await followMoney(b, (s) => s.attempts > 0);
    expect(firstRead).toMatchObject({ status: "PENDING", money: "in_ledger", attempts: 1, readFailures: 0 });
    expect(await settlementOf(a)).toMatchObject({ status: "PENDING", money: "in_ledger", attempts: 1 });
  });

  it("granting the scopes follows refunds verified in the last 50 days, not older ones that would time out at once", async () => {
    await grant("read_orders,write_orders");
    try {
      const old = await verifiedRefund("3.00");
      h.clock.advance(TIMEOUT + DAY);
      const recent = await verifiedRefund("4.00");
      await grant(WITH_PAYOUTS);
      await h.worker.runSettlements();
      expect(await settlementOf(old)).toBeNull();
      expect(await settlementOf(recent)).toMatchObject({ status: "PENDING" });
    } finally {
      await grant(WITH_PAYOUTS);
    }
  });
});

describe("two workers at once", () => {
  it("open each refund's settlement once and judge it once: 20 refunds, two workers passing side by side", async () => {
    const refunds: FakeRefund[] = [];
    for (let i = 0; i < 20; i++) {
      const order = h.shop.createOrder({ amount: "50.00" });
      refunds.push(h.shop.createRefund(order.id, { amount: `${10 + i}.00` }));
    }
    for (const refund of refunds) expect((await h.deliver(h.refundDelivery(refund))).status).toBe(200);
    await h.settle();
    const workers = [h.newWorker({ workerId: "settle-a" }), h.newWorker({ workerId: "settle-b" })];
    const gids = refunds.map((r) => refundGid(r.id));
    const ledgerReads = () => h.app.shopify.api(h.domain).stats.byOperation.PaymentsLedger ?? 0;
    const before = ledgerReads();
    let rounds = 0;
    for (let round = 0; round < 40; round++) {
      rounds = round + 1;
      await Promise.all(workers.map((w) => w.runSettlements()));
      const next = await h.db.settlement.findFirst({ where: { refundGid: { in: gids }, status: "PENDING" }, orderBy: { nextDueAt: "asc" } });
      if (!next?.nextDueAt) break;
      if (next.nextDueAt.getTime() > h.clock.ms) h.clock.ms = next.nextDueAt.getTime();
    }
    const settlements = await h.db.settlement.findMany({ where: { refundGid: { in: gids } } });
    expect(settlements).toHaveLength(20);
    expect(settlements.every((s) => s.status === "VERIFIED" && s.money === "paid")).toBe(true);
    // Judged once a scheduled read, whichever worker read it: a row two workers both judged would
    // count more attempts than the contract's schedule has reads before its verdict.
    for (const settlement of settlements) {
      const scheduled = attemptSchedule(REFUND_SETTLED.contract.timing).filter((ms) => ms <= settlement.decidedAt!.getTime() - settlement.startedAt.getTime());
      expect(settlement.attempts).toBe(scheduled.length);
    }
    // One ledger read a worker and round at most, for all 20 refunds: never a read per refund.
    expect(ledgerReads() - before).toBeLessThanOrEqual(2 * rounds);
  });
});

describe("what the app could not read is never an alarm", () => {
  it("the scopes withdrawn after a refund was opened: it waits, and ends NOT_FOLLOWED at its timeout, not late, not alerted", async () => {
    const refund = await verifiedRefund("8.00");
    await h.worker.runSettlements();
    expect(await settlementOf(refund)).toMatchObject({ status: "PENDING" });
    // The merchant withdraws the payments scopes: Shopify says so with app/scopes_update, and answers so when asked.
    h.shop.grantedScopes.delete("read_shopify_payments_payouts");
    h.shop.grantedScopes.delete("read_shopify_payments_accounts");
    const update = { id: 2, previous: WITH_PAYOUTS.split(","), current: ["read_orders", "write_orders"], updated_at: h.clock.now().toISOString() };
    expect((await h.deliver(newDelivery("app/scopes_update", h.domain, JSON.stringify(update), h.clock.now()))).status).toBe(200);
    try {
      const ended = await followMoney(refund, decided, TIMEOUT + DAY);
      expect(ended).toMatchObject({ status: "NOT_FOLLOWED", reason: "not_readable_before_timeout", escalate: false, nextDueAt: null });
      await h.worker.runAlerts();
      const op = await operationFor(h.db, refundGid(refund.id));
      expect(await h.db.alertEvent.count({ where: { operationId: op.id } })).toBe(0);
    } finally {
      h.shop.grantedScopes.add("read_shopify_payments_payouts");
      h.shop.grantedScopes.add("read_shopify_payments_accounts");
      await grant(WITH_PAYOUTS);
    }
  });

  it("a ledger answer with an error on a field of an entry (its transaction's id) is a failed read, never a refund missing from the ledger", async () => {
    const refund = await verifiedRefund("6.50");
    await h.worker.runSettlements();
    const opened = await settlementOf(refund);
    expect(opened).toMatchObject({ status: "PENDING", readFailures: 0 });
    // Shopify could not resolve the entry's sourceOrderTransactionId: null, with an error at its path; the account is there.
    h.app.shopify.inject({
      kind: "field_error",
      path: ["shopifyPaymentsAccount", "balanceTransactions", "nodes", 0, "sourceOrderTransactionId"],
      code: "INTERNAL_SERVER_ERROR",
      operationName: "PaymentsLedger",
    });
    h.clock.ms = Math.max(h.clock.ms, opened!.nextDueAt!.getTime());
    await h.worker.runSettlements();
    expect(h.app.shopify.pendingFaults()).toBe(0);
    expect(await settlementOf(refund)).toMatchObject({ status: "PENDING", readFailures: 1, attempts: opened!.attempts });
    // Read again after the back-off, it is judged on what Shopify then says.
    expect(await followMoney(refund, decided)).toMatchObject({ status: "VERIFIED", money: "paid" });
  });

  it("the payouts scope withdrawn with no app/scopes_update: the ledger's refusal says 'not granted', never that the shop has no Shopify Payments", async () => {
    const refund = await verifiedRefund("7.00");
    await h.worker.runSettlements();
    expect(await settlementOf(refund)).toMatchObject({ status: "PENDING" });
    // Shopify now refuses the ledger (graphql answers the account null, the error at its balance transactions).
    h.shop.grantedScopes.delete("read_shopify_payments_payouts");
    try {
      // The next read is due within the day the app holds its last answer about the account: it asks Shopify nothing else.
      const due = (await settlementOf(refund))!.nextDueAt!.getTime();
      expect(due - h.clock.ms).toBeLessThan(DAY / 2);
      h.clock.ms = due;
      await h.worker.runSettlements();
      const state = await h.db.shopState.findUniqueOrThrow({ where: { shop: h.domain } });
      expect(state.paymentsAccount).toBe("not_granted");
      expect(await settlementOf(refund)).toMatchObject({ status: "PENDING" });
    } finally {
      await grant(WITH_PAYOUTS);
    }
  });

  it("customers/redact removes the card network's reference and the reads that held it, and stops reading it", async () => {
    const refund = await verifiedRefund("16.00");
    const withReference = await followMoney(refund, (s) => s.arn !== null);
    expect(withReference!.arn).toMatch(/^\d{23}$/);
    const body = `{"shop_id":1,"shop_domain":"${h.domain}","customer":{"id":7},"orders_to_redact":[${refund.orderId}]}`;
    expect((await h.deliver(newDelivery("customers/redact", h.domain, body))).status).toBe(200);
    expect(await settlementOf(refund)).toMatchObject({ arn: null, observed: null, result: null, status: "NOT_FOLLOWED", nextDueAt: null });
    // Never read again, so the reference is never stored again.
    h.clock.advance(5 * DAY);
    await h.worker.runSettlements();
    expect(await settlementOf(refund)).toMatchObject({ arn: null });
  });
});

describe("what the app does not judge", () => {
  it("a refund through another gateway stops at the gateway: GATEWAY_ONLY, never VERIFIED, never read", async () => {
    const refund = await verifiedRefund("20.00", "paypal");
    await h.worker.runSettlements();
    const settlement = await settlementOf(refund);
    expect(settlement).toMatchObject({ status: "GATEWAY_ONLY", money: "at_gateway", nextDueAt: null });
  });

  it("a shop without Shopify Payments: no settlement is opened, and the shop says why", async () => {
    h.shop.payments.account = "none";
    await grant(WITH_PAYOUTS);
    try {
      const refund = await verifiedRefund("5.00");
      await h.worker.runSettlements();
      expect(await settlementOf(refund)).toBeNull();
      expect(await h.db.shopState.findUnique({ where: { shop: h.domain } })).toMatchObject({ paymentsAccount: "none" });
    } finally {
      h.shop.payments.account = "active";
      await grant(WITH_PAYOUTS);
    }
  });

  it("the scope not granted: created verdicts stay, no payout is read, and the shop says why; granting it turns settlement on", async () => {
    await grant("read_orders,write_orders");
    h.shop.grantedScopes.delete("read_shopify_payments_payouts");
    try {
      const refund = await verifiedRefund("6.00");
      const requests = h.app.shopify.api(h.domain).stats.byOperation;
      const ledgerReads = requests.PaymentsLedger ?? 0;
      await h.worker.runSettlements();
      expect(await settlementOf(refund)).toBeNull();
      expect((await operationFor(h.db, refundGid(refund.id))).status).toBe("VERIFIED");
      expect(requests.PaymentsLedger ?? 0).toBe(ledgerReads);
      // The merchant grants the optional scopes: Shopify says so with app/scopes_update, and the next pass opens it.
      for (const scope of WITH_PAYOUTS.split(",")) h.shop.grantedScopes.add(scope);
      const update = { id: 1, previous: ["read_orders", "write_orders"], current: WITH_PAYOUTS.split(","), updated_at: h.clock.now().toISOString() };
      expect((await h.deliver(newDelivery("app/scopes_update", h.domain, JSON.stringify(update), h.clock.now()))).status).toBe(200);
      await h.worker.runSettlements();
      expect(await settlementOf(refund)).toMatchObject({ status: "PENDING" });
    } finally {
      h.shop.grantedScopes.add("read_shopify_payments_payouts");
      await grant(WITH_PAYOUTS);
    }
  });
});

describe("app/scopes_update is a hint: what Shopify says the shop grants is what the app stores", () => {
  // Issue 42, items 1 and 2. Shopify signs the body only, and the body names no shop.
  const session = () => h.db.session.findFirstOrThrow({ where: { shop: h.domain, isOnline: false } });

  it("a signed delivery replayed under this shop's header, or an old one arriving late, withdraws nothing: the payout is still followed", async () => {
    const refund = await verifiedRefund("9.00");
    await h.worker.runSettlements();
    expect(await settlementOf(refund)).toMatchObject({ status: "PENDING" });
    // Another shop's signed body (or this shop's from last week), posted with this shop's header.
    const replayed = {
      id: 7,
      previous: WITH_PAYOUTS.split(","),
      current: ["read_orders", "write_orders"],
      updated_at: new Date(h.clock.ms - 7 * DAY).toISOString(),
    };
    for (let i = 0; i < 3; i++) expect((await h.deliver(newDelivery("app/scopes_update", h.domain, JSON.stringify(replayed), h.clock.now()))).status).toBe(200);
    const granted = async () => (await session()).scope!.split(",").sort();
    expect(await granted()).toEqual(WITH_PAYOUTS.split(",").sort());
    const ended = await followMoney(refund, decided);
    expect(ended).toMatchObject({ status: "VERIFIED", money: "paid" });
    expect(await granted()).toEqual(WITH_PAYOUTS.split(",").sort());
  });

  it("a grant Shopify has not made is not believed: the forged delivery only makes the app ask Shopify again", async () => {
    await grant(WITH_PAYOUTS);
    h.shop.grantedScopes.delete("read_shopify_payments_payouts");
    try {
      const refund = await verifiedRefund("7.00");
      await h.worker.runSettlements();
      // Shopify was asked: the scope is not granted, and the session says what Shopify said.
      expect(await settlementOf(refund)).toBeNull();
      expect((await session()).scope).not.toContain("read_shopify_payments_payouts");
      // A forged grant (a signed body that claims it) is only a reason to ask Shopify again.
      const forged = { id: 8, previous: ["read_orders"], current: WITH_PAYOUTS.split(","), updated_at: h.clock.now().toISOString() };
      expect((await h.deliver(newDelivery("app/scopes_update", h.domain, JSON.stringify(forged), h.clock.now()))).status).toBe(200);
      await h.worker.runSettlements();
      expect(await settlementOf(refund)).toBeNull();
      expect((await session()).scope).not.toContain("read_shopify_payments_payouts");
      expect(h.app.shopify.api(h.domain).stats.byOperation.GrantedScopes).toBeGreaterThanOrEqual(2);
    } finally {
      h.shop.grantedScopes.add("read_shopify_payments_payouts");
      await grant(WITH_PAYOUTS);
    }
  });
});
