import type { AlertDelivery, Prisma, PrismaClient } from "@prisma/client";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { receiveFlowTrigger } from "../shopify/admin/flow.server";
import { postToSlack, sendEmail, type SendOutcome } from "./channels.server";
import type { AlertMessage } from "./messages";
import { alertsSecretKey, openSecret } from "../crypto/secret-box.server";
import type { AlertSettingsView, Channel } from "./settings.server";

export const MAX_ATTEMPTS = 8;
const SEND_LEASE_MS = 60_000;
/** A send still unanswered after this is given up as uncertain, well inside its lease. */
const SEND_DEADLINE_MS = 45_000;

/** One email or Slack message of an alert, digest or test, for the delivery log; `dedupeKey` makes it once. */
export function messageDelivery(
  shop: string,
  settings: AlertSettingsView,
  channel: Channel,
  message: AlertMessage,
  fields: { kind: string; dedupeKey: string; eventCount?: number; now: Date },
): Prisma.AlertDeliveryCreateInput {
  return {
    shop,
    kind: fields.kind,
    channel,
    target: channel === "email" ? settings.emailRecipients.join(", ") : (settings.slackHint ?? "Slack"),
    subject: message.subject,
    body: message.text,
    payload: JSON.stringify(channel === "email" ? { html: message.html } : message.slack),
    eventCount: fields.eventCount ?? 0,
    dedupeKey: fields.dedupeKey,
    nextAttemptAt: fields.now,
    createdAt: fields.now,
  };
}

/** What Shopify's answer to flowTriggerReceive means for the delivery. */
async function sendToFlow(gateway: ShopifyGateway, delivery: AlertDelivery): Promise<SendOutcome & { free?: boolean }> {
  const answer = await receiveFlowTrigger(gateway, delivery.shop, delivery.target, JSON.parse(delivery.payload) as Record<string, unknown>);
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
    url = openSecret(row.slackUrlSealed, key);
  } catch {
    return { kind: "failed", error: "The stored Slack URL cannot be read with this server's ALERTS_SECRET_KEY (was the key changed?). Enter the URL again." };
  }
  return postToSlack(url, JSON.parse(delivery.payload));
}

function send(deps: DeliverDeps, delivery: AlertDelivery): Promise<SendOutcome & { free?: boolean }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<SendOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ kind: "uncertain", error: `No answer within ${SEND_DEADLINE_MS / 1000} s: it may or may not have arrived.` }),
      SEND_DEADLINE_MS,
    );
    timer.unref();
  });
  return Promise.race([sendOnChannel(deps, delivery), deadline]).finally(() => clearTimeout(timer));
}

function sendOnChannel(deps: DeliverDeps, delivery: AlertDelivery): Promise<SendOutcome & { free?: boolean }> {
  if (delivery.channel === "flow") return sendToFlow(deps.gateway, delivery);
  if (delivery.channel === "slack") return sendToSlack(deps.db, delivery);
  const { html } = JSON.parse(delivery.payload) as { html: string };
  return sendEmail({ to: delivery.target.split(", "), subject: delivery.subject, text: delivery.body, html, messageId: `<${delivery.id}@refund-verifier>` });
}

const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(attempts - 1, 0), 3600_000);

export interface DeliverDeps {
  db: PrismaClient;
  gateway: ShopifyGateway;
  now: () => Date;
  workerId: string;
}

/**
 * Sends what is due, each claimed first (one worker per delivery). A send that outlives its claim
 * means the process stopped mid-send: it becomes `uncertain`, never sent again on its own, so no
 * message arrives twice; a person can send it again from the log.
 */
export async function deliverDue(deps: DeliverDeps, limit = 50): Promise<{ delivered: number; failed: number }> {
  const { db } = deps;
  // The claim stays with its owner: if it is still alive, its outcome overwrites this one.
  await db.alertDelivery.updateMany({
    where: { status: "sending", claimedUntil: { lt: deps.now() } },
    data: { status: "uncertain", error: "The app stopped while sending this: it may or may not have arrived, so it is not sent again on its own." },
  });
  const due = await db.alertDelivery.findMany({
    where: { status: "pending", nextAttemptAt: { lte: deps.now() } },
    orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
    take: limit,
  });
  const result = { delivered: 0, failed: 0 };
  const uninstalledShops = new Map<string, boolean>();
  for (const delivery of due) {
    const claimed = await db.alertDelivery.updateMany({
      where: { id: delivery.id, status: "pending" },
      data: { status: "sending", claimedBy: deps.workerId, claimedUntil: new Date(deps.now().getTime() + SEND_LEASE_MS), attempts: { increment: 1 } },
    });
    if (!claimed.count) continue;
    if (!uninstalledShops.has(delivery.shop)) {
      const state = await db.shopState.findUnique({ where: { shop: delivery.shop }, select: { uninstalledAt: true } });
      uninstalledShops.set(delivery.shop, Boolean(state?.uninstalledAt));
    }
    const uninstalled = uninstalledShops.get(delivery.shop);
    const outcome: SendOutcome & { free?: boolean } = uninstalled
      ? { kind: "failed", error: "Not sent: the app was uninstalled." }
      : await send(deps, delivery).catch((error: Error): SendOutcome => ({ kind: "retry", error: error.message }));
    const attempts = delivery.attempts + (outcome.kind === "retry" && "free" in outcome && outcome.free ? 0 : 1);
    const at = deps.now();
    const data: Prisma.AlertDeliveryUpdateManyMutationInput =
      outcome.kind === "delivered"
        ? { status: "delivered", deliveredAt: at, error: null }
        : outcome.kind === "retry" && attempts < MAX_ATTEMPTS
          ? { status: "pending", attempts, error: outcome.error, nextAttemptAt: new Date(at.getTime() + Math.max(outcome.afterMs ?? 0, backoffMs(attempts))) }
          : outcome.kind === "retry"
            ? { status: "failed", attempts, error: `Gave up after ${attempts} tries. The last: ${outcome.error}` }
            : { status: outcome.kind, error: outcome.error };
    // The claim's owner writes the outcome even if its lease ran out meanwhile: what happened wins over "uncertain".
    await db.alertDelivery.updateMany({
      where: { id: delivery.id, claimedBy: deps.workerId, status: { in: ["sending", "uncertain"] } },
      data: { ...data, claimedBy: null, claimedUntil: null },
    });
    if (outcome.kind === "delivered") result.delivered++;
    if (outcome.kind === "failed") result.failed++;
  }
  return result;
}
