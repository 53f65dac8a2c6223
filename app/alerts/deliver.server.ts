import type { AlertDelivery, Prisma, PrismaClient } from "@prisma/client";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { receiveFlowTrigger } from "../shopify/admin/flow.server";
import { askNoLongerDue } from "./approval-sends.server";
import { postToSlack, sendEmail, type SendOutcome } from "./channels.server";
import type { AlertMessage } from "./messages";
import { alertsSecretKey, isCurrentSeal, openSecret, sealSecret } from "../lib/crypto/secret-box.server";
import { lapsedSends, type Claimed } from "../work/claims.server";
import { parseStored } from "../lib/db/stored-json";
import { z } from "zod";
import { outcome, runRowWork, type Helpers, type InOrderWork, type Outcome } from "../work/runner.server";
import { slackUrlBoundTo, type AlertSettingsView, type Channel } from "./settings-view";

export const MAX_ATTEMPTS = 8;

/** What messageDelivery and the Flow events store as a delivery's payload, per channel. */
const flowPayload = z.record(z.unknown());
const slackPayload = z.object({ text: z.string(), blocks: z.array(z.unknown()) });
const emailPayload = z.object({ html: z.string() });
const SEND_LEASE_MS = 60_000;
/** A send still unanswered after this is given up as uncertain, well inside its lease. */
const SEND_DEADLINE_MS = 45_000;

/** One email or Slack message of an alert, digest or test, for the delivery log; `dedupeKey` makes it once. */
export function messageDelivery(
  shop: string,
  settings: AlertSettingsView,
  channel: Channel,
  message: AlertMessage,
  // `to`: an email's own recipients (a refund request goes to its approvers), rather than the shop's alert recipients.
  fields: { kind: string; dedupeKey: string; eventCount?: number; now: Date; to?: string[] },
): Prisma.AlertDeliveryCreateInput {
  return {
    shop,
    kind: fields.kind,
    channel,
    target: channel === "email" ? (fields.to ?? settings.emailRecipients).join(", ") : (settings.slackHint ?? "Slack"),
    subject: message.subject,
    body: message.text,
    payload: JSON.stringify(channel === "email" ? { html: message.html } : message.slack),
    eventCount: fields.eventCount ?? 0,
    dedupeKey: fields.dedupeKey,
    nextAttemptAt: fields.now,
    createdAt: fields.now,
  };
}

/** One Flow call for the delivery log, titled `subject` there; `dedupeKey` makes it once. */
export function flowTriggerDelivery(
  shop: string,
  trigger: { handle: string },
  subject: string,
  payload: Record<string, string | number>,
  { kind, dedupeKey, now }: { kind: string; dedupeKey: string; now: Date },
): Prisma.AlertDeliveryCreateInput {
  return {
    shop,
    kind,
    channel: "flow",
    target: trigger.handle,
    subject,
    body: Object.entries(payload)
      .map(([key, value]) => `${key}: ${value}`)
      .join("\n"),
    payload: JSON.stringify(payload),
    eventCount: 1,
    dedupeKey,
    nextAttemptAt: now,
    createdAt: now,
  };
}

/** What Shopify's answer to flowTriggerReceive means for the delivery. */
async function sendToFlow(gateway: ShopifyGateway, delivery: AlertDelivery): Promise<SendOutcome & { free?: boolean }> {
  const answer = await receiveFlowTrigger(gateway, delivery.shop, delivery.target, parseStored(flowPayload, delivery.payload, "AlertDelivery.payload (Flow)"));
  if (answer.ok) {
    const refused = answer.data.userErrors.map((e) => e.message).join("; ");
    return refused ? { kind: "failed", error: `Flow refused the trigger: ${refused}` } : { kind: "delivered" };
  }
  switch (answer.kind) {
    // Waiting for the shop's bucket costs no attempt.
    case "deferred":
      return { kind: "retry", error: answer.message, afterMs: answer.retryAfterMs, free: true };
    // Shopify ran nothing: safe to send again.
    case "throttled":
    case "graphql":
      return { kind: "retry", error: answer.message, afterMs: answer.retryAfterMs };
    case "session":
    case "rejected":
      return { kind: "failed", error: `Shopify did not let the app run the trigger (${answer.message}). Is the app still installed?` };
    default:
      return { kind: "uncertain", error: `No usable answer from Shopify (${answer.message}): the workflow may or may not have started.` };
  }
}

async function sendToSlack(db: PrismaClient, delivery: AlertDelivery): Promise<SendOutcome> {
  const row = await db.alertSettings.findUnique({ where: { shop: delivery.shop }, select: { slackUrlSealed: true } });
  if (!row?.slackUrlSealed) return { kind: "failed", error: "Slack was removed from the alert settings before this was sent." };
  const key = alertsSecretKey();
  if (!key) return { kind: "failed", error: "This server has no ALERTS_SECRET_KEY, so the stored Slack URL cannot be read." };
  let url: string;
  try {
    url = openSecret(row.slackUrlSealed, key, slackUrlBoundTo(delivery.shop));
  } catch {
    return { kind: "failed", error: "The stored Slack URL cannot be read with this server's ALERTS_SECRET_KEY (was the key changed?). Enter the URL again." };
  }
  // Sealed before secrets were bound to their row: sealed again, bound, unless someone saved a new URL meanwhile.
  if (!isCurrentSeal(row.slackUrlSealed)) {
    const resealed = sealSecret(url, key, slackUrlBoundTo(delivery.shop));
    await db.alertSettings.updateMany({ where: { shop: delivery.shop, slackUrlSealed: row.slackUrlSealed }, data: { slackUrlSealed: resealed } });
  }
  return postToSlack(url, parseStored(slackPayload, delivery.payload, "AlertDelivery.payload (Slack)"));
}

