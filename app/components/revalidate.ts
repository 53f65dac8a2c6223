import type { ShouldRevalidateFunction } from "@remix-run/react";

/**
 * A page's data is read again after every action, whatever the action answered, as before single
 * fetch: Remix's single fetch (like React Router 7) skips it after a 4xx or 5xx answer, and the
 * pages here answer a refused refund, a lost race or a form's errors with one while what they show
 * (the order's attempts, who resolved the refund) may have moved meanwhile.
 */
export const afterEveryAction: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus !== undefined && actionStatus >= 400 ? true : defaultShouldRevalidate;
