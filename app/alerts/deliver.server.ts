import type { AlertDelivery, Prisma, PrismaClient } from "@prisma/client";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { receiveFlowTrigger } from "../shopify/admin/flow.server";
import { postToSlack, sendEmail, type SendOutcome } from "./channels.server";
import type { AlertMessage } from "./messages";
import { alertsSecretKey, openSecret } from "../crypto/secret-box.server";
import { claim, fail, lapsedSends, release, retryLater, type Claimed } from "../worker/claims.server";
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
  await lapsedSends(db, deps.now(), {
    status: "uncertain",
    error: "The app stopped while sending this: it may or may not have arrived, so it is not sent again on its own.",
  });
  const result = { delivered: 0, failed: 0 };
  const uninstalledShops = new Map<string, boolean>();
  // One at a time: each send's lease starts when it is claimed, not when the batch's first one was.
  for (let i = 0; i < limit; i++) {
    const [delivery] = await claim(db, "alerts", { workerId: deps.workerId, now: deps.now(), limit: 1, leaseMs: SEND_LEASE_MS });
    if (!delivery) break;
    if (!uninstalledShops.has(delivery.shop)) {
      const state = await db.shopState.findUnique({ where: { shop: delivery.shop }, select: { uninstalledAt: true } });
      uninstalledShops.set(delivery.shop, Boolean(state?.uninstalledAt));
    }
    const outcome: SendOutcome & { free?: boolean } = uninstalledShops.get(delivery.shop)
      ? { kind: "failed", error: "Not sent: the app was uninstalled." }
      : await send(deps, delivery).catch((error: Error): SendOutcome => ({ kind: "retry", error: error.message }));
    await recordOutcome(deps, delivery, outcome);
    if (outcome.kind === "delivered") result.delivered++;
    if (outcome.kind === "failed") result.failed++;
  }
  return result;
}

/**
 * The claim's owner writes the outcome even if its lease ran out meanwhile (the row is `uncertain`
 * then, still claimed by it): what happened wins over "uncertain". A waiting for Shopify's bucket
 * costs no attempt (the claim counted one).
 */
function recordOutcome(deps: DeliverDeps, delivery: Claimed<"alerts">, outcome: SendOutcome & { free?: boolean }) {
  const attempts = delivery.attempts - (outcome.kind === "retry" && outcome.free ? 1 : 0);
  const at = deps.now();
  const held = [delivery];
  if (outcome.kind === "delivered") return release(deps.db, "alerts", held, { status: "delivered", deliveredAt: at, error: null });
  if (outcome.kind === "retry" && attempts < MAX_ATTEMPTS)
    return retryLater(
      deps.db,
      "alerts",
      held,
      { now: at, failures: attempts, askedMs: outcome.afterMs },
      { status: "pending", attempts, error: outcome.error },
    );
  if (outcome.kind === "retry")
    return fail(deps.db, "alerts", held, { status: "failed", attempts, error: `Gave up after ${attempts} tries. The last: ${outcome.error}` });
  return fail(deps.db, "alerts", held, { status: outcome.kind, error: outcome.error });
}
