import { parseMinor } from "./money";
import type { FakeShop } from "./shop";

/** DisputeStatus of the 2026-10 schema; CHARGE_REFUNDED is deprecated there ("no longer supported") but still in the enum. */
export type DisputeStatus = "ACCEPTED" | "CHARGE_REFUNDED" | "LOST" | "NEEDS_RESPONSE" | "PREVENTED" | "UNDER_REVIEW" | "WON";
export const DISPUTE_STATUSES: readonly DisputeStatus[] = ["ACCEPTED", "CHARGE_REFUNDED", "LOST", "NEEDS_RESPONSE", "PREVENTED", "UNDER_REVIEW", "WON"];

/** DisputeType: "the dispute is in the inquiry phase", or "has turned into a chargeback". */
export type DisputeType = "CHARGEBACK" | "INQUIRY";

/** ShopifyPaymentsDisputeReason of the 2026-10 schema. */
export type ShopifyPaymentsDisputeReason =
  | "BANK_CANNOT_PROCESS"
  | "CREDIT_NOT_PROCESSED"
  | "CUSTOMER_INITIATED"
  | "DEBIT_NOT_AUTHORIZED"
  | "DUPLICATE"
  | "FRAUDULENT"
  | "GENERAL"
  | "INCORRECT_ACCOUNT_DETAILS"
  | "INSUFFICIENT_FUNDS"
  | "NONCOMPLIANT"
  | "PRODUCT_NOT_RECEIVED"
  | "PRODUCT_UNACCEPTABLE"
  | "SUBSCRIPTION_CANCELLED"
  | "UNRECOGNIZED";

/**
 * The statuses a dispute ends in: finalizedOn is "the date when this dispute was resolved". The
 * brief named WON, LOST, ACCEPTED and CHARGE_REFUNDED; PREVENTED ("prevented from becoming a
 * formal chargeback") ends it too, in our reading.
 */
export const FINAL_DISPUTE_STATUSES: readonly DisputeStatus[] = ["ACCEPTED", "CHARGE_REFUNDED", "LOST", "PREVENTED", "WON"];

/** The text fields of ShopifyPaymentsDisputeEvidenceUpdateInput that the fake records, as ShopifyPaymentsDisputeEvidence shows them. */
export const EVIDENCE_TEXT_FIELDS = [
  "accessActivityLog",
  "cancellationPolicyDisclosure",
  "cancellationRebuttal",
  "customerEmailAddress",
  "customerFirstName",
  "customerLastName",
  "refundPolicyDisclosure",
  "refundRefusalExplanation",
  "uncategorizedText",
] as const;
export type EvidenceTextField = (typeof EVIDENCE_TEXT_FIELDS)[number];

/** The merchant's evidence for one dispute (ShopifyPaymentsDisputeEvidence): one per dispute, with an id of its own. */
export interface FakeDisputeEvidence {
  id: bigint;
  submitted: boolean;
  text: Partial<Record<EvidenceTextField, string | null>>;
  /** MailingAddressInput's fields as given (address1, city, countryCode, zip, …). */
  shippingAddress: Record<string, string | null> | null;
}

export interface FakeDispute {
  /** The ShopifyPaymentsDispute's id; Order.disputes shows the same number under OrderDisputeSummary. */
  id: bigint;
  orderId: bigint;
  status: DisputeStatus;
  /** ShopifyPaymentsDispute.type: an inquiry may turn into a chargeback. */
  type: DisputeType;
  /** OrderDisputeSummary.initiatedAs: "the type that the dispute was initiated as", which never changes. */
  initiatedAs: DisputeType;
  reason: ShopifyPaymentsDisputeReason;
  networkReasonCode: string | null;
  /** "The total amount disputed by the cardholder", in `currency` (the order's presentment currency: what was charged). */
  amountMinor: bigint;
  currency: string;
  initiatedAt: Date;
  evidenceDueBy: Date | null;
  evidenceSentOn: Date | null;
  finalizedOn: Date | null;
  updatedAt: Date;
  evidence: FakeDisputeEvidence;
}

export interface CreateDisputeOptions {
  /** A presentment decimal ("25.00"); default the order's total. */
  amount?: string;
  reason?: ShopifyPaymentsDisputeReason;
  status?: DisputeStatus;
  initiatedAs?: DisputeType;
  initiatedAt?: Date;
  /** Default initiatedAt + 7 days; null for none (Shopify's REST examples show inquiries without one). */
  evidenceDueBy?: Date | null;
  /** The card network's code; default a Visa code for the reason, null where there is none. */
  networkReasonCode?: string | null;
}

