import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import type { Contract } from "../contracts/schema";
import { adminAppUrl } from "./admin-links.server";
import { messageDelivery } from "./deliver.server";
import { createOnce } from "../lib/db/create-once";
import { shopNameOf } from "./events.server";
import { shopTimeZone } from "../shops/profile.server";
import { EVENT_ITEM_INCLUDE, eventItem } from "./event-items.server";
import { instantAlert } from "./messages";
import { breachStaffNames } from "./over-limit-events.server";
import { alertSettings } from "./settings.server";
import { channelsOf } from "./settings-view";
import { config } from "../lib/config/env.server";

export interface GroupingTiming {
  /** A group closes once no verdict has joined it for this long… */
  quietMs: number;
  /** …or once its first verdict has waited this long, whichever comes first. */
  maxWaitMs: number;
}

export const DEFAULT_GROUPING: GroupingTiming = { quietMs: 30_000, maxWaitMs: 120_000 };

/** ALERT_QUIET_MS and ALERT_MAX_WAIT_MS (defaults DEFAULT_GROUPING's; a malformed one stops the start). */
export function configuredGrouping(): GroupingTiming {
  return { quietMs: config().ALERT_QUIET_MS, maxWaitMs: config().ALERT_MAX_WAIT_MS };
}

const MAX_PER_MESSAGE = 500;

/** A group still being written this long after it was taken was left by a stopped worker. */
const ABANDONED_MS = 60_000;

/** Writes a group's message, one per channel (each keyed by the group, so once), then marks its events grouped. */
async function writeGroup(db: PrismaClient, contract: Contract, shop: string, groupId: string, now: Date): Promise<number> {
  const events = await db.alertEvent.findMany({
    where: { groupId },
    include: EVENT_ITEM_INCLUDE,
    orderBy: [{ decidedAt: "asc" }, { id: "asc" }],
  });
  const settings = await alertSettings(db, shop);
  const channels = channelsOf(settings);
  let messages = 0;
  if (events.length && channels.length) {
    const timeZone = await shopTimeZone(db, shop);
    const staff = await breachStaffNames(
      db,
      shop,
      events.map((event) => event.operation.limitBreach),
    );
    const message = instantAlert(
      shopNameOf(shop),
      events.map((event) => eventItem(contract, event, now, timeZone, staff)),
      { reviewQueue: adminAppUrl(shop, "/review") },
      timeZone,
    );
    for (const channel of channels) {
      if (
        await createOnce(() =>
          db.alertDelivery.create({
            data: messageDelivery(shop, settings, channel, message, {
              kind: "instant",
              dedupeKey: `instant:${groupId}:${channel}`,
              eventCount: events.length,
              now,
            }),
          }),
        )
      )
        messages++;
    }
  }
  // The channels were removed after these verdicts: nobody to tell.
  await db.alertEvent.updateMany({ where: { groupId, instantStatus: "grouping" }, data: { instantStatus: channels.length ? "grouped" : "not_wanted" } });
  return messages;
}

/**
 * Instant alerts: the verdicts of a shop decided close together become one message per channel
 * (a burst of 50 duplicates is one email and one Slack message). No transaction (decision 005):
 * one guarded update takes the waiting events into a new group (a second worker's update finds
 * them taken), the group's messages are keyed by it, and a group a crash left half-written is
 * finished by a later pass.
 */
export async function groupInstantAlerts(db: PrismaClient, contract: Contract, now: Date, timing: GroupingTiming = DEFAULT_GROUPING): Promise<number> {
  let messages = 0;
  const abandoned = await db.alertEvent.findMany({
    where: { instantStatus: "grouping", groupedAt: { lt: new Date(now.getTime() - ABANDONED_MS) } },
    distinct: ["groupId"],
    select: { shop: true, groupId: true },
  });
  for (const group of abandoned) messages += await writeGroup(db, contract, group.shop, group.groupId!, now);

  const waiting = await db.alertEvent.groupBy({ by: ["shop"], where: { instantStatus: "pending" }, _min: { decidedAt: true }, _max: { decidedAt: true } });
  for (const group of waiting) {
    const quiet = now.getTime() - group._max.decidedAt!.getTime() >= timing.quietMs;
    const waitedLongEnough = now.getTime() - group._min.decidedAt!.getTime() >= timing.maxWaitMs;
    if (!quiet && !waitedLongEnough) continue;
    const events = await db.alertEvent.findMany({
      where: { shop: group.shop, instantStatus: "pending" },
      orderBy: [{ decidedAt: "asc" }, { id: "asc" }],
      take: MAX_PER_MESSAGE,
      select: { id: true },
    });
    const groupId = randomUUID();
    const taken = await db.alertEvent.updateMany({
      where: { id: { in: events.map((e) => e.id) }, instantStatus: "pending" },
      data: { instantStatus: "grouping", groupId, groupedAt: now },
    });
    if (taken.count) messages += await writeGroup(db, contract, group.shop, groupId, now);
  }
  return messages;
}
