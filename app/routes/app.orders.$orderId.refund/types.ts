// The refund form's data types, declared apart from route.tsx: its components and hooks import them from here, and
// route.tsx imports those components, so taking the types from route.tsx would tie the files into a circle.
import type { useActionData, useLoaderData } from "@remix-run/react";
import type { RefundAttempts } from "../../refunds/attempts.server";
import type { screenAction, screenLoader } from "../../screens/context.server";
import type { act, load } from "../../screens/refund-form.server";

/** route.tsx's loader: the refund form screen's data, and the page's "Back" link (made safe). */
export type Loader = ReturnType<typeof screenLoader<Awaited<ReturnType<typeof load>>>>;

/**
 * route.tsx's action: a form that could not be read, the refund issued (or the attempt settled), or why not; with the
 * order's attempts as they are after it, for the side card.
 */
export type Action = ReturnType<typeof screenAction<Awaited<ReturnType<typeof act>>>>;

export type RefundFormData = ReturnType<typeof useLoaderData<Loader>>;
export type Order = RefundFormData["order"];
export type ActionResult = ReturnType<typeof useActionData<Action>>;

/** The side card's records and when they were read: from the page's data, the action's answer, or the attempts route. */
export type Attempts = RefundAttempts;
