import type { Prisma, PrismaClient, RefundApproval } from "@prisma/client";
import { createOnce } from "../lib/db/create-once";
import { readStored, storedCaptions } from "../lib/db/stored-json";
import { approversOf } from "../guardrails/approvers.server";
import { breachesSentence, storedBreaches } from "../guardrails/limits";
import { formatMoney, fromMinorUnits } from "../lib/money/currency";
import { shopTimeZone } from "../shops/profile.server";
import { staffDirectory, staffNames } from "../staff/identity.server";
import { adminAppUrl, approvalPath, storeName } from "./admin-links.server";
import { ASK_KIND, DECISION_KIND, askKey, askMessage, decisionKey, declinedMessage, expiredMessage, type RequestFacts } from "./approval-messages";
import { flowTriggerDelivery, messageDelivery } from "./deliver.server";
import { shopAlertStates, type ShopAlertState } from "./events.server";
import { APPROVAL_FLOW_TRIGGER, approvalFlowPayload } from "./flow-triggers";

/**
 * Telling people of refund requests (decision 030): the approvers when a refund over a limit starts
 * waiting for them, the person who asked when it is declined or expires. These are not alerts a
 * shop chooses among (decision 011's verdicts): a request goes to its approvers whenever there is a
 * way to reach them, whatever the shop ticked. As every alert step, without a transaction (decision
 * 005): each message is an insert with a unique key, and the request's mark comes last, so a pass
 * repeated after a crash or run by a second worker at once sends nothing twice.
 */

/** Requests looked at in one pass; the rest wait for the next. */
const BATCH = 200;

/** A request and its held record in the words of its messages, and of its Flow payload; null when the record is gone. */
async function requestFacts(
  db: PrismaClient,
  request: RefundApproval,
): Promise<{ facts: RequestFacts; orderGid: string; decimal: string; currency: string } | null> {
  const record = await db.refundRecord.findUnique({
    where: { id: request.recordId },
    select: { amountMinor: true, currency: true, orderId: true, refCaptions: true, note: true },
  });
  if (!record) return null;
  const askedBy = (await staffNames(db, request.shop, [request.askedBy])).get(request.askedBy) ?? request.askedBy;
  // Stored JSON read at the door: a column that cannot be read costs its words, never the message.
  const breaches = readStored(storedBreaches, request.limits);
  return {
    facts: {
      shopName: storeName(request.shop),
      askedBy,
      amount: formatMoney(record.amountMinor, record.currency),
      orderName: readStored(storedCaptions, record.refCaptions)?.[0]?.caption ?? "the order",
      limits: breaches ? breachesSentence(breaches, `${askedBy}'s`) : "",
      note: record.note?.trim() || null,
      expiresAt: request.expiresAt,
      requestUrl: adminAppUrl(request.shop, approvalPath(request.id)),
    },
    orderGid: record.orderId,
    decimal: fromMinorUnits(record.amountMinor, record.currency),
    currency: record.currency,
  };
}

/** The messages asking a request's approvers: each approver with an email (never the person who asked), the shop's Slack, its Flow workflow. */
async function askingDeliveries(db: PrismaClient, request: RefundApproval, shop: ShopAlertState, now: Date): Promise<Prisma.AlertDeliveryCreateInput[]> {
  const words = await requestFacts(db, request);
  if (!words) return [];
  const message = askMessage(words.facts, await shopTimeZone(db, request.shop));
  const fields = (channel: string, recipient: string) => ({ kind: ASK_KIND, dedupeKey: askKey(request.id, channel, recipient), now });
  const approvers = await approversOf(db, request.shop, request.askedBy);
  const emails = approvers.flatMap((approver) =>
    approver.email ? [messageDelivery(request.shop, shop.settings, "email", message, { ...fields("email", approver.userId), to: [approver.email] })] : [],
  );
  const slack = shop.settings.slackConfigured ? [messageDelivery(request.shop, shop.settings, "slack", message, fields("slack", "shop"))] : [];
  const { facts } = words;
  const flow = shop.enabled.has(APPROVAL_FLOW_TRIGGER.handle)
    ? [
        flowTriggerDelivery(
          request.shop,
          APPROVAL_FLOW_TRIGGER,
          `${APPROVAL_FLOW_TRIGGER.name}: ${facts.amount} on ${facts.orderName}`,
          approvalFlowPayload({
            orderGid: words.orderGid,
            orderName: facts.orderName,
            amount: words.decimal,
            currency: words.currency,
            askedBy: facts.askedBy,
            limits: facts.limits,
            expiresAt: facts.expiresAt,
            requestUrl: facts.requestUrl,
          }),
          fields("flow", APPROVAL_FLOW_TRIGGER.handle),
        ),
      ]
    : [];
  return [...emails, ...slack, ...flow];
}

