import { readStored, storedStrings } from "../lib/db/stored-json";
import { storedExposure, type StoredExposure } from "../exposure/view";
import { fromMinorUnits, toMinorUnits } from "../lib/money/currency";
import { LOST_DISPUTE, OPEN_DISPUTE } from "../exposure/order-exposure";
import { formatInstant } from "../lib/time/format";
import { money } from "../verdicts/words";

/**
 * Alerts on money at risk twice (contract shopify.refund.exposure, decision 028): a VERIFIED refund
 * whose order has a chargeback open or lost, or gave back more than was paid, becomes an
 * AlertEvent of the refund's operation under one of these kinds, once per refund and kind, ever.
 * The exposure is judged again for 120 days, so its classes come and go; what was alerted is kept
 * in Exposure.alertedReasons and never un-sent (a dispute won after its alert changes nothing).
 */

/** The alert settings' choice that turns these alerts on or off ("Money at risk twice"). */
export const AT_RISK_CHOICE = "AT_RISK_TWICE";

/** Each kind (AlertEvent.verdict), its short title (the digest's tally) and the exposure classes that owe it. */
export const EXPOSURE_ALERTS = {
  CHARGEBACK_OPEN: { title: "Chargeback open", classes: ["open chargeback"] },
  PAID_TWICE: { title: "Paid twice", classes: ["paid twice"] },
  MORE_BACK_THAN_PAID: { title: "More back than paid", classes: ["more back than paid", "store credit and cash"] },
} as const;

export type ExposureAlert = keyof typeof EXPOSURE_ALERTS;

const KINDS = Object.keys(EXPOSURE_ALERTS) as ExposureAlert[];

export const isExposureAlert = (verdict: string): verdict is ExposureAlert => Object.hasOwn(EXPOSURE_ALERTS, verdict);

/** The kinds a dispute puts a refund at risk by: what starts the Flow trigger "Refund on a disputed order". */
export const DISPUTE_ALERTS: readonly ExposureAlert[] = ["CHARGEBACK_OPEN", "PAID_TWICE"];

/** The kinds an exposure's classes call for, in precedence order. */
export function exposureAlertsOf(classes: readonly string[]): ExposureAlert[] {
  return KINDS.filter((kind) => EXPOSURE_ALERTS[kind].classes.some((c) => classes.includes(c)));
}

/** The kinds an exposure still owes: called for by its classes now and never alerted before. */
export function exposureAlertsOwed(classes: readonly string[], alerted: readonly string[]): ExposureAlert[] {
  return exposureAlertsOf(classes).filter((kind) => !alerted.includes(kind));
}

/**
 * Whether these owed kinds are the first time a dispute puts the refund at risk: the Flow trigger
 * starts then, once per refund (a chargeback opened and then lost starts it once, when it opened).
 */
export function firstDisputeAlert(owed: readonly ExposureAlert[], alerted: readonly string[]): ExposureAlert | null {
  if (alerted.some((kind) => DISPUTE_ALERTS.includes(kind as ExposureAlert))) return null;
  return owed.find((kind) => DISPUTE_ALERTS.includes(kind)) ?? null;
}

/** Reads after a refund's exposure is opened within this long are its first: what they find was so before the app looked. */
const FIRST_READS_MS = 24 * 3600_000;

/**
 * A refund of the shop's history (a backfill) found at risk by the exposure's first reads is news
 * of the past, for the digest, as the history's own verdicts are: a chargeback lost months ago asks
 * nothing of anyone now. Two exceptions make it news: an open chargeback, which has a due date
 * ahead, and a change found by a later read (a chargeback lost this week). A refund made now is
 * always news.
 */
export function isPastNews(kind: ExposureAlert, origin: string, exposure: { startedAt: Date; decidedAt: Date | null }): boolean {
  if (origin !== "backfill" || kind === "CHARGEBACK_OPEN") return false;
  return (exposure.decidedAt ?? exposure.startedAt).getTime() - exposure.startedAt.getTime() < FIRST_READS_MS;
}

type StoredDispute = StoredExposure["order_disputes"]["disputes"][number];

/** What an exposure alert may say, read from the exposure's row and its refund. */
export interface ExposureFacts {
  order: string;
  /** The refund's own amount, and, for its proof, the day it was made (in the shop's time zone) and its card reference (ARN) once Shopify shows it. */
  refund: { amount: string | null; currency: string | null; madeOn?: string | null; cardReference?: string | null };
  /** The money at risk twice as the latest read showed it; the refund's own amount when the read did not say. */
  atRisk: { amount: string | null; currency: string | null };
  classes: string[];
  reasons: string[];
  /** How far the order's refunds went past what was paid, when they did. */
  overPaid: { amount: string; currency: string } | null;
  /** The dispute that puts the refund at risk: one lost, else the open one due first. */
  dispute: StoredDispute | null;
}

const parseTime = (iso: string | null | undefined) => (iso ? Date.parse(iso) : NaN);