export interface DisputeChanges {
  status: DisputeStatus;
  /** Default: now for a final status (FINAL_DISPUTE_STATUSES), else what it was. */
  finalizedOn?: Date | null;
  /** The inquiry turned into a chargeback. */
  type?: DisputeType;
  evidenceSentOn?: Date | null;
  evidenceDueBy?: Date | null;
}

const DAY_MS = 86_400_000;

/** Visa's reason codes for the reasons that have one; a fake's default, nothing Shopify states. */
const VISA_CODES: Partial<Record<ShopifyPaymentsDisputeReason, string>> = {
  FRAUDULENT: "10.4",
  PRODUCT_NOT_RECEIVED: "13.1",
  SUBSCRIPTION_CANCELLED: "13.2",
  PRODUCT_UNACCEPTABLE: "13.3",
  CREDIT_NOT_PROCESSED: "13.6",
  DUPLICATE: "12.6.1",
};

export const isFinal = (status: DisputeStatus) => FINAL_DISPUTE_STATUSES.includes(status);

/** A dispute on an order paid through Shopify Payments (ShopifyPaymentsDispute: no other gateway's), on the shop's clock. */
export function createDispute(shop: FakeShop, orderId: bigint, options: CreateDisputeOptions = {}): FakeDispute {
  const order = shop.orders.get(orderId);
  if (!order) throw new Error(`no order ${orderId}`);
  if (!shop.captures(order).some((t) => t.gateway === "shopify_payments"))
    throw new Error(`order ${order.name} was not paid through Shopify Payments: it can have no ShopifyPaymentsDispute`);
  const status = options.status ?? "NEEDS_RESPONSE";
  if (!DISPUTE_STATUSES.includes(status)) throw new Error(`not a DisputeStatus: ${status}`);
  const reason = options.reason ?? "FRAUDULENT";
  const initiatedAt = options.initiatedAt ?? shop.now();
  const initiatedAs = options.initiatedAs ?? "CHARGEBACK";
  const dispute: FakeDispute = {
    id: shop.nextId(),
    orderId,
    status,
    type: initiatedAs,
    initiatedAs,
    reason,
    networkReasonCode: options.networkReasonCode === undefined ? (VISA_CODES[reason] ?? null) : options.networkReasonCode,
    amountMinor: options.amount === undefined ? order.totalMinor : parseMinor(options.amount, order.presentmentCurrency),
    currency: order.presentmentCurrency,
    initiatedAt,
    evidenceDueBy: options.evidenceDueBy === undefined ? new Date(initiatedAt.getTime() + 7 * DAY_MS) : options.evidenceDueBy,
    evidenceSentOn: null,
    finalizedOn: isFinal(status) ? shop.now() : null,
    updatedAt: shop.now(),
    evidence: { id: shop.nextId(), submitted: false, text: {}, shippingAddress: null },
  };
  shop.disputes.set(dispute.id, dispute);
  shop.onDisputeEvent?.("disputes/create", dispute);
  return dispute;
}

/** The dispute moves on (the bank decided, the inquiry became a chargeback): Shopify sends disputes/update. */
export function updateDispute(shop: FakeShop, id: bigint, changes: DisputeChanges): FakeDispute {
  const dispute = shop.disputes.get(id);
  if (!dispute) throw new Error(`no dispute ${id}`);
  if (!DISPUTE_STATUSES.includes(changes.status)) throw new Error(`not a DisputeStatus: ${changes.status}`);
  dispute.status = changes.status;
  if (changes.type) dispute.type = changes.type;
  if (changes.evidenceSentOn !== undefined) dispute.evidenceSentOn = changes.evidenceSentOn;
  if (changes.evidenceDueBy !== undefined) dispute.evidenceDueBy = changes.evidenceDueBy;
  dispute.finalizedOn = changes.finalizedOn !== undefined ? changes.finalizedOn : isFinal(changes.status) ? shop.now() : dispute.finalizedOn;
  dispute.updatedAt = shop.now();
  shop.onDisputeEvent?.("disputes/update", dispute);
  return dispute;
}

/** The merchant's evidence was sent: the dispute is UNDER_REVIEW from now (ShopifyPaymentsDispute.evidenceSentOn). */
export function submitEvidence(shop: FakeShop, dispute: FakeDispute): void {
  dispute.evidence.submitted = true;
  dispute.evidenceSentOn = shop.now();
  if (dispute.status === "NEEDS_RESPONSE") dispute.status = "UNDER_REVIEW";
  dispute.updatedAt = shop.now();
  shop.onDisputeEvent?.("disputes/update", dispute);
}