async function queueOnce(db: PrismaClient, deliveries: Prisma.AlertDeliveryCreateInput[]): Promise<number> {
  let queued = 0;
  for (const data of deliveries) if (await createOnce(() => db.alertDelivery.create({ data }))) queued++;
  return queued;
}

/**
 * Asks the approvers of each request that started waiting, once (askNotifiedAt). A request decided
 * or expired before a pass reached it (a worker that was down) asks nobody: it would ask for a
 * decision already made. The approver who decided knows, the person who asked hears of a decline
 * or an expiry (tellAskers), and its askNotifiedAt stays empty, as nobody was asked.
 */
export async function askApprovers(db: PrismaClient, now: Date): Promise<number> {
  const waiting = await db.refundApproval.findMany({
    where: { state: "waiting", askNotifiedAt: null, expiresAt: { gt: now } },
    orderBy: [{ askedAt: "asc" }, { id: "asc" }],
    take: BATCH,
  });
  const shopState = shopAlertStates(db);
  let queued = 0;
  for (const request of waiting) {
    const shop = await shopState(request.shop);
    if (!shop.uninstalled) queued += await queueOnce(db, await askingDeliveries(db, request, shop, now));
    await db.refundApproval.updateMany({ where: { id: request.id, askNotifiedAt: null }, data: { askNotifiedAt: now } });
  }
  return queued;
}

/** The email telling the person who asked of a decline or an expiry, at their own address; none when Shopify gave them none. */
async function decisionDelivery(db: PrismaClient, request: RefundApproval, shop: ShopAlertState, now: Date): Promise<Prisma.AlertDeliveryCreateInput[]> {
  const asker = (await staffDirectory(db, request.shop)).find((member) => member.userId === request.askedBy);
  const words = asker?.email ? await requestFacts(db, request) : null;
  if (!asker?.email || !words) return [];
  const message =
    request.state === "declined"
      ? declinedMessage(words.facts, {
          by: request.decidedBy ? ((await staffNames(db, request.shop, [request.decidedBy])).get(request.decidedBy) ?? request.decidedBy) : "An approver",
          reason: request.decisionNote,
        })
      : expiredMessage(words.facts, await shopTimeZone(db, request.shop));
  return [
    messageDelivery(request.shop, shop.settings, "email", message, {
      kind: DECISION_KIND,
      dedupeKey: decisionKey(request.id, asker.userId),
      now,
      to: [asker.email],
    }),
  ];
}

/**
 * Tells the person who asked that their request was declined (by whom, and why) or expired, once
 * (decisionNotifiedAt, marked also when there was nobody to write to: no pass looks again). An
 * approval is not mailed: the refund went to Shopify as they asked, and the refund form shows it.
 */
export async function tellAskers(db: PrismaClient, now: Date): Promise<number> {
  const decided = await db.refundApproval.findMany({
    where: { state: { in: ["declined", "expired"] }, decisionNotifiedAt: null },
    orderBy: [{ decidedAt: "asc" }, { id: "asc" }],
    take: BATCH,
  });
  const shopState = shopAlertStates(db);
  let queued = 0;
  for (const request of decided) {
    const shop = await shopState(request.shop);
    if (!shop.uninstalled) queued += await queueOnce(db, await decisionDelivery(db, request, shop, now));
    await db.refundApproval.updateMany({ where: { id: request.id, decisionNotifiedAt: null }, data: { decisionNotifiedAt: now } });
  }
  return queued;
}
