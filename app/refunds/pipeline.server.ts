import type { PrismaClient, RefundRecord } from "@prisma/client";
import type { LoadedContract } from "../contracts/load";
import { parseStored, storedCaptions } from "../lib/db/stored-json";
import { formatMoney, fromMinorUnits, toMinorUnits } from "../lib/money/currency";
import { parseAmount } from "../lib/money/typed-amount";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { loadOrderForRefund, type OrderForRefund } from "../shopify/admin/refunds.server";
import { minutesAgo, overRefundMessage, RECENT_REFUND_WINDOW_MS } from "./form";
import { fail, type IssueFailure } from "./outcomes";
import { allocate, presentmentCurrency, refundableMinor, refundedMinor, type RefundTransactionInput } from "./plan";
import { OPEN_OUTCOMES } from "./records.server";
import { confirmedRiskCaptions, refundRisks, riskFacts, riskRefusalMessage, type RiskCode } from "./risk";

/**
 * What issuing, approving and settling a refund work with, as background work is given its
 * `Helpers`: the database, the contract a refund is verified under, Shopify's gateway, and the
 * instant the request (or the worker's pass) is made at.
 */
export interface RefundContext {
  db: PrismaClient;
  contract: LoadedContract;
  gateway: ShopifyGateway;
  now: Date;
}

export const orderNameOf = (record: RefundRecord) => parseStored(storedCaptions, record.refCaptions, "RefundRecord.refCaptions")[0]?.caption ?? "the order";
const amountOf = (record: RefundRecord) => `${fromMinorUnits(record.amountMinor, record.currency)} ${record.currency}`;

/** While an attempt on the order has no known outcome, a new refund could be a second one: say which, and what is being done. */
export function openAttemptMessage(record: RefundRecord): string {
  if (record.shopifyOutcome === "none") {
    return `${record.sysId} (${amountOf(record)}) on ${orderNameOf(record)} is being sent to Shopify. A new refund on this order waits until Shopify has answered it.`;
  }
  if (record.shopifyOutcome === "key_conflict") {
    return `${record.sysId} (${amountOf(record)}) on ${orderNameOf(record)} needs a person: Shopify refused to repeat it because its idempotency key was already used with other details. Check the order in Shopify admin and settle ${record.sysId} before refunding again.`;
  }
  return `${record.sysId} (${amountOf(record)}) on ${orderNameOf(record)} has no answer from Shopify yet. The app keeps asking Shopify with the same idempotency key, which cannot refund twice. A new refund on this order is refused until ${record.sysId} is settled.`;
}

export async function openAttemptOn(db: PrismaClient, shop: string, orderId: string): Promise<RefundRecord | null> {
  return db.refundRecord.findFirst({ where: { shop, orderId, shopifyOutcome: { in: OPEN_OUTCOMES } }, orderBy: { createdAt: "asc" } });
}

/**
 * A refund on the order in the last ten minutes (or since `since`): one issued from the app (Shopify created it), or
 * any refund the app knows of by its refund's time: its verdict operation (webhook, sweep or app),
 * or a refunds/create delivery stored and not yet opened by the worker. Words for a person, or null.
 */
