import { VERDICT_LABELS, orderLabel } from "../verdicts/words";

/** The app's Flow triggers (extensions/flow-refund-*): one per verdict that needs a person. */
export const FLOW_TRIGGERS = [
  { verdict: "CONTRADICTED", handle: "refund-contradicted", name: "Refund contradicted" },
  { verdict: "FAILED", handle: "refund-failed-at-gateway", name: "Refund failed at gateway" },
  { verdict: "UNVERIFIABLE", handle: "refund-unverifiable", name: "Refund unverifiable" },
] as const;

export type FlowTrigger = (typeof FLOW_TRIGGERS)[number];

export function flowTriggerFor(verdict: string): FlowTrigger | undefined {
  return FLOW_TRIGGERS.find((trigger) => trigger.verdict === verdict);
}

/**
 * Flow's lifecycle callback names a trigger by `flow_trigger_definition_id`; Shopify's guide shows
 * the trigger's title there, extensions made with the CLI carry the handle. Either names it.
 */
export function flowTriggerByDefinitionId(definitionId: string): FlowTrigger | undefined {
  return FLOW_TRIGGERS.find((trigger) => trigger.handle === definitionId || trigger.name === definitionId);
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
  };
}
