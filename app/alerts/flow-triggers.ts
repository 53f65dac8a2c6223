import { VERDICT_LABELS, orderLabel } from "../verdicts/words";

/** The app's Flow triggers on a refund's verdict (extensions/flow-refund-*): one per verdict that needs a person. */
export const FLOW_TRIGGERS = [
  { verdict: "CONTRADICTED", handle: "refund-contradicted", name: "Refund contradicted" },
  { verdict: "FAILED", handle: "refund-failed-at-gateway", name: "Refund failed at gateway" },
  { verdict: "UNVERIFIABLE", handle: "refund-unverifiable", name: "Refund unverifiable" },
] as const;

/**
 * The app's Flow triggers on where a verified refund's money went (contract shopify.refund.settled),
 * one per money alert a workflow may start on (app/alerts/money.ts). A sibling of FLOW_TRIGGERS,
 * whose `verdict` is also an alert setting's choice: these are called by their alert's kind.
 */
export const MONEY_FLOW_TRIGGERS = [{ alert: "PAYOUT_FAILED", handle: "refund-payout-failed", name: "Refund payout failed" }] as const;

export type FlowTrigger = (typeof FLOW_TRIGGERS)[number];
export type MoneyFlowTrigger = (typeof MONEY_FLOW_TRIGGERS)[number];

/** Every trigger the app has: what its extensions deploy, the alerts page lists and Flow's lifecycle callback may name. */
export const ALL_FLOW_TRIGGERS: readonly (FlowTrigger | MoneyFlowTrigger)[] = [...FLOW_TRIGGERS, ...MONEY_FLOW_TRIGGERS];

export function flowTriggerFor(verdict: string): FlowTrigger | undefined {
  return FLOW_TRIGGERS.find((trigger) => trigger.verdict === verdict);
}

/** The trigger a money alert (AlertEvent.verdict of a settlement) starts, if any. */
export function moneyFlowTriggerFor(alert: string): MoneyFlowTrigger | undefined {
  return MONEY_FLOW_TRIGGERS.find((trigger) => trigger.alert === alert);
}

/**
 * Flow's lifecycle callback names a trigger by `flow_trigger_definition_id`; Shopify's guide shows
 * the trigger's title there, extensions made with the CLI carry the handle. Either names it.
 */
export function flowTriggerByDefinitionId(definitionId: string): FlowTrigger | MoneyFlowTrigger | undefined {
  return ALL_FLOW_TRIGGERS.find((trigger) => trigger.handle === definitionId || trigger.name === definitionId);
}

export interface FlowRefund {
  orderName: string | null;
  orderId: string;
  verdict: string;
  reasons: string[];
  classes: string[];
  amount: string | null;
  currency: string | null;
  refundGid: string;
  orderGid: string;
  origin: string;
  evidenceUrl: string;
  /** The payout that carried the refund, for a money trigger (refund-payout-failed). */
  payout?: { id: string | null; status: string | null };
}

/**
 * A reference field's id: a JSON number as Shopify's guide shows, while it survives as one; above
 * 2^53 a number would name another order, so the exact digits go as a string (see decision 011).
 */
export function flowResourceId(gid: string): number | string {
  const digits = gid.split("/").pop() ?? "";
  const id = Number(digits);
  return Number.isSafeInteger(id) ? id : digits;
}

/**
 * The payload of flowTriggerReceive: the keys are the trigger's fields (shopify.extension.toml),
 * `order_id` is its order_reference. Money stays a decimal string with its currency code.
 */
export function flowPayload(refund: FlowRefund): Record<string, string | number> {
  return {
    order_id: flowResourceId(refund.orderGid),
    "order name": orderLabel(refund),
    verdict: VERDICT_LABELS[refund.verdict] ?? refund.verdict,
    reasons: refund.reasons.join(" | "),
    classes: refund.classes.join(", "),
    amount: refund.amount ?? "",
    "currency code": refund.currency ?? "",
    "refund id": refund.refundGid,
    origin: refund.origin,
    "evidence url": refund.evidenceUrl,
    ...(refund.payout ? { "payout id": refund.payout.id ?? "", "payout status": refund.payout.status ?? "" } : {}),
  };
}
