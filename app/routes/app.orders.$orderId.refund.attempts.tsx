import { data } from "@remix-run/node";
import { screenLoader } from "../screens/context.server";
import { attempts } from "../screens/refund-form.server";

/**
 * The refund form's side card alone (the order's refunds issued from the app, their verdicts and
 * requests), read from the database: what the form reads again every few seconds while a refund is
 * being checked, instead of the whole page, which asks Shopify for the order.
 */
export const loader = screenLoader(async (context) => data(await attempts(context), { headers: { "Cache-Control": "no-store" } }));
