import type { Contract } from "../contracts/schema";
import { deliverDue, type DeliverDeps } from "./deliver.server";
import { sendDueDigests } from "./digest.server";
import { openAlertEvents } from "./events.server";
import { groupInstantAlerts, type GroupingTiming } from "./grouping.server";

export interface AlertPassResult {
  events: number;
  messages: number;
  digests: number;
  delivered: number;
  failed: number;
}

/**
 * One round of the alert work, in order: verdicts become events (and Flow calls), events become
 * grouped messages, the digest is queued at its hour, and whatever is due is sent.
 */
export async function runAlertPasses(deps: DeliverDeps & { contract: Contract; grouping: GroupingTiming }): Promise<AlertPassResult> {
  const events = await openAlertEvents(deps.db, deps.contract, deps.now());
  const messages = await groupInstantAlerts(deps.db, deps.contract, deps.now(), deps.grouping);
  const digests = await sendDueDigests(deps.db, deps.gateway, deps.contract, deps.now());
  const sent = await deliverDue(deps);
  return { events, messages, digests, ...sent };
}
