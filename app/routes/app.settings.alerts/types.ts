// The alerts page's data types, declared apart from route.tsx: its hook imports them from here, and route.tsx imports
// that hook, so taking the types from route.tsx would tie the files into a circle.
import type { ActionFunctionArgs, LoaderFunctionArgs, TypedResponse } from "@remix-run/node";
import type { useLoaderData } from "@remix-run/react";
import type { AlertsActionResult, alertsPage } from "../../alerts/page.server";

/** route.tsx's loader: the server module's page, as JSON. */
export type Loader = (args: LoaderFunctionArgs) => Promise<TypedResponse<Awaited<ReturnType<typeof alertsPage>>>>;
/** route.tsx's action: the server module's answer to a save, a test alert or a "Send again", as JSON. */
export type Action = (args: ActionFunctionArgs) => Promise<TypedResponse<AlertsActionResult>>;

export type AlertsLoaderData = ReturnType<typeof useLoaderData<Loader>>;
