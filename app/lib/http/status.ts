/**
 * Where an outcome for a person becomes an HTTP status: each capability names its codes and their
 * statuses in one table (refunds/outcomes.ts ISSUE_STATUS, review/review.server.ts REVIEW_STATUS),
 * and the screens answer with the status the table gives; this module knows no capability's codes.
 */
export function httpStatus<Code extends string>(result: { ok: true } | { ok: false; code: Code }, statuses: Readonly<Record<Code, number>>): number {
  return result.ok ? 200 : statuses[result.code];
}
