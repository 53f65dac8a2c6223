import type { IssueCode } from "../refunds/issue.server";
import type { ReviewCode } from "../review/review.server";

export type DomainCode = IssueCode | ReviewCode;

/** The one place a domain code becomes an HTTP status: the routes ask here, the domain never does. */
const STATUS: Record<DomainCode, number> = {
  NOT_FOUND: 404,
  INVALID_NOTE: 422,
  INVALID_FORM: 422,
  INVALID_AMOUNT: 422,
  USER_ERRORS: 422,
  ORDER_NOT_FOUND: 404,
  OVER_TENDERED: 409,
  OUTCOME_PENDING: 409,
  ATTEMPT_LIMIT: 409,
  RECENT_REFUND: 409,
  IN_PROGRESS: 409,
  KEY_CONFLICT: 409,
  CONFLICT: 409,
  NOT_RETRYABLE: 409,
  // Money at risk twice: the same request, confirmed with "Yes, refund anyway", goes through.
  OPEN_CHARGEBACK: 409,
  STORE_CREDIT_REFUNDED: 409,
  REFUNDED_PAST_PAYMENT: 409,
  // Over a limit: recorded and accepted, waiting for an approver; nothing went to Shopify.
  AWAITING_APPROVAL: 202,
  REQUEST_NOT_FOUND: 404,
  OWN_REQUEST: 403,
  NOT_APPROVER: 403,
  ALREADY_DECIDED: 409,
  REQUEST_EXPIRED: 410,
  LIMITS_CHANGED: 409,
  NOT_APPROVED: 409,
  INVALID_REASON: 422,
  // Shopify did not answer, or ran nothing: a bad gateway for the person, not their mistake.
  SHOPIFY_UNAVAILABLE: 502,
  NOT_RUN: 502,
  OUTCOME_UNKNOWN: 502,
};

export function httpStatus(result: { ok: true } | { ok: false; code: DomainCode }): number {
  return result.ok ? 200 : STATUS[result.code];
}
