import type { FakeDispute } from "./disputes";
import { compareId, compareTime, search, type SearchTerm } from "./search";
import type { FakeShop } from "./shop";
import { accessDenied, connection, dateTime, gid, money, parseGid, type PageArgs, type Views } from "./views";

/** The 2026-10 schema's access metadata of ShopifyPaymentsDispute (and its reason details), word for word. */
export const DISPUTES_ACCESS = "User must have `read_shopify_payments_disputes` access.";
/** Of ShopifyPaymentsDisputeEvidence. */
export const EVIDENCE_ACCESS = "`read_shopify_payments_dispute_evidences` access scope.";

/** An error a resolver answers in place of its value is thrown, so graphql-js records it at the field's path. */
export const thrown = <T>(value: T) => {
  if (value instanceof Error) throw value;
  return value;
};

export const canReadDisputes = (shop: FakeShop) => shop.hasScope("read_shopify_payments_disputes");

interface DisputeArgs extends PageArgs {
  query?: string | null;
}

/** The disputes' search fields, all those the `query` argument's description lists: id, initiated_at, status. */
function disputeTerm(term: SearchTerm, d: FakeDispute): boolean | null {
  switch (term.field) {
    case "id":
      return compareId(term, d.id);
    case "initiated_at":
      return compareTime(term, d.initiatedAt);
    case "status":
      return d.status.toLowerCase() === term.value.toLowerCase();
    default:
      return null;
  }
}

/** ShopifyPaymentsDisputeEvidence, or ACCESS_DENIED in its place without `read_shopify_payments_dispute_evidences` (a `write_` grant includes it). */
export function readableEvidence(shop: FakeShop, views: Views, d: FakeDispute) {
  return shop.hasScope("read_shopify_payments_dispute_evidences") ? evidenceView(shop, views, d) : accessDenied("disputeEvidence", EVIDENCE_ACCESS);
}

function evidenceView(shop: FakeShop, views: Views, d: FakeDispute): Record<string, unknown> {
  const e = d.evidence;
  const address = e.shippingAddress;
  return {
    __typename: "ShopifyPaymentsDisputeEvidence",
    id: gid("ShopifyPaymentsDisputeEvidence", e.id),
    submitted: e.submitted,
    dispute: () => thrown(readableDispute(shop, views, d, "dispute")),
    ...Object.fromEntries(Object.entries(e.text)),
    shippingAddress: address && { __typename: "MailingAddress", ...address, countryCodeV2: address.countryCode ?? null },
    billingAddress: null,
    productDescription: null,
    customerPurchaseIp: null,
    disputeFileUploads: [],
    fulfillments: [],
    cancellationPolicyFile: null,
    customerCommunicationFile: null,
    refundPolicyFile: null,
    serviceDocumentationFile: null,
    shippingDocumentationFile: null,
    uncategorizedFile: null,
  };
}

export function disputeView(shop: FakeShop, views: Views, d: FakeDispute): Record<string, unknown> {
  const order = shop.orders.get(d.orderId)!;
  return {
    __typename: "ShopifyPaymentsDispute",
    id: gid("ShopifyPaymentsDispute", d.id),
    legacyResourceId: d.id.toString(),
    status: d.status,
    type: d.type,
    amount: money(d.amountMinor, d.currency),
    reasonDetails: { reason: d.reason, networkReasonCode: d.networkReasonCode },
    initiatedAt: dateTime(d.initiatedAt),
    evidenceDueBy: d.evidenceDueBy && dateTime(d.evidenceDueBy),
    evidenceSentOn: d.evidenceSentOn && dateTime(d.evidenceSentOn),
    finalizedOn: d.finalizedOn && dateTime(d.finalizedOn),
    order: () => views.order(order),
    disputeEvidence: () => thrown(readableEvidence(shop, views, d)),
  };
}

/** A dispute where the app may not read disputes is an ACCESS_DENIED error in its place (graphql-js answers null there, with the error's path). */
export function readableDispute(shop: FakeShop, views: Views, d: FakeDispute, field: string) {
  return canReadDisputes(shop) ? disputeView(shop, views, d) : accessDenied(field, DISPUTES_ACCESS);
}

/** The dispute a ShopifyPaymentsDispute gid names; undefined for any other (an OrderDisputeSummary gid names none). */
export function disputeByGid(shop: FakeShop, id: string): FakeDispute | undefined {
  const parsed = parseGid(id, "ShopifyPaymentsDispute");
  return parsed && shop.disputes.get(parsed.id);
}

export function disputeByEvidenceGid(shop: FakeShop, id: string): FakeDispute | undefined {
  const parsed = parseGid(id, "ShopifyPaymentsDisputeEvidence");
  return parsed && [...shop.disputes.values()].find((d) => d.evidence.id === parsed.id);
}

/**
 * QueryRoot.disputes and ShopifyPaymentsAccount.disputes: the shop's disputes, newest initiatedAt
 * first (the order Shopify's REST list documents; the GraphQL reference names none). Without the
 * scope it throws: the connection is non-null, so the error nulls what holds it.
 */
export function disputesConnection(shop: FakeShop, views: Views, args: DisputeArgs, field: string) {
  if (!canReadDisputes(shop)) throw accessDenied(field, DISPUTES_ACCESS);
  const all = [...shop.disputes.values()].sort((a, b) => b.initiatedAt.getTime() - a.initiatedAt.getTime() || (a.id < b.id ? 1 : -1));
  return connection(search(all, args.query, disputeTerm), args, (d) => disputeView(shop, views, d));
}
