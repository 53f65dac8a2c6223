// The alerts page's data types, declared apart from route.tsx: its hook imports them from here, and route.tsx imports
// that hook, so taking the types from route.tsx would tie the files into a circle.
import type { useLoaderData } from "@remix-run/react";
import type { AlertsActionResult, load } from "../../screens/alert-settings.server";
import type { screenAction, screenLoader } from "../../screens/context.server";

/** route.tsx's loader: the alerts screen's page. */
export type Loader = ReturnType<typeof screenLoader<Awaited<ReturnType<typeof load>>>>;
/** route.tsx's action: the screen's answer to a save, a test alert or a "Send again". */
export type Action = ReturnType<typeof screenAction<AlertsActionResult>>;

export type AlertsLoaderData = ReturnType<typeof useLoaderData<Loader>>;
