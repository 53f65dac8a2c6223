import type { Prisma, PrismaClient } from "@prisma/client";
import { createOnce } from "../lib/db/create-once";
import { alertsSecretKey, sealSecret, secretUrlHint } from "../lib/crypto/secret-box.server";
import { messageDelivery } from "./deliver.server";
import type { AlertMessage } from "./messages";
import { type AlertSettingsInput, type FieldErrors } from "./settings-form";
import { channelsOf, settingsView, slackUrlBoundTo, storedChoices, type AlertSettingsView, type Channel } from "./settings-view";
import { UNCLAIMED } from "../work/claims.server";

export type { AlertSettingsView } from "./settings-view";

export async function alertSettings(db: PrismaClient, shop: string): Promise<AlertSettingsView> {
  return settingsView(await db.alertSettings.findUnique({ where: { shop } }));
}

export type SaveOutcome = { ok: true; settings: AlertSettingsView } | { ok: false; status: 409 | 422; fieldErrors: FieldErrors };

/** Saves the form; a revision someone else has moved on from is a 409, never a silent overwrite. */
export async function saveAlertSettings(db: PrismaClient, shop: string, input: AlertSettingsInput): Promise<SaveOutcome> {
  const data: Prisma.AlertSettingsUpdateInput = {
    emailRecipients: input.emailRecipients.join(","),
    verdicts: storedChoices(input.verdicts),
    delivery: input.delivery,
    digestHour: input.digestHour,
    revision: { increment: 1 },
  };
  if (input.slackUrl) {
    const key = alertsSecretKey();
    if (!key)
      return {
        ok: false,
        status: 422,
        fieldErrors: { slackUrl: "This server cannot store a Slack URL safely: ALERTS_SECRET_KEY is not set. Ask whoever runs the app to set it." },
      };
    Object.assign(data, { slackUrlSealed: sealSecret(input.slackUrl, key, slackUrlBoundTo(shop)), slackUrlHint: secretUrlHint(input.slackUrl) });
  } else if (input.removeSlack) {
    Object.assign(data, { slackUrlSealed: null, slackUrlHint: null });
  }
  const conflict: SaveOutcome = {
    ok: false,
    status: 409,
    fieldErrors: { form: "Someone else changed these settings while you were editing. Reload the page to see their changes, then save yours again." },
  };
  const updated = await db.alertSettings.updateMany({ where: { shop, revision: input.revision }, data: data as Prisma.AlertSettingsUpdateManyMutationInput });
  if (!updated.count) {
    if (input.revision !== 0) return conflict;
    if (!(await createOnce(() => db.alertSettings.create({ data: { ...(data as object), shop, revision: 1 } as Prisma.AlertSettingsCreateInput }))))
      return conflict;
  }
  return { ok: true, settings: await alertSettings(db, shop) };
}

/** "Send a test alert": one message per configured channel, through the same delivery log and sender as real alerts. */
/** A test goes to real addresses a staff member typed: at most one per shop and channel a minute, however often the button is pressed. */
export const TEST_ALERT_INTERVAL_MS = 60_000;

/**
 * Queues a test alert on each channel that had none in the last minute. Each test names the one
 * before it in its unique key, so requests at once, which all read the same newest test, cannot
 * both queue its successor (a key by the minute let two presses a millisecond apart, on either
 * side of a minute's edge, queue two). Returns the channels queued, and when the next test may be
 * sent when none was.
 */
export async function queueTestAlert(db: PrismaClient, shop: string, now: Date, message: AlertMessage): Promise<{ queued: Channel[]; retryAfterMs: number }> {
  const settings = await alertSettings(db, shop);
  const queued: Channel[] = [];
  let nextAllowedAt = 0;
  for (const channel of channelsOf(settings)) {
    // One statement: the newest test and whether it is recent come from the same snapshot.
    const newest = await db.alertDelivery.findFirst({
      where: { shop, kind: "test", channel },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true, createdAt: true },
    });
    const allowedAt = newest ? newest.createdAt.getTime() + TEST_ALERT_INTERVAL_MS : 0;
    if (allowedAt > now.getTime()) {
      nextAllowedAt = Math.max(nextAllowedAt, allowedAt);
      continue;
    }
    const dedupeKey = `test:${shop}:${channel}:after:${newest?.id ?? "none"}`;
    if (await createOnce(() => db.alertDelivery.create({ data: messageDelivery(shop, settings, channel, message, { kind: "test", dedupeKey, now }) })))
      queued.push(channel);
    else nextAllowedAt = Math.max(nextAllowedAt, now.getTime() + TEST_ALERT_INTERVAL_MS);
  }
  return { queued, retryAfterMs: queued.length ? 0 : Math.max(0, nextAllowedAt - now.getTime()) };
}

/** A person's "Send again" for a delivery that failed or whose fate is unknown: it is queued once more, as it was. */
export async function sendAgain(db: PrismaClient, shop: string, id: string, now: Date): Promise<boolean> {
  const queued = await db.alertDelivery.updateMany({
    where: { id, shop, status: { in: ["failed", "uncertain"] } },
    data: { status: "pending", nextAttemptAt: now, attempts: 0, error: "Sent again by a person.", ...UNCLAIMED },
  });
  return queued.count === 1;
}

/** The delivery log: the newest messages first. */
export async function deliveryLog(db: PrismaClient, shop: string, take = 50) {
  const rows = await db.alertDelivery.findMany({ where: { shop }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take });
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    channel: row.channel,
    target: row.target,
    subject: row.subject,
    body: row.body,
    eventCount: row.eventCount,
    status: row.status,
    attempts: row.attempts,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  }));
}
