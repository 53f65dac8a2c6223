// The dashboard's data types, declared apart from route.tsx: its components import them from here, and route.tsx
// imports those components, so taking the types from route.tsx would tie the files into a circle.
import type { useLoaderData } from "@remix-run/react";
import type { screenAction, screenLoader } from "../../screens/context.server";
import type { act, load } from "../../screens/dashboard.server";

/** route.tsx's loader: the dashboard screen's. */
export type Loader = ReturnType<typeof screenLoader<Awaited<ReturnType<typeof load>>>>;
/** route.tsx's action ("Verify history"): the dashboard screen's answer. */
export type Action = ReturnType<typeof screenAction<Awaited<ReturnType<typeof act>>>>;

export type DashboardData = ReturnType<typeof useLoaderData<Loader>>;
export type Row = DashboardData["rows"][number];
