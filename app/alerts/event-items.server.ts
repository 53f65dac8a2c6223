import type { Exposure, Settlement } from "@prisma/client";
import type { Contract } from "../contracts/schema";
import { ALERT_ITEM_OBSERVATIONS, alertItem, type AlertedOperation } from "./events.server";
import { exposureItem } from "./exposure-events.server";
import { EXPOSURE_ALERTS, isExposureAlert } from "./exposure-alerts";
import type { AlertItem } from "./messages";
import { moneyItem } from "./money-events.server";
import { isMoneyAlert, MONEY_ALERTS } from "./money";

/** An operation as an alert's message reads it: with its settlement and its exposure, when the caller loaded them (EVENT_ITEM_INCLUDE). */
export type SettledOperation = AlertedOperation & { settlement?: Settlement | null; exposure?: Exposure | null };

/** What writing an event's message reads of it: its operation's duplicates observation, its settlement and its exposure. */
export const EVENT_ITEM_INCLUDE = { operation: { include: { observations: ALERT_ITEM_OBSERVATIONS, settlement: true, exposure: true } } } as const;

/**
 * An event's item in a message: a money alert's from its settlement, an at-risk-twice alert's from
 * its exposure (its due date in the shop's `timeZone`), any other from its operation's verdict.
 */
export function eventItem(contract: Contract, event: { verdict: string; operation: SettledOperation }, now: Date, timeZone = "UTC"): AlertItem {
  const { settlement, exposure } = event.operation;
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