export async function recentRefund(
  db: PrismaClient,
  shop: string,
  orderId: string,
  now: Date,
  since = new Date(now.getTime() - RECENT_REFUND_WINDOW_MS),
): Promise<{ at: Date; message: string } | null> {
  const [record, operation, delivery] = await Promise.all([
    db.refundRecord.findFirst({ where: { shop, orderId, shopifyOutcome: "created", createdAt: { gte: since } }, orderBy: { createdAt: "desc" } }),
    db.operation.findFirst({ where: { shop, orderGid: orderId, startedAt: { gte: since } }, orderBy: { startedAt: "desc" } }),
    db.webhookDelivery.findFirst({ where: { shop, orderGid: orderId, refundCreatedAt: { gte: since } }, orderBy: { refundCreatedAt: "desc" } }),
  ]);
  const seen =
    delivery && (!operation || delivery.refundCreatedAt > operation.startedAt)
      ? { refundGid: delivery.refundGid, at: delivery.refundCreatedAt, amount: delivery.amount, currency: delivery.currency, orderName: null }
      : operation && {
          refundGid: operation.refundGid,
          at: operation.startedAt,
          amount: operation.amount,
          currency: operation.currency,
          orderName: operation.orderName,
        };
  // The record's own refund is seen again through its webhook, stamped by Shopify's clock, which
  // may be ahead of ours: it is still the record's refund, named by the record.
  if (record && (!seen || seen.refundGid === record.refundRef || record.createdAt >= seen.at)) {
    return {
      at: record.createdAt,
      message: `${record.sysId}, a refund of ${formatMoney(record.amountMinor, record.currency)} on ${orderNameOf(record)}, was issued from the app ${minutesAgo(record.createdAt, now)}.`,
    };
  }
  if (seen) {
    const minor = seen.amount && seen.currency ? toMinorUnits(seen.amount, seen.currency) : undefined;
    const money = minor !== undefined && seen.currency ? `of ${formatMoney(minor, seen.currency)} ` : "";
    return { at: seen.at, message: `A refund ${money}was made on ${seen.orderName ?? "this order"} ${minutesAgo(seen.at, now)}.` };
  }
  return null;
}

type RefundPlan = { ok: true; order: OrderForRefund; currency: string; amountMinor: bigint; transactions: RefundTransactionInput[] } | IssueFailure;

/** The order as Shopify has it now, the amount in its presentment currency, and the refund transactions; or why it cannot be refunded. */
async function prepareRefund(gateway: ShopifyGateway, shop: string, orderId: string, amount: string): Promise<RefundPlan> {
  const answer = await loadOrderForRefund(gateway, shop, orderId);
  if (!answer.ok) return fail("SHOPIFY_UNAVAILABLE", `Shopify did not answer (${answer.message}). Nothing was refunded; try again in a moment.`);
  const order = answer.data;
  if (!order) return fail("ORDER_NOT_FOUND", "Shopify does not show this order.");
  const currency = presentmentCurrency(order);
  const parsed = parseAmount(amount, currency);
  if (!parsed.ok) return fail("INVALID_AMOUNT", parsed.message, undefined, { amount: parsed.message });
  const amountMinor = parsed.minor;
  const capacity = refundableMinor(order);
  const { transactions, unallocated } = allocate(order, amountMinor);
  if (amountMinor > capacity || unallocated > 0n) {
    const words = overRefundMessage(capacity, currency, order.name);
    return fail("OVER_TENDERED", words, undefined, { amount: words });
  }
  return { ok: true, order, currency, amountMinor, transactions };
}

/**
 * Who sends the refund to Shopify: a person issuing it from the form, or an approver deciding a
 * request asked for earlier (what Shopify showed refunded on the order then, in its presentment currency).
 */
export type Sender = { by: "issuing" } | { by: "approving"; askedAt: Date; orderRefundedMinor: bigint };

/**
 * The words of the shared checks, each sender's own. Issuing tells the person at the form what the
 * open attempt is and what is being done about it; approving tells the approver to come back
 * once it is settled (the request keeps waiting). A refund meanwhile is asked again either way.
 */
const WORDS = {
  issuing: {
    openAttempt: (record: RefundRecord) => fail("OUTCOME_PENDING", openAttemptMessage(record), record),
    known: (refund: string) => refund,
    meanwhile: (refunded: string) => `${refunded} To refund this order again, confirm "Yes, another refund".`,
  },
  approving: {
    openAttempt: (record: RefundRecord) =>
      fail("OUTCOME_PENDING", `${record.sysId} on this order has no answer from Shopify yet: approve this request once it is settled.`),
    known: (refund: string) => `${refund} That was after this refund was asked for.`,
    meanwhile: (refunded: string) => `${refunded} To approve it as another refund, confirm "Yes, another refund".`,
  },
} satisfies Record<Sender["by"], { openAttempt(record: RefundRecord): IssueFailure; known(refund: string): string; meanwhile(refunded: string): string }>;