function send(gateway: ShopifyGateway, db: PrismaClient, delivery: AlertDelivery): Promise<SendOutcome & { free?: boolean }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<SendOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ kind: "uncertain", error: `No answer within ${SEND_DEADLINE_MS / 1000} s: it may or may not have arrived.` }),
      SEND_DEADLINE_MS,
    );
    timer.unref();
  });
  return Promise.race([sendOnChannel(gateway, db, delivery), deadline]).finally(() => clearTimeout(timer));
}

function sendOnChannel(gateway: ShopifyGateway, db: PrismaClient, delivery: AlertDelivery): Promise<SendOutcome & { free?: boolean }> {
  if (delivery.channel === "flow") return sendToFlow(gateway, delivery);
  if (delivery.channel === "slack") return sendToSlack(db, delivery);
  const { html } = parseStored(emailPayload, delivery.payload, "AlertDelivery.payload (email)");
  return sendEmail({ to: delivery.target.split(", "), subject: delivery.subject, text: delivery.body, html, messageId: `<${delivery.id}@refund-verifier>` });
}

/**
 * Sending, as work for the runner: what is due, one delivery a claim (each send's lease starts
 * when it is claimed), never renewed. A send that outlives its claim means the process stopped
 * mid-send: it becomes `uncertain` (lapsedSends, before each pass), never sent again on its own,
 * so no message arrives twice; a person can send it again from the log.
 */
export function deliveryWork(gateway: ShopifyGateway, limit = 50): InOrderWork<"alerts"> {
  return {
    name: "alert delivery",
    queue: "alerts",
    perShop: false,
    batch: 1,
    batches: limit,
    oncePerPass: true,
    leaseMs: SEND_LEASE_MS,
    renew: false,
    handle: async ([delivery], helpers) => outcome([delivery], outcomeOf(delivery, await sendUnlessUninstalled(gateway, helpers, delivery), helpers.now())),
    // A send that threw is tried again after the back-off.
    onError: ([delivery], error, helpers) =>
      outcome([delivery], outcomeOf(delivery, { kind: "retry", error: error instanceof Error ? error.message : String(error) }, helpers.now())),
  };
}

async function sendUnlessUninstalled(gateway: ShopifyGateway, { db, now }: Helpers, delivery: AlertDelivery): Promise<SendOutcome & { free?: boolean }> {
  const state = await db.shopState.findUnique({ where: { shop: delivery.shop }, select: { uninstalledAt: true } });
  if (state?.uninstalledAt) return { kind: "failed", error: "Not sent: the app was uninstalled." };
  const decided = await askNoLongerDue(db, delivery, now());
  if (decided) return { kind: "failed", error: decided };
  return send(gateway, db, delivery);
}

/** Sends what is due; the stage the alert passes end with. */
export async function deliverDue(gateway: ShopifyGateway, helpers: Helpers, limit = 50): Promise<{ delivered: number; failed: number }> {
  await lapsedSends(helpers.db, helpers.now(), {
    status: "uncertain",
    error: "The app stopped while sending this: it may or may not have arrived, so it is not sent again on its own.",
  });
  const pass = await runRowWork(deliveryWork(gateway, limit), helpers);
  return { delivered: pass.notes.filter((note) => note.sent === "delivered").length, failed: pass.notes.filter((note) => note.sent === "failed").length };
}

/**
 * What a send's outcome makes of the delivery. The claim's owner writes it even if its lease ran
 * out meanwhile (the row is `uncertain` then, still claimed by it): what happened wins over
 * "uncertain". A wait for Shopify's bucket costs no attempt (the claim counted one).
 */
function outcomeOf(delivery: Claimed<"alerts">, sent: SendOutcome & { free?: boolean }, now: Date): Outcome<"alerts"> {
  const attempts = delivery.attempts - (sent.kind === "retry" && sent.free ? 1 : 0);
  const note = { sent: sent.kind };
  if (sent.kind === "delivered") return { kind: "done", data: { status: "delivered", deliveredAt: now, error: null }, note };
  if (sent.kind === "retry" && attempts < MAX_ATTEMPTS)
    return { kind: "retry", failures: attempts, askedMs: sent.afterMs, data: { status: "pending", attempts, error: sent.error }, note };
  if (sent.kind === "retry")
    return {
      kind: "failed",
      reason: sent.error,
      data: { status: "failed", attempts, error: `Gave up after ${attempts} tries. The last: ${sent.error}` },
      note,
    };
  return { kind: "failed", reason: sent.error, data: { status: sent.kind, error: sent.error }, note };
}
