import { dateTimeFormat } from "../lib/intl/formats";
import type { Exposure, Prisma } from "@prisma/client";
import { readStored, storedStrings } from "../lib/db/stored-json";
import type { Contract } from "../contracts/schema";
import { paymentsDisputeGid } from "../exposure/order-exposure";
import { formatMoney, toMinorUnits } from "../lib/money/currency";
import { orderLabel, reasonSentence, type ReasonFacts } from "../verdicts/words";
import { alertItem, flowCall, type AlertedOperation, type EventSource } from "./events.server";
import {
  EXPOSURE_ALERTS,
  exposureAlertsOwed,
  exposureFacts,
  exposureHeadline,
  exposureSentence,
  firstDisputeAlert,
  isPastNews,
  type ExposureAlert,
  type ExposureFacts,
} from "./exposure-alerts";
import { DISPUTED_ORDER_FLOW_TRIGGER, disputedOrderFlowPayload } from "./flow-triggers";
import type { AlertItem } from "./messages";

const dayInWords = (at: Date, timeZone: string) => dateTimeFormat("en-GB", { timeZone, day: "numeric", month: "short", year: "numeric" }).format(at);

const display = (amount: string | null, currency: string | null) => {
  const minor = amount && currency ? toMinorUnits(amount, currency) : undefined;
  return minor !== undefined && currency ? formatMoney(minor, currency) : amount;
};

/**
 * An exposure alert's item: the refund's row, its amount the money at risk twice (what the message
 * totals), its sentence saying what to do, its headline with the dispute's due date in `timeZone`.
 */
export function exposureItem(
  contract: Contract,
  op: AlertedOperation & { settlement?: { arn: string | null } | null },
  exposure: Exposure,
  kind: ExposureAlert,
  timeZone: string,
): { item: AlertItem; facts: ExposureFacts } {
  const base = alertItem(contract, op);
  // The proof a dispute asks for: the refund's day where the shop is, and its card reference once Shopify showed it (its settlement, when loaded).
  const facts = exposureFacts(exposure, {
    amount: base.row.amount,
    currency: base.row.currency,
    order: orderLabel(base.row),
    madeOn: dayInWords(op.startedAt, timeZone),
    cardReference: op.settlement?.arn ?? null,
  });
  const row = {
    ...base.row,
    amount: facts.atRisk.amount,
    amountDisplay: display(facts.atRisk.amount, facts.atRisk.currency),
    currency: facts.atRisk.currency,
    status: exposure.status,
    reason: exposure.reason,
    classes: facts.classes,
    reasonText: exposureSentence(kind, facts),
    decidedAt: exposure.decidedAt?.toISOString() ?? base.row.decidedAt,
  };
  return { item: { ...base, row, headline: exposureHeadline(kind, facts, timeZone) }, facts };
}

/** Exposure's sentences need no amounts of the refund: they name the order's money themselves. */
const NO_FACTS: ReasonFacts = { requested: { amount: null, currency: null } };

/** The Flow call of "Refund on a disputed order": keyed by the refund, so a workflow starts once per refund whatever happens next. */
function disputedOrderFlowCall(contract: Contract, op: AlertedOperation, exposure: Exposure, kind: ExposureAlert, event: { id: string; now: Date }) {
  const { item, facts } = exposureItem(contract, op, exposure, kind, "UTC");
  const payload = disputedOrderFlowPayload({
    orderName: item.row.orderName,
    orderId: item.row.orderId,
    orderGid: op.orderGid,
    refundGid: op.refundGid,
    origin: op.origin,
    evidenceUrl: item.evidenceUrl,
    reasons: facts.reasons.map((id) => reasonSentence(id, NO_FACTS) ?? id),
    classes: facts.classes,
    amount: facts.refund.amount,
    currency: facts.refund.currency,
    atRisk: facts.atRisk,
    dispute: facts.dispute && {
      // The summary Order.disputes names is read as the ShopifyPaymentsDispute a merchant answers.
      id: paymentsDisputeGid(facts.dispute.id),
      status: facts.dispute.status,
      reason: facts.dispute.reason ?? null,
      evidenceDueBy: facts.dispute.evidence_due_by ?? null,
    },
  });
  const dedupeKey = `flow:${DISPUTED_ORDER_FLOW_TRIGGER.handle}:${op.id}`;
  return flowCall({ shop: op.shop, trigger: DISPUTED_ORDER_FLOW_TRIGGER, item, payload, eventId: event.id, now: event.now, dedupeKey });
}

/**
 * Exposures that owe an alert: at risk, with a class whose kind is not yet in alertedReasons. Read
 * from the JSON text as written (JSON.stringify of known words), the same on SQLite and PostgreSQL.
 * As for verdicts, a contradiction its contract does not escalate alerts no one.
 */
const OWED: Prisma.ExposureWhereInput = {
  status: "CONTRADICTED",
  escalate: true,
  OR: Object.entries(EXPOSURE_ALERTS).map(([kind, { classes }]) => ({
    OR: classes.map((c) => ({ classes: { contains: JSON.stringify(c) } })),
    NOT: { alertedReasons: { contains: JSON.stringify(kind) } },
  })),
};

/**
 * Exposures newly at risk: one AlertEvent per kind of the refund's operation (a chargeback opened,
 * then lost, is CHARGEBACK_OPEN then PAID_TWICE), and the first dispute's Flow call; the kinds are
 * then marked in alertedReasons, only over what this pass read (a mark lost to another worker is
 * made by the next pass).
 */
export const EXPOSURE_EVENTS: EventSource = {
  name: "exposure events",
  async owed(db, limit) {
    const owed = await db.exposure.findMany({ where: OWED, orderBy: [{ decidedAt: "asc" }, { id: "asc" }], take: limit, include: { operation: true } });
    return owed.map((exposure) => {
      const alerted = readStored(storedStrings, exposure.alertedReasons) ?? [];
      const kinds = exposureAlertsOwed(readStored(storedStrings, exposure.classes) ?? [], alerted);
      const first = firstDisputeAlert(kinds, alerted);
      return {
        operation: exposure.operation,
        decidedAt: exposure.decidedAt,
        kinds,
        pastNews: (kind) => isPastNews(kind as ExposureAlert, exposure.operation.origin, exposure),
        flow: ({ events, shop, operation, contract, now }) => {
          const event = first && events.get(first);
          if (!first || !event || event.history || !shop.enabled.has(DISPUTED_ORDER_FLOW_TRIGGER.handle)) return null;
          return disputedOrderFlowCall(contract, operation, exposure, first, { id: event.id, now });
        },
        mark: (db) =>
          db.exposure.updateMany({
            where: { id: exposure.id, alertedReasons: exposure.alertedReasons },
            data: { alertedReasons: JSON.stringify([...alerted, ...kinds]) },
          }),
      };
    });
  },
};
