import type { Contract } from "../contracts/schema";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import type { Helpers } from "../work/runner.server";
import { askApprovers, tellAskers } from "./approval-events.server";
import { deliverDue } from "./deliver.server";
import { queueDueDigests } from "./digest.server";
import { openEvents, VERDICT_EVENTS, type EventSource } from "./events.server";
import { EXPOSURE_EVENTS } from "./exposure-events.server";
import { MONEY_EVENTS } from "./money-events.server";
import { OVER_LIMIT_EVENTS } from "./over-limit-events.server";
import { groupInstantAlerts, type GroupingTiming } from "./grouping.server";

/**
 * What owes alert events, in order: verdicts that need a person; where verified refunds' money went
 * (contract shopify.refund.settled: a failed payout, a reversal, money never settled); verified
 * refunds whose money is at risk twice (contract shopify.refund.exposure: a chargeback open or lost,
 * more back than paid); refunds made outside the app over one of the shop's limits (decision 030).
 */
const EVENT_SOURCES: readonly EventSource[] = [VERDICT_EVENTS, MONEY_EVENTS, EXPOSURE_EVENTS, OVER_LIMIT_EVENTS];

export interface AlertPassResult {
  events: number;
  messages: number;
  /** Messages about refund requests: asking their approvers, telling the person who asked. */
  approvals: number;
  digests: number;
  delivered: number;
  failed: number;
}

/**
 * One round of the alert work, in order: verdicts, settlements, exposures and refunds made over a limit that need a person become
 * events (and Flow calls), refund requests become messages to their approvers and decisions to the person who asked, events become
 * grouped messages, the digest is queued at its hour, and whatever is due is sent.
 */
export async function runAlertPasses(deps: Helpers & { gateway: ShopifyGateway; contract: Contract; grouping: GroupingTiming }): Promise<AlertPassResult> {
  // Each stage on its own: one that fails (a database hiccup) must not hold up the others' sends.
  const stage = async <T>(name: string, run: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      deps.logger.error({ err: error, stage: name }, "alert stage failed");
      return fallback;
    }
  };
  let events = 0;
  for (const source of EVENT_SOURCES)
    events += await stage(source.name, () => openEvents(source, { db: deps.db, gateway: deps.gateway, contract: deps.contract, now: deps.now() }), 0);
  // Refunds over a limit waiting for approval: their approvers are asked, and the person who asked hears of a decline or an expiry.
  const asked = await stage("approval requests", () => askApprovers(deps.db, deps.now()), 0);
  const told = await stage("approval decisions", () => tellAskers(deps.db, deps.now()), 0);
  const messages = await stage("grouping", () => groupInstantAlerts(deps.db, deps.contract, deps.now(), deps.grouping), 0);
  const digests = await stage("digest", () => queueDueDigests(deps.db, deps.gateway, deps.contract, deps.now()), 0);
  const sent = await stage("delivery", () => deliverDue(deps.gateway, deps), { delivered: 0, failed: 0 });
  return { events, messages, approvals: asked + told, digests, ...sent };
}
