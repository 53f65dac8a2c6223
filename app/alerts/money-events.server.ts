import type { Settlement } from "@prisma/client";
import type { Contract } from "../contracts/schema";
import { orderLabel } from "../verdicts/words";
import { alertItem, flowCall, type AlertedOperation, type EventSource } from "./events.server";
import { flowPayload, moneyFlowTriggerFor } from "./flow-triggers";
import type { AlertItem } from "./messages";
import { MONEY_ALERTS, MONEY_VERDICTS, moneyAlertOf, moneyFacts, moneySentence, type MoneyAlert, type MoneyFacts } from "./money";

function stringArray(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

/** A money alert's item: the refund's row (its amount, its order, its evidence page) telling where its money went. */
export function moneyItem(
  contract: Contract,
  op: AlertedOperation,
  settlement: Settlement,
  alert: MoneyAlert,
  now: Date,
): { item: AlertItem; facts: MoneyFacts } {
  const base = alertItem(contract, op);
  const facts = moneyFacts(settlement, { amount: base.row.amount, currency: base.row.currency, order: orderLabel(base.row) }, now);
  const row = {
    ...base.row,
    status: settlement.status,
    reason: settlement.reason,
    classes: stringArray(settlement.classes),
    reasonText: moneySentence(alert, facts),
    decidedAt: settlement.decidedAt?.toISOString() ?? base.row.decidedAt,
  };
  return { item: { ...base, row, headline: MONEY_ALERTS[alert] }, facts };
}

/**
 * Settlements whose final verdict needs a person (their payout failed, the ledger shows another
 * amount or a reversal, a transaction failed, the money never settled): one AlertEvent of the
 * refund's operation and, for a failed payout, its Flow call; the settlement is then marked by the
 * verdict it was alerted for, never written over another (a settlement's final verdict stays final).
 */
export const MONEY_EVENTS: EventSource = {
  name: "money events",
  async owed(db, limit) {
    const owed = await db.settlement.findMany({
      where: { OR: MONEY_VERDICTS.map((status) => ({ status, OR: [{ alertedVerdict: null }, { alertedVerdict: { not: status } }] })) },
      orderBy: [{ decidedAt: "asc" }, { id: "asc" }],
      take: limit,
      include: { operation: true },
    });
    return owed.map((settlement) => {
      const alert = moneyAlertOf(settlement);
      return {
        operation: settlement.operation,
        decidedAt: settlement.decidedAt,
        kinds: alert ? [alert] : [],
        flow: ({ events, shop, operation, contract, now }) => {
          const trigger = alert && moneyFlowTriggerFor(alert);
          const event = alert && events.get(alert);
          if (!alert || !trigger || !event || event.history || !shop.enabled.has(trigger.handle)) return null;
          const { item, facts } = moneyItem(contract, operation, settlement, alert, now);
          const payload = flowPayload({
            ...item.row,
            verdict: settlement.status,
            reasons: [item.row.reasonText],
            refundGid: operation.refundGid,
            orderGid: operation.orderGid,
            evidenceUrl: item.evidenceUrl,
            payout: facts.payout,
          });
          return flowCall({ shop: operation.shop, trigger, item, payload, eventId: event.id, now });
        },
        mark: (db) => db.settlement.updateMany({ where: { id: settlement.id, status: settlement.status }, data: { alertedVerdict: settlement.status } }),
      };
    });
  },
};
