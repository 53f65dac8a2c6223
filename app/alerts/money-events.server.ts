import type { PrismaClient, Settlement } from "@prisma/client";
import { createOnce } from "../lib/db/create-once";
import type { Contract } from "../contracts/schema";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { withOperationOrderNames } from "../verdicts/order-names.server";
import { orderLabel } from "../verdicts/words";
import { alertItem, flowCall, recordAlertEvent, shopAlertStates, type AlertedOperation } from "./events.server";
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
 * Turns each settlement whose final verdict needs a person (its payout failed, the ledger shows
 * another amount or a reversal, a transaction failed, the money never settled) into one AlertEvent
 * of its refund's operation and, for a failed payout, its Flow call; then marks the settlement
 * alerted. As openAlertEvents, without a transaction: the event is unique per operation and kind,
 * the Flow call per event, and the mark comes last, so a pass repeated after a crash or run by a
 * second worker at once adds nothing.
 */
export async function openMoneyAlertEvents(db: PrismaClient, gateway: ShopifyGateway, contract: Contract, now: Date, limit = 500): Promise<number> {
  const owed = await db.settlement.findMany({
    where: { OR: MONEY_VERDICTS.map((status) => ({ status, OR: [{ alertedVerdict: null }, { alertedVerdict: { not: status } }] })) },
    orderBy: [{ decidedAt: "asc" }, { id: "asc" }],
    take: limit,
    include: { operation: true },
  });
  // The message and the Flow payload name the order as people know it.
  const operations = await withOperationOrderNames(
    db,
    gateway,
    owed.map((settlement) => settlement.operation),
  );
  const shopState = shopAlertStates(db);
  let opened = 0;
  for (const [i, settlement] of owed.entries()) {
    const op = operations[i];
    const alert = moneyAlertOf(settlement);
    if (!alert) continue;
    const shop = await shopState(op.shop);
    // A refund of the shop's history: the digest tells it, as it tells the history's verdicts.
    const event = await recordAlertEvent(db, op, alert, settlement.decidedAt ?? now, shop.settings, now);
    if (event.created) opened++;
    const trigger = moneyFlowTriggerFor(alert);
    if (trigger && !event.history && shop.enabled.has(trigger.handle)) {
      const { item, facts } = moneyItem(contract, op, settlement, alert, now);
      const payload = flowPayload({
        ...item.row,
        verdict: settlement.status,
        reasons: [item.row.reasonText],
        refundGid: op.refundGid,
        orderGid: op.orderGid,
        evidenceUrl: item.evidenceUrl,
        payout: facts.payout,
      });
      await createOnce(() => db.alertDelivery.create({ data: flowCall(op.shop, trigger, item, payload, event.id, now) }));
    }
    // Guarded by the verdict it was alerted for: never written over another (a settlement's final verdict stays final).
    await db.settlement.updateMany({ where: { id: settlement.id, status: settlement.status }, data: { alertedVerdict: settlement.status } });
  }
  return opened;
}