/** The dispute an alert is about: a lost one (the money is gone), else the open one whose answer is due first. */
export function disputeOfConcern(disputes: readonly StoredDispute[]): StoredDispute | null {
  const lost = disputes.find((d) => LOST_DISPUTE.includes(d.status));
  if (lost) return lost;
  const open = disputes.filter((d) => OPEN_DISPUTE.includes(d.status));
  const due = (d: StoredDispute) => (Number.isNaN(parseTime(d.evidence_due_by)) ? Infinity : parseTime(d.evidence_due_by));
  return [...open].sort((a, b) => due(a) - due(b))[0] ?? null;
}

function overPaid(observed: StoredExposure | null): { amount: string; currency: string } | null {
  if (!observed) return null;
  const { paid, refunded, currency } = observed.order_money;
  const [p, r] = [toMinorUnits(paid, currency), toMinorUnits(refunded, currency)];
  return p !== undefined && r !== undefined && r > p ? { amount: fromMinorUnits(r - p, currency), currency } : null;
}

/** The facts of an exposure's row an alert names; its stored JSON is read at the door, a column it cannot read is nothing. */
export function exposureFacts(
  exposure: { classes: string; reasons: string; atRisk: string | null; currency: string | null; observed: string | null },
  refund: { amount: string | null; currency: string | null; order: string; madeOn?: string | null; cardReference?: string | null },
): ExposureFacts {
  const observed = readStored(storedExposure, exposure.observed) ?? null;
  return {
    order: refund.order,
    refund: { amount: refund.amount, currency: refund.currency, madeOn: refund.madeOn ?? null, cardReference: refund.cardReference ?? null },
    atRisk:
      exposure.atRisk && exposure.currency ? { amount: exposure.atRisk, currency: exposure.currency } : { amount: refund.amount, currency: refund.currency },
    classes: readStored(storedStrings, exposure.classes) ?? [],
    reasons: readStored(storedStrings, exposure.reasons) ?? [],
    overPaid: overPaid(observed),
    dispute: disputeOfConcern(observed?.order_disputes.disputes ?? []),
  };
}

const ANSWER = "answer the dispute with the refund's proof";

/**
 * The alert's headline, what to do first: an open chargeback says to answer it, by its due date
 * when the shop let the app read it (in the shop's time zone, to the minute).
 */
export function exposureHeadline(kind: ExposureAlert, facts: ExposureFacts, timeZone: string): string {
  if (kind !== "CHARGEBACK_OPEN") return EXPOSURE_ALERTS[kind].title;
  const due = facts.dispute && OPEN_DISPUTE.includes(facts.dispute.status) ? facts.dispute.evidence_due_by : null;
  const by = due && !Number.isNaN(Date.parse(due)) ? ` by ${formatInstant(due, timeZone)}` : "";
  return `${EXPOSURE_ALERTS[kind].title}: ${ANSWER}${by}`;
}

/** The refund's proof as a dispute asks for it, with what is known of it: "refunded $40.00 on 3 Dec 2026, card reference 7423…". */
function proofOf(facts: ExposureFacts, refunded: string): string {
  const { madeOn, cardReference } = facts.refund;
  if (!madeOn) return "its date, amount and card reference";
  return `refunded ${refunded} on ${madeOn}${cardReference ? `, card reference ${cardReference}` : " (the card reference is on the evidence page once Shopify shows it)"}`;
}

/** The alert's sentence in a merchant's words, naming the order and the money. */
export function exposureSentence(kind: ExposureAlert, facts: ExposureFacts): string {
  const refunded = money(facts.refund.amount, facts.refund.currency);
  switch (kind) {
    case "CHARGEBACK_OPEN":
      return facts.reasons.includes("dispute_says_credit_not_processed")
        ? `The customer disputes the charge on ${facts.order} saying the refund never came, but you refunded ${refunded} on it. Answer the dispute with this refund's proof: ${proofOf(facts, refunded)}.`
        : `A chargeback is open on ${facts.order}, which you refunded ${refunded}: if it is lost, the customer is paid twice. Answer it with this refund's proof: ${proofOf(facts, refunded)}.`;
    case "PAID_TWICE":
      return `A chargeback on ${facts.order} was lost after you refunded ${refunded} on it: the customer got ${money(facts.atRisk.amount, facts.atRisk.currency)} back twice, from you and from their bank.`;
    case "MORE_BACK_THAN_PAID": {
      const over = facts.overPaid ? money(facts.overPaid.amount, facts.overPaid.currency) : null;
      if (facts.classes.includes("store credit and cash"))
        return over
          ? `${facts.order} was refunded to store credit and to the customer's payment: together, ${over} more than the customer paid.`
          : `${facts.order} was refunded to store credit and to the customer's payment for the same items.`;
      return over
        ? `The refunds on ${facts.order}, store credit included, give the customer ${over} more than they paid.`
        : `An item of ${facts.order} was refunded more times than it was bought.`;
    }
  }
}
