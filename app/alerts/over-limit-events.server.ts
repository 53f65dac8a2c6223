import type { LimitBreach, PrismaClient } from "@prisma/client";
import type { Contract } from "../contracts/schema";
import { readStored } from "../lib/db/stored-json";
import { storedBreaches } from "../guardrails/limits";
import { staffNames } from "../staff/identity.server";
import { money, orderLabel } from "../verdicts/words";
import { alertItem, type AlertedOperation, type EventSource } from "./events.server";
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
 * Refunds made outside the app over one of the shop's limits (LimitBreach, decision 030): one
 * AlertEvent of the refund's operation each; the event is the breach's mark (unique per operation
 * and kind). Refunds made outside the app are news now (webhooks and the sweep, never the shop's
 * history), and start no Flow workflow.
 */
export const OVER_LIMIT_EVENTS: EventSource = {
  name: "over-limit events",
  async owed(db, limit) {
    const owed = await db.limitBreach.findMany({
      where: { operation: { alertEvents: { none: { verdict: OVER_LIMIT } } } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: limit,
      include: { operation: true },
    });
    return owed.map((breach) => ({ operation: breach.operation, decidedAt: breach.createdAt, kinds: [OVER_LIMIT], mark: async () => undefined }));
  },
};
