import { httpStatus } from "../http/status";
import type { IssueResult } from "./issue.server";
import { isRiskCode } from "./risk";

/**
 * The refund form's HTTP status: app/http/status.ts for every code it maps, and 409 for a refund
 * waiting for "Yes, refund anyway" (the same request, confirmed, goes through, as for RECENT_REFUND).
 * The risk codes belong in app/http/status.ts's table; until they are there, they are mapped here.
 */
export function refundHttpStatus(result: IssueResult): number {
  if (result.ok) return httpStatus(result);
  const { code } = result;
  return isRiskCode(code) ? 409 : httpStatus({ ok: false, code });
}
