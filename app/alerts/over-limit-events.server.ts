import type { LimitBreach, PrismaClient } from "@prisma/client";
import type { Contract } from "../contracts/schema";
import { readStored } from "../lib/db/stored-json";
import { storedBreaches } from "../guardrails/limits";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { staffNames } from "../staff/identity.server";
import { withOperationOrderNames } from "../verdicts/order-names.server";
import { money, orderLabel } from "../verdicts/words";
import { alertItem, recordAlertEvent, shopAlertStates, type AlertedOperation } from "./events.server";
import type { AlertItem } from "./messages";
import { OVER_LIMIT, OVER_LIMIT_TITLE, overLimitSentence } from "./over-limit-alerts";

/**
 * An over-limit alert's item: the refund's row, saying who made it and the limits it went over
 * (`staff`: the names of the people breaches name, app/staff staffNames). Its breach gone meanwhile,
 * the evidence page says the rest.
 */
export function overLimitItem(contract: Contract, op: AlertedOperation, breach: LimitBreach | null, staff: ReadonlyMap<string, string>): AlertItem {
  const base = alertItem(contract, op);
  const staffName = breach?.staffUserId ? (staff.get(breach.staffUserId) ?? null) : null;
  // Stored JSON read at the door: limits that cannot be read cost their words, never the alert.
  const breaches = readStored(storedBreaches, breach?.limits) ?? [];
  const reasonText = overLimitSentence({ amount: money(base.row.amount, base.row.currency), order: orderLabel(base.row) }, staffName, breaches);
  return { ...base, row: { ...base.row, reasonText, decidedAt: breach?.createdAt.toISOString() ?? base.row.decidedAt }, headline: OVER_LIMIT_TITLE };
}

/** The names of the people these breaches name, for their items. */
export function breachStaffNames(
  db: PrismaClient,
  shop: string,
  breaches: (Pick<LimitBreach, "staffUserId"> | null | undefined)[],
): Promise<Map<string, string>> {
  return staffNames(
    db,
    shop,
    breaches.flatMap((breach) => (breach?.staffUserId ? [breach.staffUserId] : [])),
  );
}

/**
 * Turns each LimitBreach into one AlertEvent of its refund's operation (unique per operation and
 * kind: the event is the breach's mark, so a pass repeated after a crash or by a second worker adds
 * nothing). Refunds made outside the app are news now (webhooks and the sweep, never the shop's
 * history), and start no Flow workflow.
 */
export async function openOverLimitAlertEvents(db: PrismaClient, gateway: ShopifyGateway, now: Date, limit = 500): Promise<number> {
  const owed = await db.limitBreach.findMany({
    where: { operation: { alertEvents: { none: { verdict: OVER_LIMIT } } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: limit,
    include: { operation: true },
  });
  // Messages name the order as people know it: named now, once, on the operation.
  await withOperationOrderNames(
    db,
    gateway,
    owed.map((breach) => breach.operation),
  );
  const shopState = shopAlertStates(db);
  let opened = 0;
  for (const breach of owed) {
    const shop = await shopState(breach.shop);
    if ((await recordAlertEvent(db, breach.operation, OVER_LIMIT, breach.createdAt, shop.settings, now)).created) opened++;
  }
  return opened;
}
