import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { authenticateAdmin } from "../screens/admin-auth.server";
import { refundAttemptsAt } from "../refunds/form.server";

/**
 * The refund form's side card alone (the order's refunds issued from the app, their verdicts and
 * requests), read from the database: what the form reads again every few seconds while a refund is
 * being checked, instead of the whole page, which asks Shopify for the order.
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticateAdmin(request);
  return json(await refundAttemptsAt(session.shop, params.orderId ?? ""), { headers: { "Cache-Control": "no-store" } });
};
