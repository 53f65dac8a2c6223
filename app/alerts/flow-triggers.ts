import { VERDICT_LABELS, orderLabel } from "../verdicts/words";
import { numberOfGid } from "../shopify/ids";

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

/**
 * The app's Flow trigger on money at risk twice (contract shopify.refund.exposure): started once per
 * refund, when a dispute (open or lost) first puts it at risk (app/alerts/exposure-alerts.ts).
 */
export const DISPUTED_ORDER_FLOW_TRIGGER = { handle: "refund-on-disputed-order", name: "Refund on a disputed order" } as const;

/**
 * The app's Flow trigger on a refund asked for in the app that went over one of the shop's limits
 * (decision 030): started once per request, when it starts waiting for approval (app/alerts/approval-events.server.ts).
 */
export const APPROVAL_FLOW_TRIGGER = { handle: "refund-waiting-for-approval", name: "Refund waiting for approval" } as const;

export type FlowTrigger = (typeof FLOW_TRIGGERS)[number];
export type MoneyFlowTrigger = (typeof MONEY_FLOW_TRIGGERS)[number];
type AnyFlowTrigger = FlowTrigger | MoneyFlowTrigger | typeof DISPUTED_ORDER_FLOW_TRIGGER | typeof APPROVAL_FLOW_TRIGGER;

/** Every trigger the app has: what its extensions deploy, the alerts page lists and Flow's lifecycle callback may name. */
export const ALL_FLOW_TRIGGERS: readonly AnyFlowTrigger[] = [...FLOW_TRIGGERS, ...MONEY_FLOW_TRIGGERS, DISPUTED_ORDER_FLOW_TRIGGER, APPROVAL_FLOW_TRIGGER];

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
export function flowTriggerByDefinitionId(definitionId: string): AnyFlowTrigger | undefined {
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
  const digits = numberOfGid(gid);
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

/** What "Refund on a disputed order" tells a workflow: the refund, the money at risk and the dispute that puts it at risk. */
export interface DisputedRefund {
  orderName: string | null;
  orderId: string;
  orderGid: string;
  refundGid: string;
  origin: string;
  evidenceUrl: string;
  /** The exposure's reasons in words, and its classes as the contract names them. */
  reasons: string[];
  classes: string[];
  amount: string | null;
  currency: string | null;
  atRisk: { amount: string | null; currency: string | null };
  /** Shopify's ShopifyPaymentsDispute gid, status and reason; the reason and due date only where the shop granted read_shopify_payments_disputes. */
  dispute: { id: string; status: string; reason: string | null; evidenceDueBy: string | null } | null;
}

/** An instant as Shopify's DateTime wrote it, in one spelling (toISOString), or "" when unknown. */
const instant = (iso: string | null) => (iso && !Number.isNaN(Date.parse(iso)) ? new Date(iso).toISOString() : "");

/**
 * The payload of "Refund on a disputed order" (extensions/flow-refund-on-disputed-order): the keys
 * are its fields. Money stays a decimal string with its currency code; the dispute's status and
 * reason are Shopify's codes (NEEDS_RESPONSE, CREDIT_NOT_PROCESSED), which a workflow's condition
 * compares; what the app could not read is "".
 */
export function disputedOrderFlowPayload(refund: DisputedRefund): Record<string, string | number> {
  return {
    order_id: flowResourceId(refund.orderGid),
    "order name": orderLabel(refund),
    reasons: refund.reasons.join(" | "),
    classes: refund.classes.join(", "),
    amount: refund.amount ?? "",
    "currency code": refund.currency ?? "",
    "amount at risk": refund.atRisk.amount ?? "",
    "at risk currency code": refund.atRisk.currency ?? "",
    "dispute id": refund.dispute?.id ?? "",
    "dispute status": refund.dispute?.status ?? "",
    "dispute reason": refund.dispute?.reason ?? "",
    "evidence due by": instant(refund.dispute?.evidenceDueBy ?? null),
    "refund id": refund.refundGid,
    origin: refund.origin,
    "evidence url": refund.evidenceUrl,
  };
}

/** What "Refund waiting for approval" tells a workflow: the refund asked for, who asked, the limits it went over, until when, and where to decide it. */
export interface WaitingRefund {
  orderGid: string;
  orderName: string;
  /** A decimal string in `currency` (never a float). */
  amount: string;
  currency: string;
  askedBy: string;
  /** The limits it went over, in words (app/guardrails/limits.ts breachesSentence). */
  limits: string;
  expiresAt: Date;
  requestUrl: string;
}

/** The payload of "Refund waiting for approval" (extensions/flow-refund-waiting-for-approval): the keys are its fields. */
export function approvalFlowPayload(refund: WaitingRefund): Record<string, string | number> {
  return {
    order_id: flowResourceId(refund.orderGid),
    "order name": refund.orderName,
    amount: refund.amount,
    "currency code": refund.currency,
    "asked by": refund.askedBy,
    limits: refund.limits,
    "expires at": refund.expiresAt.toISOString(),
    "request url": refund.requestUrl,
  };
}
