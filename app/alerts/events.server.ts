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

/** One Flow call of an alert, for the delivery log: keyed by its event (or by `dedupeKey`, what else must start it once), so made once. */
export function flowCall(call: {
  shop: string;
  trigger: { handle: string; name: string };
  item: AlertItem;
  payload: Record<string, string | number>;
  eventId: string;
  now: Date;
  dedupeKey?: string;
}): Prisma.AlertDeliveryCreateInput {
  const { shop, trigger, item, payload, eventId, now } = call;
  return flowTriggerDelivery(shop, trigger, `${trigger.name}: ${money(item.row.amount, item.row.currency)} on ${orderLabel(item.row)}`, payload, {
    kind: "flow",
    dedupeKey: call.dedupeKey ?? `flow:${eventId}`,
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
  return flowCall({ shop: op.shop, trigger, item, payload, eventId, now });
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

/** An alert event as recorded: its id, whether this call made it, and whether it is news of the past. */
export interface RecordedEvent {
  id: string;
  created: boolean;
  history: boolean;
}

/**
 * The alert event a verdict owes, made once (unique per operation and verdict), and its id: made
 * now, or by a pass that stopped before its Flow call (the call is keyed by the event, so one
 * already made adds nothing). A verdict on the shop's history is news of the past: the dashboard's
 * history card and the daily digest tell it; instant alerts and Flow workflows are for what
 * happens now.
 */
export async function recordAlertEvent(
  db: PrismaClient,
  event: {
    op: { id: string; shop: string; origin: string };
    verdict: string;
    decidedAt: Date;
    /** Whether it is news of the past: the shop's history by default; an alert that knows better says (app/alerts/exposure-alerts.ts, isPastNews). */
    history?: boolean;
  },
  settings: Parameters<typeof wantsInstant>[0],
  now: Date,
): Promise<RecordedEvent> {
  const { op, verdict, decidedAt } = event;
  const history = event.history ?? op.origin === "backfill";
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

/**
 * What one row owes the alert passes: the refund's operation, when it was decided, the kinds of
 * event it owes now (a verdict's own, or a follow-up's kinds), the Flow call they start, and how the
 * row is marked once they are made.
 */
export interface OwedEvents {
  operation: AlertedOperation;
  decidedAt: Date | null;
  kinds: string[];
  /** Whether an event of this kind is news of the past (the digest tells it; no instant alert, no Flow): the shop's history, unless said. */
  pastNews?(kind: string): boolean;
  /** The Flow call these events start, when the shop has a workflow on its trigger: made once (keyed). */
  flow?(made: {
    events: Map<string, RecordedEvent>;
    shop: ShopAlertState;
    operation: AlertedOperation;
    contract: Contract;
    now: Date;
  }): Prisma.AlertDeliveryCreateInput | null;
  /** Marks what was alerted; last, so a pass repeated after a crash or by a second worker adds nothing. */
  mark(db: PrismaClient): Promise<unknown>;
}

/** One source of alert events (a verdict, a follow-up's verdict, a refund over a limit): the rows that owe them, oldest first. */
export interface EventSource {
  name: string;
  owed(db: PrismaClient, limit: number): Promise<OwedEvents[]>;
}

/**
 * Turns what a source's rows owe into AlertEvents and Flow calls, then marks each row. No
 * transaction (decision 005): each step is an insert keyed uniquely (event per operation and kind,
 * Flow call per event or refund), so a step repeated after a crash or by a second worker changes
 * nothing, and the mark comes last. A worker killed between the verdict and this pass leaves the
 * mark unset: the next pass does it, late and once. Messages, Flow payloads and the digest name
 * the order as people know it (#1340), also for a refund never read back. Returns the events made.
 */
export async function openEvents(
  source: EventSource,
  deps: { db: PrismaClient; gateway: ShopifyGateway; contract: Contract; now: Date },
  limit = 500,
): Promise<number> {
  const { db, gateway, contract, now } = deps;
  const owed = await source.owed(db, limit);
  const operations = await withOperationOrderNames(
    db,
    gateway,
    owed.map((item) => item.operation),
  );
  const shopState = shopAlertStates(db);
  let opened = 0;
  for (const [i, item] of owed.entries()) {
    const operation = operations[i];
    const shop = await shopState(operation.shop);
    const events = new Map<string, RecordedEvent>();
    for (const kind of item.kinds) {
      const event = await recordAlertEvent(
        db,
        { op: operation, verdict: kind, decidedAt: item.decidedAt ?? now, history: item.pastNews?.(kind) },
        shop.settings,
        now,
      );
      if (event.created) opened++;
      events.set(kind, event);
    }
    const flow = item.flow?.({ events, shop, operation, contract, now });
    if (flow) await createOnce(() => db.alertDelivery.create({ data: flow }));
    await item.mark(db);
  }
  return opened;
}

/** Final verdicts that need a person (a verdict its contract does not escalate, as a refund of an order the shop does not have, alerts no one): each its event and its Flow call. */
export const VERDICT_EVENTS: EventSource = {
  name: "events",
  async owed(db, limit) {
    const operations = await db.operation.findMany({
      where: { escalate: true, OR: NEEDS_PERSON.map((verdict) => ({ status: verdict, OR: [{ alertedVerdict: null }, { alertedVerdict: { not: verdict } }] })) },
      orderBy: [{ decidedAt: "asc" }, { id: "asc" }],
      take: limit,
      include: { observations: ALERT_ITEM_OBSERVATIONS },
    });
    return operations.map((op) => ({
      operation: op,
      decidedAt: op.decidedAt,
      kinds: [op.status],
      flow: ({ events, shop, operation, contract, now }) => {
        const event = events.get(op.status);
        return event && !event.history ? flowDelivery(contract, operation, event.id, shop.enabled, now) : null;
      },
      mark: (db) => db.operation.updateMany({ where: { id: op.id, status: op.status }, data: { alertedVerdict: op.status } }),
    }));
  },
};
