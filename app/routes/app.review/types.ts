// The review queue's data types, declared apart from route.tsx: its components import them from here, and route.tsx
// imports those components, so taking the types from route.tsx would tie the files into a circle.
import type { useLoaderData } from "@remix-run/react";
import type { screenAction, screenLoader } from "../../screens/context.server";
import type { load, RefundActionOutcome } from "../../screens/review-queue.server";

/** route.tsx's loader: the review queue screen's page. */
export type Loader = ReturnType<typeof screenLoader<Awaited<ReturnType<typeof load>>>>;
/** route.tsx's action: resolve or re-check; a refusal names who resolved the item, their note and when (null when nobody did). */
export type Action = ReturnType<typeof screenAction<RefundActionOutcome>>;

export type ReviewData = ReturnType<typeof useLoaderData<Loader>>;
export type Item = ReviewData["items"][number];
