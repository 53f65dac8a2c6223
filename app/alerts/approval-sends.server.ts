import type { AlertDelivery, PrismaClient } from "@prisma/client";
import { staffNames } from "../staff/identity.server";
import { ASK_KIND, requestOfAskKey } from "./approval-messages";

/**
 * Why a message asking approvers to decide a request must not go out now, or null. Its request was
 * decided or expired after the message was queued (a retry's back-off, a mail server that asked to
 * try later): the message would ask for a decision already made, so it is not sent, and the log
 * says why. The request's page and the person who asked have the decision.
 */
export async function askNoLongerDue(db: PrismaClient, delivery: Pick<AlertDelivery, "kind" | "dedupeKey">, now: Date): Promise<string | null> {
  const requestId = delivery.kind === ASK_KIND ? requestOfAskKey(delivery.dedupeKey) : null;
  if (!requestId) return null;
  const request = await db.refundApproval.findUnique({ where: { id: requestId }, select: { shop: true, state: true, decidedBy: true, expiresAt: true } });
  if (!request) return "Not sent: the request is no longer in the app.";
  const expired = request.expiresAt.getTime() <= now.getTime();
  if (request.state === "waiting" && !expired) return null;
  if (request.state === "waiting" || request.state === "expired") return "Not sent: the request expired before this went out.";
  const by = request.decidedBy ? (await staffNames(db, request.shop, [request.decidedBy])).get(request.decidedBy) : "An approver";
  return `Not sent: ${by} ${request.state} the request before this went out.`;
}
