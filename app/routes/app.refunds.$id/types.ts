// The evidence page's data types, declared apart from route.tsx: its cards import them from here, and route.tsx
// imports those cards, so taking the types from route.tsx would tie the files into a circle.
import type { useActionData, useLoaderData } from "@remix-run/react";
import type { screenAction, screenLoader } from "../../screens/context.server";
import type { act, load } from "../../screens/refund.server";

export type Loader = ReturnType<typeof screenLoader<Awaited<ReturnType<typeof load>>>>;
export type Action = ReturnType<typeof screenAction<Awaited<ReturnType<typeof act>>>>;
export type Detail = ReturnType<typeof useLoaderData<Loader>>;
export type ActionResult = ReturnType<typeof useActionData<Action>>;
/** Every instant of the page, formatted once by the server in the shop's time zone. */
export type Times = Record<string, string>;
