import type { Exposure, LimitBreach, Settlement } from "@prisma/client";
import type { Contract } from "../contracts/schema";
import { ALERT_ITEM_OBSERVATIONS, alertItem, type AlertedOperation } from "./events.server";
import { exposureItem } from "./exposure-events.server";
import { EXPOSURE_ALERTS, isExposureAlert } from "./exposure-alerts";
import type { AlertItem } from "./messages";
import { moneyItem } from "./money-events.server";
import { isMoneyAlert, MONEY_ALERTS } from "./money";
import { overLimitItem } from "./over-limit-events.server";
import { isOverLimitAlert } from "./over-limit-alerts";

/** An operation as an alert's message reads it: with its settlement, its exposure and its limit breach, when the caller loaded them (EVENT_ITEM_INCLUDE). */
export type SettledOperation = AlertedOperation & { settlement?: Settlement | null; exposure?: Exposure | null; limitBreach?: LimitBreach | null };

/** What writing an event's message reads of it: its operation's duplicates observation, its settlement, its exposure and its limit breach. */
export const EVENT_ITEM_INCLUDE = {
  operation: { include: { observations: ALERT_ITEM_OBSERVATIONS, settlement: true, exposure: true, limitBreach: true } },
} as const;

/**
 * An event's item in a message: a money alert's from its settlement, an at-risk-twice alert's from
 * its exposure (its due date in the shop's `timeZone`), an over-limit alert's from its breach (who
 * made it, by `staff`: app/alerts/over-limit-events.server.ts breachStaffNames), any other from its
 * operation's verdict.
 */
export function eventItem(
  contract: Contract,
  event: { verdict: string; operation: SettledOperation },
  now: Date,
  timeZone = "UTC",
  staff: ReadonlyMap<string, string> = new Map(),
): AlertItem {
  const { settlement, exposure } = event.operation;
  if (isOverLimitAlert(event.verdict)) return overLimitItem(contract, event.operation, event.operation.limitBreach ?? null, staff);
  if (isExposureAlert(event.verdict)) {
    if (exposure) return exposureItem(contract, event.operation, exposure, event.verdict, timeZone).item;
    // Its exposure gone meanwhile: still what happened, never the operation's own verdict.
    const item = alertItem(contract, event.operation);
    return {
      ...item,
      row: { ...item.row, reasonText: "The evidence page says what puts the refund's money at risk." },
      headline: EXPOSURE_ALERTS[event.verdict].title,
    };
  }
  if (!isMoneyAlert(event.verdict)) return alertItem(contract, event.operation);
  if (settlement) return moneyItem(contract, event.operation, settlement, event.verdict, now).item;
  // Its settlement gone meanwhile: still what happened, never the operation's own verdict.
  const item = alertItem(contract, event.operation);
  return { ...item, row: { ...item.row, reasonText: "The evidence page says where the refund's money went." }, headline: MONEY_ALERTS[event.verdict] };
}
