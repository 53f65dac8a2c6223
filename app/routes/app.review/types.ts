// The review queue's data types, declared apart from route.tsx: its components import them from here, and route.tsx
// imports those components, so taking the types from route.tsx would tie the files into a circle.
import type { ActionFunctionArgs, LoaderFunctionArgs, TypedResponse } from "@remix-run/node";
import type { useLoaderData } from "@remix-run/react";
import type { reviewPage } from "../../review/review.server";
import type { RefundActionOutcome } from "../../review/actions.server";

/** route.tsx's loader: the server module's page of the queue. */
export type Loader = (args: LoaderFunctionArgs) => Promise<Awaited<ReturnType<typeof reviewPage>>>;
/**
 * route.tsx's action: the server module's outcome, as JSON; a refusal always names who resolved the item, their note
 * and when (null when nobody did), so that a resolve that lost the race says who won.
 */
export type Action = (args: ActionFunctionArgs) => Promise<
  TypedResponse<
    | Extract<RefundActionOutcome, { ok: true }>
    | (Omit<Extract<RefundActionOutcome, { ok: false }>, "resolvedBy" | "resolvedNote" | "resolvedAt"> & {
        resolvedBy: string | null;
        resolvedNote: string | null;
        resolvedAt: string | null;
      })
  >
>;

export type ReviewData = ReturnType<typeof useLoaderData<Loader>>;
export type Item = ReviewData["items"][number];
