import { randomUUID } from "node:crypto";
import type { Operation, Prisma, PrismaClient } from "@prisma/client";
import { createOnce } from "../lib/db/create-once";
import { parseStored, storedStrings } from "../lib/db/stored-json";
import { contractOf } from "../contracts/registry.server";
import type { Contract } from "../contracts/schema";
import { reasonFacts, toRow } from "../verdicts/rows.server";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { withOperationOrderNames } from "../verdicts/order-names.server";
import { orderLabel, upperFirst, DUPLICATE_REASONS, reasonInWords, money } from "../verdicts/words";
import { DUPLICATE_CHANNELS, duplicateOfInWords, parseDuplicates } from "../verdicts/duplicates";
import { adminAppUrl, evidencePath } from "./admin-links.server";
import { flowTriggerDelivery } from "./deliver.server";
import { flowPayload, flowTriggerFor } from "./flow-triggers";
import type { AlertItem } from "./messages";
import { ALERT_VERDICTS } from "./settings-form";
import { alertSettings } from "./settings.server";
import { DEFAULT_ALERT_SETTINGS, wantsInstant, type AlertSettingsView } from "./settings-view";

/** Final verdicts a person must look at: these alert, reach Flow and fill the digest. */
export const NEEDS_PERSON: readonly string[] = ALERT_VERDICTS;

/**
 * One verdict as a message lists it. A duplicate found by contract 1.2.0 says which refund it
 * repeats (its stored duplicates observation, when the caller read it), as the evidence page does.
 */
/** An operation as alerts read it: with its latest duplicates observation when the caller loaded it (ALERT_ITEM_OBSERVATIONS). */
export type AlertedOperation = Operation & { observations?: { channel: string; data: string | null }[] };

export function alertItem(contract: Contract, op: AlertedOperation): AlertItem {
  const row = toRow(contract, op);
  const duplicates = DUPLICATE_REASONS.includes(op.reason ?? "")
    ? parseDuplicates(op.observations?.find((o) => DUPLICATE_CHANNELS.includes(o.channel as never))?.data ?? null)
    : null;
  if (duplicates?.refunds.length) {
    const where = orderLabel(row);
    row.reasonText = `${upperFirst(duplicateOfInWords(duplicates, (amount, currency) => money(amount, currency), where))}. Do not retry.`;
  }
  return { row, evidenceUrl: adminAppUrl(op.shop, evidencePath(op.id)) };
}

/** What alertItem reads of an operation's observations: its latest duplicates channel. */
export const ALERT_ITEM_OBSERVATIONS = { where: { channel: { in: [...DUPLICATE_CHANNELS] } }, orderBy: { observedAt: "desc" as const }, take: 1 };

export { storeName as shopNameOf } from "./admin-links.server";

/** One Flow call of an alert, for the delivery log: keyed by its event (or by what else must start it once), so made once. */
export function flowCall(
  shop: string,
  trigger: { handle: string; name: string },
  item: AlertItem,
  payload: Record<string, string | number>,
  eventId: string,
  now: Date,
  dedupeKey = `flow:${eventId}`,
): Prisma.AlertDeliveryCreateInput {
  return flowTriggerDelivery(shop, trigger, `${trigger.name}: ${money(item.row.amount, item.row.currency)} on ${orderLabel(item.row)}`, payload, {
    kind: "flow",
    dedupeKey,
    now,
  });
}

/** The Flow call a verdict owes, when the shop has an enabled workflow on its trigger. */
function flowDelivery(contract: Contract, op: AlertedOperation, eventId: string, enabled: Set<string>, now: Date): Prisma.AlertDeliveryCreateInput | null {
  const trigger = flowTriggerFor(op.status);
  if (!trigger || !enabled.has(trigger.handle)) return null;
  const judgedBy = contractOf(contract, op);
  const item = alertItem(contract, op);
  // A duplicate's reason says which refund it repeats, as the e-mail and the evidence page do.
  const reasons = parseStored(storedStrings, op.reasons, "Operation.reasons").map((id) =>
    DUPLICATE_REASONS.includes(id) ? item.row.reasonText : reasonInWords(judgedBy, op.status, id, reasonFacts(op)),
  );
  const payload = flowPayload({
    ...item.row,
    verdict: op.status,
    reasons: reasons.length ? reasons : [item.row.reasonText],
    refundGid: op.refundGid,
    orderGid: op.orderGid,
    evidenceUrl: item.evidenceUrl,
  });
  return flowCall(op.shop, trigger, item, payload, eventId, now);
}

