import type { RefundRecord } from "@prisma/client";
import type { FieldErrors } from "./form";
import type { RiskCode } from "./risk";

/** What deciding a refund request can come to besides an issue's outcomes (app/refunds/approval.server.ts). */
export type ApprovalCode =
  "REQUEST_NOT_FOUND" | "OWN_REQUEST" | "NOT_APPROVER" | "ALREADY_DECIDED" | "REQUEST_EXPIRED" | "LIMITS_CHANGED" | "NOT_APPROVED" | "INVALID_REASON";

export type IssueCode =
  | "INVALID_AMOUNT"
  | "ATTEMPT_LIMIT"
  | "ORDER_NOT_FOUND"
  | "OVER_TENDERED"
  | "SHOPIFY_UNAVAILABLE"
  | "USER_ERRORS"
  | "NOT_RUN"
  | "OUTCOME_UNKNOWN"
  | "OUTCOME_PENDING"
  | "KEY_CONFLICT"
  | "CONFLICT"
  | "NOT_RETRYABLE"
  | "RECENT_REFUND"
  | "IN_PROGRESS"
  | "INVALID_FORM"
  // Over one of the shop's limits: recorded, waiting for an approver (app/refunds/approval.server.ts).
  | "AWAITING_APPROVAL"
  | ApprovalCode
  // Money at risk twice: the refund waits for "Yes, refund anyway" (./risk.ts).
  | RiskCode;
/**
 * What issuing, re-sending or settling a refund came to: the record, or a code and words for a
 * person (a screen answers with the HTTP status ISSUE_STATUS gives its code).
 * A refund that waits for "Yes, refund anyway" names every risk it runs in `risks`.
 */
export type IssueResult =
  { ok: true; record: RefundRecord } | { ok: false; code: IssueCode; message: string; record?: RefundRecord; fieldErrors?: FieldErrors; risks?: RiskCode[] };

export type IssueFailure = Extract<IssueResult, { ok: false }>;
/** A refund over a limit: its record waits for an approver; nothing went to Shopify. */
export const awaitingApproval = (record: RefundRecord, message: string): IssueFailure => fail("AWAITING_APPROVAL", message, record);

export const fail = (code: IssueCode, message: string, record?: RefundRecord, fieldErrors?: FieldErrors): IssueFailure => ({
  ok: false,
  code,
  message,
  record,
  ...(fieldErrors ? { fieldErrors } : {}),
});

/** Each code's HTTP status, the one place an issue's or a decision's outcome becomes one (app/lib/http/status.ts). */
export const ISSUE_STATUS: Readonly<Record<IssueCode, number>> = {
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
