import type { HeadersFunction } from "@remix-run/node";
import { screenLoader } from "../screens/context.server";
import { attempts } from "../screens/refund-form.server";

/**
 * The refund form's side card alone (the order's refunds issued from the app, their verdicts and
 * requests), read from the database: what the form reads again every few seconds while a refund is
 * being checked, instead of the whole page, which asks Shopify for the order. Never kept by a
 * browser or a proxy.
 */
export const loader = screenLoader(async (context) => Response.json(await attempts(context), { headers: NOT_KEPT }));

const NOT_KEPT = { "Cache-Control": "no-store" };

// A direct GET of a resource route sends what the loader returned, so it is a Response (data()'s
// headers would be dropped); single fetch sends a data request's headers from the route's `headers`.
export const headers: HeadersFunction = () => NOT_KEPT;
