// The dashboard's data types, declared apart from route.tsx: its components import them from here, and route.tsx
// imports those components, so taking the types from route.tsx would tie the files into a circle.
import type { ActionFunctionArgs, LoaderFunctionArgs, TypedResponse } from "@remix-run/node";
import type { useLoaderData } from "@remix-run/react";
import type { backfillAction } from "../../backfill/page.server";
import type { loadDashboard } from "../../dashboard/load.server";

/** route.tsx's loader: the server module's dashboard. */
export type Loader = (args: LoaderFunctionArgs) => Promise<Awaited<ReturnType<typeof loadDashboard>>>;
/** route.tsx's action ("Verify history"): the server module's answer, as JSON. */
export type Action = (args: ActionFunctionArgs) => Promise<TypedResponse<Awaited<ReturnType<typeof backfillAction>>>>;

export type DashboardData = ReturnType<typeof useLoaderData<Loader>>;
export type Row = DashboardData["rows"][number];
