import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { authenticateAdmin } from "../shopify/admin-auth.server";
import { orderRefunds } from "../verdicts/order-block.server";

/** For the order-page block: this shop's verdicts for one order. The block's ID token authenticates; CORS lets the admin read it. */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session, cors } = await authenticateAdmin(request);
  return cors(json(await orderRefunds(session.shop, params.orderId ?? "")));
};
