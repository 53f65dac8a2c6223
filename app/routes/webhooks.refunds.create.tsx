import type { ActionFunctionArgs } from "@remix-run/node";
import { postOnly, readLimited } from "../webhooks/authenticate.server";
import { receiveRefundDelivery } from "../webhooks/refund-intake.server";

export const loader = postOnly;

/** The same intake as the Node handler (`npm start` serves this path before Remix); here for `shopify app dev`. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const body = await readLimited(request);
  const { status, text } = await receiveRefundDelivery({ method: request.method, headers: request.headers, body });
  return new Response(text, { status, headers: status === 405 ? { Allow: "POST" } : {} });
};