/** What the alert passes need of a shop: its settings, and the Flow triggers its workflows use. */
export interface ShopAlertState {
  settings: AlertSettingsView;
  enabled: Set<string>;
  /** The shop removed the app: nobody there hears anything more from it. */
  uninstalled: boolean;
}

/** Each shop's alert state, read once a pass. */
export function shopAlertStates(db: PrismaClient): (shop: string) => Promise<ShopAlertState> {
  const shops = new Map<string, ShopAlertState>();
  return async (shop) => {
    let known = shops.get(shop);
    if (!known) {
      const state = await db.shopState.findUnique({ where: { shop }, select: { uninstalledAt: true } });
      const usage = state?.uninstalledAt ? [] : await db.flowTriggerUsage.findMany({ where: { shop, enabled: true }, select: { definitionId: true } });
      // A shop that removed the app hears nothing more; its events are kept for the record.
      known = {
        uninstalled: Boolean(state?.uninstalledAt),
        settings: state?.uninstalledAt ? { ...DEFAULT_ALERT_SETTINGS, verdicts: [] } : await alertSettings(db, shop),
        enabled: new Set(usage.map((u) => u.definitionId)),
      };
      shops.set(shop, known);
    }
    return known;
  };
}

/**
 * Turns each final verdict that needs a person into one AlertEvent and its Flow call, then marks
 * the operation done. No transaction (decision 005): each step is an insert keyed uniquely (event
 * per operation and verdict, Flow call per event), so a step repeated after a crash or by a second
 * worker changes nothing, and the mark comes last. A worker killed after the verdict and before
 * this pass leaves the mark unset: the next pass does it, late and once.
 */
/**
 * The alert event a verdict owes, made once (unique per operation and verdict), and its id: made
 * now, or by a pass that stopped before its Flow call (the call is keyed by the event, so one
 * already made adds nothing). A verdict on the shop's history is news of the past: the dashboard's
 * history card and the daily digest tell it; instant alerts and Flow workflows are for what
 * happens now.
 */
export async function recordAlertEvent(
  db: PrismaClient,
  op: { id: string; shop: string; origin: string },
  verdict: string,
  decidedAt: Date,
  settings: Parameters<typeof wantsInstant>[0],
  now: Date,
  // Whether it is news of the past; an alert that knows better says (app/alerts/exposure-alerts.ts, isPastNews).
  history = op.origin === "backfill",
): Promise<{ id: string; created: boolean; history: boolean }> {
  const id = randomUUID();
  const created = await createOnce(() =>
    db.alertEvent.create({
      data: {
        id,
        shop: op.shop,
        operationId: op.id,
        verdict,
        decidedAt,
        instantStatus: !history && wantsInstant(settings, verdict) ? "pending" : "not_wanted",
        createdAt: now,
      },
    }),
  );
  if (created) return { id, created, history };
  const existing = await db.alertEvent.findUniqueOrThrow({ where: { operationId_verdict: { operationId: op.id, verdict } }, select: { id: true } });
  return { id: existing.id, created, history };
}

export async function openAlertEvents(db: PrismaClient, gateway: ShopifyGateway, contract: Contract, now: Date, limit = 500): Promise<number> {
  const unnamed = await db.operation.findMany({
    // A verdict its contract does not escalate (a refund of an order the shop does not have) alerts no one.
    where: { escalate: true, OR: NEEDS_PERSON.map((verdict) => ({ status: verdict, OR: [{ alertedVerdict: null }, { alertedVerdict: { not: verdict } }] })) },
    orderBy: [{ decidedAt: "asc" }, { id: "asc" }],
    take: limit,
    include: { observations: ALERT_ITEM_OBSERVATIONS },
  });
  // An alert, its Flow payload and the digest name the order as people know it (#1340), also for a refund never read back.
  const owed = await withOperationOrderNames(db, gateway, unnamed);
  let opened = 0;
  const shopState = shopAlertStates(db);
  for (const op of owed) {
    const shop = await shopState(op.shop);
    const event = await recordAlertEvent(db, op, op.status, op.decidedAt ?? now, shop.settings, now);
    if (event.created) opened++;
    const flow = event.history ? null : flowDelivery(contract, op, event.id, shop.enabled, now);
    if (flow) await createOnce(() => db.alertDelivery.create({ data: flow }));
    await db.operation.updateMany({ where: { id: op.id, status: op.status }, data: { alertedVerdict: op.status } });
  }
  return opened;
}