/** A refund as it is about to be sent: what the checks before Shopify read. */
export interface RefundToSend {
  shop: string;
  orderId: string;
  /** The amount, in the order's presentment currency. */
  amount: string;
  note: string | null;
  notify: boolean;
  /** "Yes, another refund": a refund on the order meanwhile does not stop this one. */
  confirmAnother: boolean;
  /** "Yes, refund anyway": the risks of paying twice the person saw and confirmed. */
  confirmRisk: readonly RiskCode[];
  sender: Sender;
}

/** Checked: the order as Shopify has it now, and what the record is sent with. */
export interface Checked {
  ok: true;
  order: OrderForRefund;
  currency: string;
  amountMinor: bigint;
  /** Someone said yes to a question: another refund, or a risk of paying twice. */
  confirmed: boolean;
  /** The record's exact RefundInput (decision 008), its captions and its parent transaction, from the order as Shopify has it now. */
  sent: { parentId: string | null; refundInput: string; refCaptions: string };
}

/**
 * The checks before a refund goes to Shopify, the same for issuing and approving, made holding the
 * order's lock (decision 016): no other attempt on the order is open; the order was not refunded
 * meanwhile (issuing: in the last ten minutes; approving: since it was asked for, or more refunded
 * in Shopify's own read than then), unless "Yes, another refund"; Shopify can still refund the
 * amount (the order read now, allocated to its payments); and every risk of paying twice, with the
 * order as Shopify has it now, was confirmed.
 */
export async function checkBeforeSending(context: RefundContext, refund: RefundToSend): Promise<Checked | IssueFailure> {
  const { db, gateway, now } = context;
  const { sender } = refund;
  const words = WORDS[sender.by];
  const openAttempt = await openAttemptOn(db, refund.shop, refund.orderId);
  if (openAttempt) return words.openAttempt(openAttempt);
  if (!refund.confirmAnother) {
    const known = await recentRefund(db, refund.shop, refund.orderId, now, sender.by === "approving" ? sender.askedAt : undefined);
    if (known) return fail("RECENT_REFUND", words.meanwhile(words.known(known.message)));
  }
  const plan = await prepareRefund(gateway, refund.shop, refund.orderId, refund.amount);
  if (!plan.ok) return plan;
  const { order, currency, amountMinor, transactions } = plan;
  const more = sender.by === "approving" ? refundedMinor(order) - sender.orderRefundedMinor : 0n;
  if (!refund.confirmAnother && more > 0n) {
    return fail(
      "RECENT_REFUND",
      words.meanwhile(`Shopify shows ${formatMoney(more, currency)} more refunded on ${order.name} since this refund was asked for.`),
    );
  }
  // Checked with the order as Shopify has it now, holding the order's lock: a chargeback opened since the page was read counts.
  const facts = riskFacts(order);
  const risks = refundRisks(facts, amountMinor);
  const unconfirmed = risks.filter((risk) => !refund.confirmRisk.includes(risk));
  if (unconfirmed.length) return { ok: false, code: unconfirmed[0], message: riskRefusalMessage(facts, amountMinor, unconfirmed), risks };
  return {
    ok: true,
    order,
    currency,
    amountMinor,
    confirmed: refund.confirmAnother || risks.length > 0,
    sent: {
      parentId: transactions[0]?.parentId ?? null,
      refundInput: JSON.stringify({ orderId: order.id, currency, note: refund.note, notify: refund.notify, transactions }),
      refCaptions: JSON.stringify([
        { id: order.id, caption: order.name },
        ...transactions.map((t) => ({ id: t.parentId, caption: `${t.gateway} payment` })),
        ...confirmedRiskCaptions(facts, risks),
      ]),
    },
  };
}
