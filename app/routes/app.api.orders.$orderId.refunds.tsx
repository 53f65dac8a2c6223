import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { authenticateAdmin } from "../screens/admin-auth.server";
import { NOT_AN_ORDER_ADDRESS, orderGidInAddress } from "../shopify/ids";
import { orderRefunds } from "../screens/order-block.server";

/** For the order-page block: this shop's verdicts for one order. The block's ID token authenticates; CORS lets the admin read it. */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session, cors } = await authenticateAdmin(request);
  const order = orderGidInAddress(params.orderId);
  // Another spelling of an order's number is no order: answered as such, not as an order without refunds.
  if (!order) return cors(new Response(NOT_AN_ORDER_ADDRESS, { status: 404 }));
  return cors(json(await orderRefunds(session.shop, order)));
};
