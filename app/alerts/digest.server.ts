import type { PrismaClient } from "@prisma/client";
import { dateTimeFormat } from "../lib/intl/formats";
import type { Contract } from "../contracts/schema";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { shopTimeZone } from "../shops/profile.server";
import { addDays, dayIn, startOfDay } from "../lib/time/days";
import { adminAppUrl } from "./admin-links.server";
import { messageDelivery } from "./deliver.server";
import { createOnce } from "../lib/db/create-once";
import { ALERT_ITEM_OBSERVATIONS, alertItem, shopNameOf } from "./events.server";
import { digestMessage, type DigestSummary } from "./messages";
import { EXPOSURE_ALERTS, isExposureAlert } from "./exposure-alerts";
import { isMoneyAlert, MONEY_ALERTS } from "./money";
import { breachStaffNames, overLimitItem } from "./over-limit-events.server";
import { channelsOf, settingsView } from "./settings-view";

/** The hour (0-23) of an instant on the clocks of a time zone. */
export function hourIn(instant: Date, timeZone: string): number {
  return Number(dateTimeFormat("en-US", { timeZone, hour: "numeric", hourCycle: "h23" }).format(instant)) % 24;
}

/** Refunds over a limit the digest puts in words; the rest it counts. */
const OVER_LIMIT_LISTED = 5;

async function countsBetween(db: PrismaClient, shop: string, from: Date, to: Date): Promise<Record<string, number>> {
  const rows = await db.operation.groupBy({ by: ["status"], where: { shop, startedAt: { gte: from, lt: to } }, _count: { _all: true } });
  return Object.fromEntries(rows.map((row) => [row.status, row._count._all]));
}

/** What the shop's day before `today` (a local date) held, and how it compares with the day before that. */
export async function digestSummary(db: PrismaClient, contract: Contract, shop: string, today: string, timeZone: string): Promise<DigestSummary> {
  const day = addDays(today, -1);
  const [dayStart, dayEnd, previousStart] = [startOfDay(day, timeZone), startOfDay(today, timeZone), startOfDay(addDays(today, -2), timeZone)];
  const ofTheDay = { shop, createdAt: { gte: dayStart, lt: dayEnd } };
  const [counts, previousCounts, atRisk, openReviews, oldest, moneyProblems, atRiskTwice, overLimitCount, overLimit] = await Promise.all([
    countsBetween(db, shop, dayStart, dayEnd),
    countsBetween(db, shop, previousStart, dayStart),
    db.operation.groupBy({ by: ["currency"], where: { shop, reviewState: "open", amountMinor: { not: null } }, _sum: { amountMinor: true } }),
    db.operation.count({ where: { shop, reviewState: "open" } }),
    db.operation.findFirst({
      where: { shop, reviewState: "open" },
      orderBy: [{ decidedAt: "asc" }, { id: "asc" }],
      include: { observations: ALERT_ITEM_OBSERVATIONS },
    }),
    // Money alerts of the day: refunds verified that day or before whose money did not settle.
    db.alertEvent.groupBy({
      by: ["verdict"],
      where: { shop, verdict: { in: Object.keys(MONEY_ALERTS) }, decidedAt: { gte: dayStart, lt: dayEnd } },
      _count: { _all: true },
    }),
    // At-risk-twice alerts of the day: verified refunds whose order got a chargeback, or gave back more than was paid.
    db.alertEvent.groupBy({
      by: ["verdict"],
      where: { shop, verdict: { in: Object.keys(EXPOSURE_ALERTS) }, decidedAt: { gte: dayStart, lt: dayEnd } },
      _count: { _all: true },
    }),
    // Refunds made outside the app over a limit that day: counted, the first few in words.
    db.limitBreach.count({ where: ofTheDay }),
    db.limitBreach.findMany({
      where: ofTheDay,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: OVER_LIMIT_LISTED,
      include: { operation: { include: { observations: ALERT_ITEM_OBSERVATIONS } } },
    }),
  ]);
  const staff = await breachStaffNames(db, shop, overLimit);
  return {
    shopName: shopNameOf(shop),
    day,
    counts,
    previousCounts,
    atRisk: atRisk.filter((row) => row.currency && row._sum.amountMinor !== null).map((row) => ({ currency: row.currency!, minor: row._sum.amountMinor! })),
    openReviews,
    oldestOpen: oldest ? alertItem(contract, oldest) : null,
    moneyProblems: moneyProblems.flatMap((m) => (isMoneyAlert(m.verdict) ? [{ headline: MONEY_ALERTS[m.verdict], count: m._count._all }] : [])),
    atRiskTwice: atRiskTwice.flatMap((m) => (isExposureAlert(m.verdict) ? [{ headline: EXPOSURE_ALERTS[m.verdict].title, count: m._count._all }] : [])),
    overLimit: { count: overLimitCount, listed: overLimit.map((breach) => overLimitItem(contract, breach.operation, breach, staff).row.reasonText) },
    links: { dashboard: adminAppUrl(shop), reviewQueue: adminAppUrl(shop, "/review") },
  };
}

/**
 * The daily digest, once per shop, local day and channel, at the shop's chosen local hour (the
 * shop's IANA time zone from Shopify). The delivery key carries the local day, so several workers
 * and restarts still send it once; a worker that was down at that hour sends it when it is back.
 */
export async function queueDueDigests(db: PrismaClient, gateway: ShopifyGateway, contract: Contract, now: Date): Promise<number> {
  const candidates = await db.alertSettings.findMany({ where: { delivery: { in: ["digest", "both"] } } });
  let queued = 0;
  for (const row of candidates) {
    const settings = settingsView(row);
    const channels = channelsOf(settings);
    const state = await db.shopState.findUnique({ where: { shop: row.shop }, select: { uninstalledAt: true } });
    if (!channels.length || state?.uninstalledAt) continue;
    // The shop's own time zone, read from Shopify once if the screens have not yet (a failed read is not asked again for 10 minutes).
    const timeZone = await shopTimeZone(db, row.shop, { gateway, now });
    if (hourIn(now, timeZone) < settings.digestHour) continue;
    const today = dayIn(now, timeZone);
    const keyOf = (channel: string) => `digest:${row.shop}:${today}:${channel}`;
    const sent = await db.alertDelivery.findMany({ where: { dedupeKey: { in: channels.map(keyOf) } }, select: { dedupeKey: true } });
    const missing = channels.filter((channel) => !sent.some((s) => s.dedupeKey === keyOf(channel)));
    if (!missing.length) continue;
    const message = digestMessage(await digestSummary(db, contract, row.shop, today, timeZone), timeZone);
    for (const channel of missing) {
      if (
        await createOnce(() =>
          db.alertDelivery.create({ data: messageDelivery(row.shop, settings, channel, message, { kind: "digest", dedupeKey: keyOf(channel), now }) }),
        )
      )
        queued++;
    }
  }
  return queued;
}
