import { Prisma, type PrismaClient } from "@prisma/client";
import type { Contract } from "../contracts/schema";
import { adminAppUrl } from "./admin-links.server";
import { messageDelivery } from "./deliver.server";
import { alertItem, shopNameOf, shopTimeZoneOf } from "./events.server";
import { instantAlert } from "./messages";
import { alertSettings, channelsOf } from "./settings.server";

export interface GroupingTiming {
  /** A group closes once no verdict has joined it for this long… */
  quietMs: number;
  /** …or once its first verdict has waited this long, whichever comes first. */
  maxWaitMs: number;
}

export const DEFAULT_GROUPING: GroupingTiming = { quietMs: 30_000, maxWaitMs: 120_000 };

export function groupingFromEnv(env: Record<string, string | undefined> = process.env): GroupingTiming {
  return { quietMs: Number(env.ALERT_QUIET_MS || DEFAULT_GROUPING.quietMs), maxWaitMs: Number(env.ALERT_MAX_WAIT_MS || DEFAULT_GROUPING.maxWaitMs) };
}

const MAX_PER_MESSAGE = 500;

/**
 * Instant alerts: the verdicts of a shop decided close together become one message per channel
 * (a burst of 50 duplicates is one email and one Slack message). The group is named by its oldest
 * event, so two workers grouping the same events make the same delivery keys and one of them rolls back.
 */
export async function groupInstantAlerts(db: PrismaClient, contract: Contract, now: Date, timing: GroupingTiming = DEFAULT_GROUPING): Promise<number> {
  const waiting = await db.alertEvent.groupBy({ by: ["shop"], where: { instantStatus: "pending" }, _min: { decidedAt: true }, _max: { decidedAt: true } });
  let messages = 0;
  for (const group of waiting) {
    const quiet = now.getTime() - group._max.decidedAt!.getTime() >= timing.quietMs;
    const waitedLongEnough = now.getTime() - group._min.decidedAt!.getTime() >= timing.maxWaitMs;
    if (!quiet && !waitedLongEnough) continue;
    const events = await db.alertEvent.findMany({ where: { shop: group.shop, instantStatus: "pending" }, include: { operation: true }, orderBy: [{ decidedAt: "asc" }, { id: "asc" }], take: MAX_PER_MESSAGE });
    const ids = events.map((event) => event.id);
    const settings = await alertSettings(db, group.shop);
    const channels = channelsOf(settings);
    if (!channels.length) {
      // The channels were removed after these verdicts: nobody to tell.
      await db.alertEvent.updateMany({ where: { id: { in: ids }, instantStatus: "pending" }, data: { instantStatus: "not_wanted" } });
      continue;
    }
    const groupId = events[0].id;
    const message = instantAlert(shopNameOf(group.shop), events.map((event) => alertItem(contract, event.operation)), { reviewQueue: adminAppUrl(group.shop, "/review") }, await shopTimeZoneOf(db, group.shop));
    const deliveries = channels.map((channel) => db.alertDelivery.create({ data: messageDelivery(group.shop, settings, channel, message, { kind: "instant", dedupeKey: `instant:${groupId}:${channel}`, eventCount: events.length, now }) }));
    try {
      await db.$transaction([db.alertEvent.updateMany({ where: { id: { in: ids }, instantStatus: "pending" }, data: { instantStatus: "grouped", groupId } }), ...deliveries]);
      messages += deliveries.length;
    } catch (error) {
      if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
    }
  }
  return messages;
}
